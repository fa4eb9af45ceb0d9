"""Cutting for places and partners, as the laws have it (rulings T1, T3, T4, T10).

The random source is the caller's: a seeded `random.Random` in tests, and
`secrets.SystemRandom()` in production (ruling T10). Every card cut is returned, so the
decision can be checked later.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from club.formation.cards import cards_shown, not_a_card
from scoring.rules.games import GAMES, RANKS, SUITS, Game

from .seating import Cut, MovementError, TableSeating


@dataclass(frozen=True)
class Pack:
    """The pack a game cuts with, and how its cards rank in the cut (ruling T1).

    `ranks` and `suits` run from the card that wins the cut to the card that loses it:
    Euchre's four highest cards play, Bridge's four lowest. Suits are `None` when they
    do not count, so that equal ranks tie and cut again (laws 13-14).
    """

    rule_set: str
    ranks: tuple[str, ...]
    suits: tuple[str, ...] | None

    @property
    def cards(self) -> tuple[str, ...]:
        """The pack, written rank then suit ("JS", "10H")."""
        return tuple(rank + suit for rank in self.ranks for suit in SUITS)

    def precedence(self, card: str) -> tuple[int, int]:
        """Sort key of a card in the cut: smaller wins."""
        rank, suit = card[:-1], card[-1]
        return self.ranks.index(rank), self.suits.index(suit) if self.suits else 0

    @classmethod
    def of(cls, game: Game) -> Pack:
        """The game's cutting pack, from its cutting order (ruling T1, scoring.rules.games)."""
        if game.cutting is None:
            raise ValueError(f"{game.key} has no cutting order")
        ranks, suits = game.cutting.winner_first
        return cls(rule_set=game.key, ranks=ranks, suits=suits)


# Euchre: knave highest, then ace, king, queen, ten, nine, eight, seven; suits do not count
# (laws 13-14). Bridge: the lowest card wins the cut; ace lowest, then two up to king, and
# equal cards ranked hearts, diamonds, clubs, spades, lowest to highest (T1).
PACKS = {key: Pack.of(game) for key, game in GAMES.items() if game.partnership and game.cutting}
EUCHRE_PACK = PACKS["euchre-somerset-1888"]
BRIDGE_PACK = PACKS["bridge-elwell-1907"]


def pack_for(rule_set: str) -> Pack:
    """The cutting pack for a partnership rule set; Call-Ace has no partners to cut for."""
    try:
        return PACKS[rule_set]
    except KeyError:
        raise MovementError(
            f"{rule_set} is not played in partnerships, so its tables are not seated by "
            "a partnership movement (Call-Ace: a card thrown round finds the dealer, T1)"
        ) from None


def _names(players: Sequence[str]) -> str:
    """'Ann', 'Ann and Bob', 'Ann, Bob and Cora'."""
    return " and ".join([", ".join(players[:-1]), players[-1]] if len(players) > 1 else players)


class CardsError(MovementError):
    """The cards entered as cut do not make a cut (ruling T10): a user error about them."""


