"""The three rule sets as table formation sees them: table sizes, who a cut favours, citations.

Euchre's laws are numbered (Somerset Club, 1888); Elwell's Bridge laws (1907) are cited by their
section; Call-Ace (Foster, 1905) has one law on forming a table (law 1). The house rulings T1-T10
apply to all three, so every explanation names the game's own law and the ruling together.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .errors import FormationError

EUCHRE = "euchre-somerset-1888"
BRIDGE = "bridge-elwell-1907"
CALL_ACE = "call-ace-foster-1905"

#: Four play at a Euchre or Bridge table, partners opposite (law 11; Bridge, Forming Tables).
PARTNERSHIP_PLAYERS = 4


@dataclass(frozen=True)
class RuleSet:
    """How one game forms its tables."""

    key: str
    game: str
    #: Four players, two partnerships, rubbers, cutting in and out (Euchre, Bridge).
    partnership: bool
    #: Most members a table may have: six (Euchre law 12; Bridge: "six players constitute a
    #: full table"), or seven players at Call-Ace (law 1).
    most_members: int
    #: Euchre's highest cuts play, deal and stay in; Bridge's lowest (ruling T1).
    highest_plays: bool
    cites: Mapping[str, str]

    def cite(self, topic: str) -> str:
        """The law and ruling behind ``topic`` in this game."""
        return self.cites[topic]

    @property
    def favoured(self) -> str:
        """The end of the cutting order a cut favours: "highest" or "lowest"."""
        return "highest" if self.highest_plays else "lowest"

    @property
    def disfavoured(self) -> str:
        return "lowest" if self.highest_plays else "highest"


_EUCHRE_CITES = {
    "cards": "law 8 / ruling T1",
    "same_pack": "law 9 / ruling T10",
    "candidates": "ruling T2",
    "form": "law 11 / ruling T3",
    "members": "law 12 / ruling T3",
    "ties": "laws 13-14",
    "partners": "law 11 / ruling T4",
    "cut_out": "law 15 / ruling T5",
    "claim": "law 16",
    "fresh": "law 17 / ruling T3",
    "substitute": "law 18 / ruling T6",
    "leave": "law 19 / ruling T7",
    "change": "law 20 / ruling T8",
    "break_up": "law 21 / ruling T9",
    "rubber": "law 1 / ruling T4",
    "record": "ruling T10",
}

_BRIDGE_CITES = {
    "cards": "Bridge laws, Cutting / ruling T1",
    "same_pack": "Bridge laws, Cutting / ruling T10",
    "candidates": "ruling T2",
    "form": "Bridge laws, Forming Tables / ruling T3",
    "members": "Bridge laws, Forming Tables / ruling T3",
    "ties": "Bridge laws, Cutting",
    "partners": "Bridge laws, Forming Tables / ruling T4",
    "cut_out": "Bridge laws, Cutting Out / ruling T5",
    "claim": "Bridge laws, Rights of Entry",
    "fresh": "Bridge laws, Rights of Entry / ruling T3",
    "substitute": "Bridge laws, Rights of Entry / ruling T6",
    # Elwell has no law on leaving after one of two rubbers; the house ruling covers Bridge too.
    "leave": "ruling T7",
    "change": "Bridge laws, Rights of Entry / ruling T8",
    "break_up": "Bridge laws, Rights of Entry / ruling T9",
    "rubber": "ruling B7 / ruling T4",
    "record": "ruling T10",
}

_CALL_ACE_CITES = {
    "cards": "law 2 / ruling T1",
    "same_pack": "law 2 / ruling T10",
    "candidates": "ruling T2",
    "form": "law 1 / ruling T3",
    "members": "law 1",
    "fresh": "ruling T3",
    "first_jack": "law 1 / ruling T1",
    "claim": "law 1 / ruling T2",
    "substitute": "ruling T6",
    "leave": "law 1",
    "change": "ruling T8",
    "break_up": "ruling T9",
    "rubber": "ruling C5",
    "record": "ruling T10",
}

RULESETS: dict[str, RuleSet] = {
    EUCHRE: RuleSet(EUCHRE, "Euchre", True, 6, True, _EUCHRE_CITES),
    BRIDGE: RuleSet(BRIDGE, "Bridge", True, 6, False, _BRIDGE_CITES),
    CALL_ACE: RuleSet(CALL_ACE, "Call-Ace", False, 7, True, _CALL_ACE_CITES),
}


def get_rule_set(key: object) -> RuleSet:
    """The rule set with this key; a FormationError on the ``rule_set`` field for any other."""
    if not isinstance(key, str) or key not in RULESETS:
        known = ", ".join(RULESETS)
        raise FormationError(f"unknown rule set {key!r}: use one of {known}", field="rule_set")
    return RULESETS[key]
