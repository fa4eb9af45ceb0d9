"""The games the club plays, each one registered object, looked up by its rule set's key.

A game is its scoring rule set, its pack and cutting order (ruling T1, written here once), the
laws its tables are formed by (table formation reads them), its display name and labels.
Its hand input (the one input object the API and the HTML forms share) is a DRF serializer,
so it lives outside this pure package, in ``scoring.hand_input``, under the same key; a test
holds the two registries to the same games. Scoring, table formation, the tournaments'
movements and the pages all read this registry; none keeps its own list of games.

Pure Python, like the rule sets: nothing here imports Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core.quoted import quoted

from .base import RuleSet, ScoringError
from .bridge import RULES as BRIDGE_RULES
from .call_ace import RULES as CALL_ACE_RULES
from .euchre import RULES as EUCHRE_RULES

#: The suits in the order a pack is laid out (spades, hearts, diamonds, clubs).
SUITS = ("S", "H", "D", "C")
#: Every rank, two to ace: the order of the full pack of 52.
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


@dataclass(frozen=True)
class CuttingOrder:
    """How cut cards rank in a game (ruling T1), and which end of the order a cut favours.

    ``ranks`` and ``suits`` run from the lowest card to the highest; ``suits`` is None when
    suits do not count, so that equal ranks tie and are cut again (Euchre, laws 13-14).
    """

    ranks: tuple[str, ...]
    suits: tuple[str, ...] | None
    #: Euchre's highest cuts play, deal and stay in; Bridge's lowest (ruling T1).
    highest_wins: bool

    def value(self, rank: str, suit: str) -> int:
        """The card's place in the cutting order: higher is a higher card."""
        place = self.ranks.index(rank)
        if self.suits is None:
            return place
        return place * len(self.suits) + self.suits.index(suit)

    @property
    def winner_first(self) -> tuple[tuple[str, ...], tuple[str, ...] | None]:
        """Ranks and suits from the card that wins a cut to the card that loses it."""
        if not self.highest_wins:
            return self.ranks, self.suits
        return self.ranks[::-1], self.suits[::-1] if self.suits else None


@dataclass(frozen=True)
class TableLaws:
    """How one game forms its tables: table sizes, who a cut favours, and the law and ruling
    behind each decision (table formation, ``club.formation``)."""

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


@dataclass(frozen=True)
class Game:
    """One game, everything the service knows of it in one place."""

    #: The rule set's stable key (RULINGS.md), stored with every evening, rubber, tournament.
    key: str
    #: The game's name on pages: "Euchre", "Bridge", "Call-Ace".
    name: str
    #: The stem of its templates and CSS classes: "euchre", "bridge", "call_ace".
    kind: str
    #: The scoring rule set (``scoring.rules``).
    rules: RuleSet
    #: How its tables are formed (``club.formation``).
    tables: TableLaws
    #: The ranks of its pack, lowest first; a Call-Ace pack starts from a lower rank the more
    #: players there are (``lowest_rank``, law 2).
    pack_ranks: tuple[str, ...]
    #: The cutting order (ruling T1); None where seats are not cut (Call-Ace: a card is thrown
    #: round face up and the first jack deals).
    cutting: CuttingOrder | None
    #: What one round of play is called: "rubber", or "sitting" at Call-Ace.
    rubber_label: str = "rubber"
    #: What one hand is called: "hand", or "deal" at Call-Ace.
    hand_label: str = "hand"
    #: The lowest rank in the pack for each number of players (Call-Ace, law 2); empty when
    #: the pack is the same for any number.
    lowest_rank: Mapping[int, str] | None = None

    @property
    def title(self) -> str:
        """The game and its laws, as a choice of rule set is labelled."""
        return self.rules.title

    @property
    def partnership(self) -> bool:
        return self.rules.partnership

    def pack(self, players: int = 4) -> tuple[tuple[str, str], ...]:
        """The pack a cut (or Call-Ace's throw for the first jack) is made from, as (rank,
        suit) pairs, suit by suit, each lowest rank first."""
        ranks = self.pack_ranks
        if self.lowest_rank:
            ranks = ranks[ranks.index(self.lowest_rank[players]) :]
        return tuple((rank, suit) for suit in SUITS for rank in ranks)


