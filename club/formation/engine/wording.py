"""The engine's constants and the wording of its decisions: names, counts, cards, cut purposes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from core.quoted import quoted

from ..rules import RuleSet
from ..state import EveningState, PendingCut

#: Event types the DB layer owns; the engine counts them in the log and passes them by.
PASS_THROUGH = frozenset({"hand", "correction", "hand_removed", "close_sitting", "close", "reopen"})

FORM_CUT = "form-table"

#: The longest text of the dealer's choice of cards or counters (ruling T12): an evening's
#: title's length, core.text.TITLE_MAX, as the service cleans it before the engine sees it.
CHOICE_MAX = 120

# Boundaries a cut must decide (see ranking): the deal (1) and partners (2) at the start of a
# rubber (ruling T4); who plays (4) and who belongs to the table (6) when one is formed (T3).
PARTNER_BOUNDARIES = [1, 2]
FORM_BOUNDARIES = (4, 6)


PURPOSE_TEXT = {
    "form-table": "to form a table",
    "partners-and-deal": "for partners and deal",
    "cut-out": "to decide who goes out",
    "break-up": "for precedence among the players of a broken-up table",
}


def purpose_cite(rules: RuleSet, purpose: str) -> str:
    topic = {
        "form-table": "form",
        "partners-and-deal": "partners",
        "cut-out": "cut_out",
        "break-up": "break_up",
        "first-jack": "first_jack",
    }[purpose]
    return rules.cite(topic)


def names(players: Sequence[str]) -> str:
    players = list(players)
    if not players:
        return "nobody"
    if len(players) == 1:
        return players[0]
    return f"{', '.join(players[:-1])} and {players[-1]}"


def cut_text(cut: PendingCut) -> str:
    """A cut waiting to be made, in words: "Ann, Bob, Cat and Dan cut for partners and deal
    (table 1)". The two highest tied at a cut for partners and deal cut again for the deal
    alone, the partners standing either way (ruling T4): said so, where "cut for partners
    and deal again" contradicted the line above it."""
    where = f" (table {cut.table})" if cut.table else ""
    top = cut.tiers[0] if cut.tiers else []
    if (cut.purpose == "partners-and-deal" and cut.round > 1 and len(top) == 2
            and set(cut.cutters) == set(top)):  # fmt: skip
        return f"{names(cut.cutters)} cut again for the deal{where}: the partners stand"
    again = " again" if cut.round > 1 else ""
    return f"{names(cut.cutters)} cut {PURPOSE_TEXT[cut.purpose]}{where}{again}"


def verb(players: Sequence[str], singular: str, plural: str) -> str:
    """``players`` named, with the verb agreeing: "Gus remains", "Gus and Hal remain"."""
    return f"{names(players)} {singular if len(players) == 1 else plural}"


def count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def cards_text(cards: Mapping[str, str]) -> str:
    return ", ".join(f"{player} {card}" for player, card in cards.items())


def free_candidates(state: EveningState) -> list[str]:
    """Candidates free to cut for a fresh table: not in a pending cut, and not waiting on a
    claim at a table (reading T2-claims: a candidate who has declared for a table waits for
    it, until he withdraws the claim)."""
    return [
        player
        for player in state.candidates
        if state.cut_of(player) is None and state.claim_of(player) is None
    ]


#: Each action of the log as a refusal names it, in words: "a claim needs the player's name".
ACTION_TEXT = {
    "arrive": "an arrival",
    "depart": "a departure from the room",
    "form_table": "forming a table",
    "cut": "a cut",
    "deal_jack": "throwing a card round for the first jack",
    "claim": "a claim of admission",
    "withdraw": "withdrawing a claim",
    "rubber_end": "the end of a rubber",
    "substitute": "appointing a substitute",
    "leave": "leaving a table",
    "change_table": "changing tables",
    "break_up": "breaking up a table",
    "dealer_choice": "the dealer's choice of seat",
    "announce": "an announcement",
}

#: The entries of the log the service writes itself, which the engine counts and passes by
#: (PASS_THROUGH), in words.
SERVICE_TEXT = {
    "hand": "recording a hand",
    "correction": "correcting a hand",
    "hand_removed": "taking a hand back",
    "close_sitting": "closing a sitting",
    "close": "closing the evening",
    "reopen": "reopening it",
}


def listed_or(items: Sequence[str]) -> str:
    """Items joined as a sentence says them: "a, b or c"."""
    items = list(items)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


def not_an_action(
    kind: object, *, what: str, known: Mapping[str, str], each: str = "an entry of the log"
) -> str:
    """The refusal of a `what` whose type is none of `known` (each type in words), naming
    the type as it was written (its first 40 characters) and what `each` may be in words,
    never by their keys (docs/evening-log.md has the keys)."""
    shown = quoted(kind) if isinstance(kind, str) else None
    said = f"{shown} is not" if shown else "One with no type written as text is not"
    return f"{said} {what}: {each} is {listed_or(list(known.values()))} (docs/evening-log.md)"


#: The fields an action names a player or a table by, in words.
FIELD_TEXT = {
    "player": "the player's name",
    "substitute": "the substitute's name",
    "broken_by": "the name of the player who broke up the table",
    "table": "the table's number",
}


def action_text(kind: object) -> str:
    """The action ``kind`` in words; "this action" for one the log does not know."""
    return ACTION_TEXT.get(kind, "this action") if isinstance(kind, str) else "this action"


def capital(text: str) -> str:
    return f"{text[:1].upper()}{text[1:]}"
