"""Cards as the secretary writes them ("JS", "10H", "AD": rank then suit), the packs, and each
game's cutting order (ruling T1).

Euchre (law 8): the knave is highest, then ace, king, queen, ten, nine, eight, seven; suits do
not count, so equal cards are possible and are cut again (laws 13-14). Bridge (Cutting): the ace
is lowest, then two up to king; between cards of otherwise equal value the heart is lowest, then
the diamond, the club, and the spade highest, so a Bridge cut never ties. Call-Ace (law 1): a
card is thrown round face up and the first jack deals; its pack depends on the number of players
(law 2).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import FormationError
from .rules import BRIDGE, EUCHRE, get_rule_set

SUITS = ("S", "H", "D", "C")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

#: Euchre's cutting order, lowest first (law 8).
EUCHRE_ORDER = ("7", "8", "9", "10", "Q", "K", "A", "J")
#: Bridge's cutting order, lowest first (Cutting): ranks, then suits between equal ranks.
BRIDGE_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
BRIDGE_SUITS = ("H", "D", "C", "S")

#: The lowest rank in the Call-Ace pack for each number of players (law 2).
CALL_ACE_LOWEST = {4: "9", 5: "8", 6: "7", 7: "6"}


@dataclass(frozen=True)
class Card:
    rank: str
    suit: str

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"


def parse_card(text: object, *, field: str = "cards") -> Card:
    """Read "JS", "10H", "AD" (rank then suit; either case) into a Card."""
    if isinstance(text, str):
        cleaned = text.strip().upper()
        rank, suit = cleaned[:-1], cleaned[-1:]
        if rank in RANKS and suit in SUITS:
            return Card(rank, suit)
    raise FormationError(
        f"ruling T1: {text!r} is not a card: write the rank then the suit, e.g. 'JS', '10H', 'AD'",
        law="ruling T1",
        field=field,
    )


def euchre_pack() -> tuple[Card, ...]:
    """The 32-card pack, seven to ace in each suit (law 8)."""
    return tuple(Card(rank, suit) for suit in SUITS for rank in EUCHRE_ORDER)


def bridge_pack() -> tuple[Card, ...]:
    """The full pack of 52."""
    return tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)


def call_ace_pack(players: int) -> tuple[Card, ...]:
    """The Call-Ace pack for four to seven players: 24, 28, 32 or 36 cards (law 2)."""
    lowest = RANKS.index(CALL_ACE_LOWEST[players])
    return tuple(Card(rank, suit) for suit in SUITS for rank in RANKS[lowest:])


def pack_for(rule_set: str, *, players: int = 4) -> tuple[Card, ...]:
    """The pack a cut (or Call-Ace's throw for the first jack) is made from in this game."""
    key = get_rule_set(rule_set).key
    if key == EUCHRE:
        return euchre_pack()
    if key == BRIDGE:
        return bridge_pack()
    return call_ace_pack(players)


def cutting_value(card: Card, rule_set: str) -> int:
    """The card's place in the game's cutting order (ruling T1): higher is a higher cut."""
    if rule_set == EUCHRE:
        return EUCHRE_ORDER.index(card.rank)
    if rule_set == BRIDGE:
        return BRIDGE_RANKS.index(card.rank) * len(BRIDGE_SUITS) + BRIDGE_SUITS.index(card.suit)
    raise ValueError(f"{rule_set} has no cutting order: seats are not cut (ruling T1)")


def precedence(card: Card, rule_set: str) -> int:
    """The claim a cut card gives to play, deal and stay in: Euchre favours the highest card
    (laws 11, 15), Bridge the lowest (Forming Tables, Cutting Out). Higher is stronger."""
    value = cutting_value(card, rule_set)
    return value if get_rule_set(rule_set).highest_plays else -value


def draw_cut(players: Sequence[str], rng: random.Random, *, rule_set: str) -> dict[str, str]:
    """Draw one distinct card for each player from the game's pack (ruling T10: the DB layer
    passes ``secrets.SystemRandom()``; tests pass a seeded ``random.Random``)."""
    cards = rng.sample(pack_for(rule_set), len(players))
    return {player: str(card) for player, card in zip(players, cards, strict=True)}


def throw_for_jack(players: Sequence[str], rng: random.Random) -> list[list[str]]:
    """Throw a card face up to each player in turn, from the first, until a jack falls
    (Call-Ace law 1), from the pack for that many players (law 2)."""
    pack = list(call_ace_pack(len(players)))
    rng.shuffle(pack)
    throws: list[list[str]] = []
    for turn, card in enumerate(pack):
        throws.append([players[turn % len(players)], str(card)])
        if card.rank == "J":
            return throws
    raise AssertionError("a Call-Ace pack always holds four jacks")
