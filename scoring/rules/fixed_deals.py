"""A round of a fixed number of deals (progressive tournaments): when it is over (ruling P1).

Pure, like the rule sets. A round of ``limit`` deals is over once that many deals are
played and one side is ahead; a round that ends level goes on, one more deal at a time (the
deal passing as usual), until one side is ahead, and the extra deals count like the others.
A round played as a rubber is over when the rubber is, and cannot end level.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from .base import SIDES, ScoringError, check_partnership_players, money


def side_points(points: Mapping) -> dict[str, int]:
    """A hand's points per side, from `HandResult.points` (Bridge: below and above the line)."""
    return {
        side: value["below"] + value["above"] if isinstance(value, Mapping) else value
        for side, value in ((side, points[side]) for side in SIDES)
    }


def fixed_deals_totals(hands: Iterable[Mapping]) -> dict[str, int]:
    """The two sides' totals over the deals played (each a `HandResult.points`)."""
    totals = dict.fromkeys(SIDES, 0)
    for points in hands:
        for side, value in side_points(points).items():
            totals[side] += value
    return totals


def fixed_deals_over(limit: int, hands: list[Mapping]) -> bool:
    """Whether a round of ``limit`` deals is over after ``hands`` (ruling P1): all its deals
    played and one side ahead. Level after them, it goes on one deal at a time."""
    if len(hands) < limit:
        return False
    totals = fixed_deals_totals(hands)
    return totals["NS"] != totals["EW"]


def deal_past_the_end(limit: int, hands: list[Mapping]) -> int | None:
    """The number of the first deal played after the round was over (ruling P1: one side
    ahead after all its deals), or None. A correction that decides a round earlier than
    it was decided at the table would leave such a deal; the later deals go first."""
    for played in range(limit, len(hands)):
        if fixed_deals_over(limit, hands[:played]):
            return played + 1
    return None


def fixed_deals_ledger(
    hands: Iterable[Mapping], stake: Decimal, players: Any
) -> dict[str, Decimal]:
    """Ruling P2 (with M1) for a round of fixed deals: it settles at the difference of the
    two sides' points over its deals (each a `HandResult.points`), each player of the side
    ahead receiving it times the stake from one of the other side; so also when its rubber
    was won before its deals ran out, the round being over then (docs/movements.md)."""
    named = check_partnership_players(players)
    if named is None:
        raise ScoringError("name the four players to settle the round", field="players",
                           law="ruling P2")  # fmt: skip
    totals = fixed_deals_totals(hands)
    return {
        name: money(totals[side] - totals[other], stake)
        for side, other in (("NS", "EW"), ("EW", "NS"))
        for name in named[side]
    }