class EnteredCards:
    """The cards the players actually cut, as the director enters them (ruling T10),
    instead of cards drawn by the service: for each player, every card he cut in the
    round, in the order he cut them (for tables, then for partners; a tie cut again
    adds the next card). Each cut takes its cutters' next cards."""

    def __init__(self, cards: Mapping[str, Sequence[str]], *, pack: Pack, players: Sequence[str]):
        strangers = sorted(set(cards) - set(players))
        if strangers:
            raise CardsError(
                f"Cards were entered for {_names(strangers)}, who "
                f"{'is' if len(strangers) == 1 else 'are'} not playing this round."
            )
        self.pack = pack
        self.queues: dict[str, deque[str]] = {}
        for player, entered in cards.items():
            if isinstance(entered, str) or not isinstance(entered, Sequence):
                raise CardsError(f"{player}'s cards are a list, in the order he cut them")
            self.queues[player] = deque(self._card(player, card) for card in entered)

    def _card(self, player: str, card: object) -> str:
        """`card` as the pack writes it; refused in the words of every card refusal
        (club.formation.cards): no card at all (ruling T1), or a card not in the pack."""
        written = card.strip().upper() if isinstance(card, str) else ""
        if written in self.pack.cards:
            return written
        rank, suit = written[:-1], written[-1:]
        if rank in RANKS and suit in SUITS:
            game = GAMES[self.pack.rule_set]
            raise CardsError(
                f"{player}'s {cards_shown(written)} is not in the {len(self.pack.cards)}-"
                f"card {game.name} pack ({game.tables.cite('cards')})"
            )
        whose = f"{player}'s card"
        raise CardsError(f"{not_a_card(card, whose=whose)} (ruling T1)")

    def take(self, group: Sequence[str], purpose: str) -> dict[str, str]:
        """Each player of `group`'s next card, for the cut `purpose`."""
        missing = [player for player in group if not self.queues.get(player)]
        if missing:
            raise CardsError(
                f"No card is entered for {_names(missing)} in the cut for {purpose} "
                f"(among {_names(group)}). Enter each player's cards in the order he cut "
                "them: for places at the tables first, then for partners, and again after "
                "a tie, which is cut again (laws 13-14)."
            )
        drawn = {player: self.queues[player].popleft() for player in group}
        if len(group) <= len(self.pack.cards):  # one pack: no card is cut twice
            seen: dict[str, str] = {}
            for player, card in drawn.items():
                if card in seen:
                    raise CardsError(
                        f"{seen[card]} and {player} cannot both have cut {cards_shown(card)} for "
                        f"{purpose}: the cut is from one pack"
                    )
                seen[card] = player
        return drawn

    def check_used(self) -> None:
        """Every card entered was needed: one left over is a mistake in the entry."""
        left = sorted(player for player, queue in self.queues.items() if queue)
        if left:
            raise CardsError(
                f"more cards entered for {', '.join(left)} than the cuts needed: "
                "check the cards against the cut"
            )


def cut_order(
    players: Sequence[str],
    *,
    pack: Pack,
    rng: random.Random,
    purpose: str,
    entered: EnteredCards | None = None,
) -> tuple[list[str], list[Cut]]:
    """Everyone cuts; return the players from the winning card to the losing one, and
    the cards each cut.

    Players who tie cut again from a fresh pack until the tie is broken. Laws 13-14 let
    a tie stand where it cannot change the partnerships (the two highest, or the two
    lowest, of four); cutting it out anyway settles the deal and the seats (T4) and
    changes nothing else. When more players cut than one pack holds, as many packs are
    shuffled together as are needed. With `entered`, the cards are those the players
    actually cut (ruling T10), not drawn.
    """
    cards: dict[str, list[str]] = {player: [] for player in players}

    def cut(group: Sequence[str]) -> list[str]:
        if entered is not None:
            drawn = entered.take(group, purpose)
        else:
            deck = list(pack.cards) * math.ceil(len(group) / len(pack.cards))
            rng.shuffle(deck)
            drawn = dict(zip(group, deck, strict=False))
        for player in group:
            cards[player].append(drawn[player])
        ranked = sorted(group, key=lambda player: pack.precedence(drawn[player]))
        order: list[str] = []
        start = 0
        while start < len(ranked):
            key = pack.precedence(drawn[ranked[start]])
            end = start
            while end < len(ranked) and pack.precedence(drawn[ranked[end]]) == key:
                end += 1
            tied = ranked[start:end]
            order.extend(cut(tied) if len(tied) > 1 else tied)
            start = end
        return order

    order = cut(players)
    return order, [Cut(purpose=purpose, player=p, cards=tuple(cards[p])) for p in players]


def cut_for_partners(
    number: int,
    players: Sequence[str],
    *,
    pack: Pack,
    rng: random.Random,
    entered: EnteredCards | None = None,
) -> tuple[TableSeating, list[Cut]]:
    """Seat a table of four by cutting for partners (law 11, T4).

    The two best cuts play against the other two; the best cut deals and takes North
    (law 11 gives the dealer his choice of seats), his partner South, and the third and
    fourth cuts East and West.
    """
    order, cuts = cut_order(
        players, pack=pack, rng=rng, purpose=f"partners at table {number}", entered=entered
    )
    dealer, partner, third, fourth = order
    return TableSeating.of(number, dealer, third, partner, fourth), cuts
