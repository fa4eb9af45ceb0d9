"""The cut: every round seated afresh by cutting, as tables are formed on a club evening."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from .cutting import EUCHRE_PACK, EnteredCards, Pack, cut_for_partners, cut_order
from .history import History, choose_byes
from .seating import RoundResult, RoundSeating, check_request


def seat_by_cut(
    *,
    round_number: int,
    players: Sequence[str],
    history: History,
    pack: Pack,
    rng: random.Random,
    cards: Mapping[str, Sequence[str]] | None = None,
) -> RoundSeating:
    """Seat a round by cutting (laws 11-12, rulings T3, T4, T10).

    The cards are drawn from `rng`, or with `cards` are those the players actually cut,
    each player's in the order he cut them: for tables, then for partners (`EnteredCards`).

    All present cut for tables: the four best cuts make table 1 (the head), the next
    four table 2, and so on. When the players are not a multiple of four, those left
    over sit out: first those who have played the most rounds (so whoever sat out plays
    next, as law 17 prefers those who have not yet played), then the worst cuts. Each
    table then cuts again for partners and the deal (law 11).
    """
    entered = EnteredCards(cards, pack=pack, players=players) if cards is not None else None
    order, cuts = cut_order(players, pack=pack, rng=rng, purpose="tables", entered=entered)
    place = {player: index for index, player in enumerate(order)}
    byes = choose_byes(
        order, count=len(order) % 4, played=history.played, tie_break=lambda p: -place[p]
    )
    playing = [player for player in order if player not in byes]
    tables = []
    for start in range(0, len(playing), 4):
        table, table_cuts = cut_for_partners(
            start // 4 + 1, playing[start : start + 4], pack=pack, rng=rng, entered=entered
        )
        tables.append(table)
        cuts.extend(table_cuts)
    if entered is not None:
        entered.check_used()
    return RoundSeating(
        round_number=round_number,
        tables=tuple(tables),
        byes=tuple(sorted(byes, key=place.__getitem__)),
        cuts=tuple(cuts),
    )


@dataclass(frozen=True)
class CutMovement:
    """Each round, all present cut for tables and then for partners.

    Guarantees: everyone present is seated once or sits out; byes go to whoever has
    played most, so players present throughout sit out within one round of each other.
    Nothing is promised about partners or opponents: they fall as the cards fall.
    """

    pack: Pack = EUCHRE_PACK
    key: ClassVar[str] = "cut"
    title: ClassVar[str] = "Cut for tables and partners each round"

    def max_rounds(self, *, player_count: int) -> int | None:
        """The cut can go on for ever."""
        return None

    def seat_round(
        self,
        *,
        round_number: int,
        players: Sequence[str],
        previous: Sequence[RoundResult],
        rng: random.Random,
        cards: Mapping[str, Sequence[str]] | None = None,
    ) -> RoundSeating:
        """Seat round `round_number` of those present by a fresh cut (the cards drawn from
        `rng`, or those entered as cut, `cards`)."""
        check_request(round_number=round_number, players=players, previous=previous)
        return seat_by_cut(
            round_number=round_number,
            players=players,
            history=History.of(previous),
            pack=self.pack,
            rng=rng,
            cards=cards,
        )
