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
import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.quoted import quoted

# The packs and cutting orders are the games' own, written once (scoring.rules.games).
from scoring.rules.games import RANKS, SUITS

from .errors import FormationError
from .rules import get_game, get_rule_set


@dataclass(frozen=True)
class Card:
    rank: str
    suit: str

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"


#: How a card is written, as every refusal of one says it: by the suit's symbol, as the
#: pages show cards, or by its letter, as the log and the API keep them (ruling T1).
HOW_WRITTEN = "write its rank then its suit, as J♠ or JS"


def not_a_card(text: object, *, whose: str) -> str:
    """The words refusing `text` as no card (ruling T1, cited by the caller), naming whose
    card it is and in which box ("Ann's card", "Ann's exposed card"): "Ann's card 'ZZ' is
    not a card: write its rank then its suit, as J♠ or JS". Every card refusal people can
    meet says it so: the board's cut, exposed and throw boxes, the API and the director's
    cards cut (tournaments.movements). A text is quoted as it was typed, trimmed ('q♥x',
    never 'QHX'), so that the one who typed it knows it for his."""
    shown = text.strip() if isinstance(text, str) else text
    return f"{whose} {quoted(shown)} is not a card: {HOW_WRITTEN}"


def _read(text: str) -> Card | None:
    """The card `text` writes by its letters (rank then suit, either case), or None."""
    cleaned = text.strip().upper()
    rank, suit = cleaned[:-1], cleaned[-1:]
    return Card(rank, suit) if rank in RANKS and suit in SUITS else None


def parse_card(text: object, *, field: str = "cards", whose: str = "the card") -> Card:
    """Read "JS", "10H", "AD" (rank then suit; either case) into a Card; a text that is no
    card is refused naming `whose` card it is (`not_a_card`, ruling T1)."""
    card = _read(text) if isinstance(text, str) else None
    if card is not None:
        return card
    raise FormationError(
        f"ruling T1: {not_a_card(text, whose=whose)}", law="ruling T1", field=field
    )


#: The suits' symbols, as a card is printed and as a person may type it ("Q♥", "3♣"); the
#: outlined ones a phone's keyboard offers too. The log and the API keep the letter.
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_TYPED_SUITS = str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H",
                              "♢": "D", "♧": "C", "\ufe0f": None})  # fmt: skip
# A card's code standing alone in a sentence: "Ann QH", "(both cut 10D)".
_CODE = re.compile(r"(?<![\w♠♥♦♣])(10|[2-9JQKA])([SHDC])(?![\w♠♥♦♣])")


def card_typed(text: str) -> str:
    """A card as a person typed it, in the service's code: "q♥", "Q♥ " and "qh" are "QH",
    "3♣" is "3C" (the suit's symbol, or its letter, after the rank; either case). Anything
    else is returned as typed, trimmed ("q♥x", not "QHX"), for `parse_card` to refuse in
    words quoting what the person typed."""
    card = _read(text.translate(_TYPED_SUITS))
    return str(card) if card is not None else text.strip()


def cards_shown(text: str) -> str:
    """A sentence with its cards' codes as people read them: "Ann QH, Bob 10C" becomes
    "Ann Q♥, Bob 10♣" (the log and the API keep the code). An example of how a card is
    typed keeps its letter: a code right after the same card by its symbol and "or", as
    every refusal teaching it writes it ("J♠ or JS", HOW_WRITTEN; "10♥ or 10H")."""

    def shown(match: re.Match) -> str:
        rank, suit = match.groups()
        symbol = rank + SUIT_SYMBOLS[suit]
        if match.string.endswith(f"{symbol} or ", 0, match.start()):
            return match.group()  # the typed form of the example just before it
        return symbol

    return _CODE.sub(shown, text)


def _cards(pairs) -> tuple[Card, ...]:
    return tuple(Card(rank, suit) for rank, suit in pairs)


def euchre_pack() -> tuple[Card, ...]:
    """The 32-card pack, seven to ace in each suit (law 8)."""
    return _cards(get_game("euchre-somerset-1888").pack())


def bridge_pack() -> tuple[Card, ...]:
    """The full pack of 52."""
    return _cards(get_game("bridge-elwell-1907").pack())


def call_ace_pack(players: int) -> tuple[Card, ...]:
    """The Call-Ace pack for four to seven players: 24, 28, 32 or 36 cards (law 2)."""
    return _cards(get_game("call-ace-foster-1905").pack(players))


def pack_for(rule_set: str, *, players: int = 4) -> tuple[Card, ...]:
    """The pack a cut (or Call-Ace's throw for the first jack) is made from in this game."""
    return _cards(get_game(rule_set).pack(players))


def cutting_value(card: Card, rule_set: str) -> int:
    """The card's place in the game's cutting order (ruling T1): higher is a higher cut."""
    game = get_game(rule_set)
    if game.cutting is None:
        raise ValueError(f"{rule_set} has no cutting order: seats are not cut (ruling T1)")
    return game.cutting.value(card.rank, card.suit)


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