# -- table formation's citations, game by game ---------------------------------------------

_EUCHRE_CITES = {
    "cards": "law 8 / ruling T1",
    "same_pack": "law 9 / ruling T10",
    "candidates": "ruling T2",
    "form": "law 11 / ruling T3",
    "members": "law 12 / ruling T3",
    "ties": "laws 13-14",
    "ties_nothing": "laws 13-14 / ruling T11",
    "expose": "law 10 / ruling T12",
    "choice": "law 11 / ruling T12",
    "announce": "ruling T13",
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
    "ties_nothing": "Bridge laws, Cutting / ruling T11",
    "expose": "Bridge laws, Cutting / ruling T12",
    "choice": "Bridge laws, Forming Tables / ruling T12",
    "announce": "Bridge laws, Forming Tables / ruling T13",
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
    "form": "law 1 / ruling T14",
    "members": "law 1 / ruling T14",
    "fresh": "ruling T14",
    "expose": "law 1 / ruling T12",
    "choice": "law 1 / ruling T12",
    "announce": "ruling T13",
    "first_jack": "law 1 / ruling T1",
    "claim": "law 1 / ruling T2",
    "substitute": "ruling T6",
    "leave": "law 1",
    "change": "ruling T8",
    "break_up": "ruling T9",
    "rubber": "ruling C5",
    "record": "ruling T10",
}

# -- ruling T1, once -------------------------------------------------------------------------

#: Euchre (law 8): knave highest, then ace, king, queen, ten, nine, eight, seven; suits do
#: not count, so equal cards are cut again (laws 13-14). The highest cuts are favoured.
EUCHRE_CUT = CuttingOrder(
    ranks=("7", "8", "9", "10", "Q", "K", "A", "J"), suits=None, highest_wins=True
)
#: Bridge (Cutting): ace lowest, then two up to king; between equal ranks hearts lowest, then
#: diamonds, clubs, spades highest, so a Bridge cut never ties. The lowest cuts are favoured.
BRIDGE_CUT = CuttingOrder(
    ranks=("A", *RANKS[:-1]), suits=("H", "D", "C", "S"), highest_wins=False
)

EUCHRE = Game(
    key=EUCHRE_RULES.key,
    name="Euchre",
    kind="euchre",
    rules=EUCHRE_RULES,
    tables=TableLaws(
        EUCHRE_RULES.key, "Euchre", True, 6, EUCHRE_CUT.highest_wins, _EUCHRE_CITES
    ),
    # The 32-card pack, seven to ace in each suit (law 8).
    pack_ranks=EUCHRE_CUT.ranks,
    cutting=EUCHRE_CUT,
)
BRIDGE = Game(
    key=BRIDGE_RULES.key,
    name="Bridge",
    kind="bridge",
    rules=BRIDGE_RULES,
    tables=TableLaws(
        BRIDGE_RULES.key, "Bridge", True, 6, BRIDGE_CUT.highest_wins, _BRIDGE_CITES
    ),
    pack_ranks=RANKS,
    cutting=BRIDGE_CUT,
)
CALL_ACE = Game(
    key=CALL_ACE_RULES.key,
    name="Call-Ace",
    kind="call_ace",
    rules=CALL_ACE_RULES,
    tables=TableLaws(CALL_ACE_RULES.key, "Call-Ace", False, 7, True, _CALL_ACE_CITES),
    pack_ranks=RANKS,
    cutting=None,
    rubber_label="sitting",
    hand_label="deal",
    # Four to seven players: 24, 28, 32 or 36 cards (law 2).
    lowest_rank={4: "9", 5: "8", 6: "7", 7: "6"},
)

#: Every game, by its rule set's key, in the order the pages list them.
GAMES: dict[str, Game] = {game.key: game for game in (EUCHRE, CALL_ACE, BRIDGE)}


def get_game(key: Any) -> Game:
    """The game with this key; a ScoringError on the ``ruleset`` field for any other."""
    if not isinstance(key, str) or key not in GAMES:
        known = ", ".join(GAMES)
        raise ScoringError(f"unknown rule set {quoted(key)}: use one of {known}", field="ruleset")
    return GAMES[key]
