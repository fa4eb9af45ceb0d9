"""A round of a fixed number of deals (progressive tournaments): when it is over (ruling P1).

Pure, like the rule sets. A round of ``limit`` deals is over once that many deals are
played and one side is ahead; a round that ends level goes on, one more deal at a time (the
deal passing as usual), until one side is ahead, and the extra deals count like the others.
A round played as a rubber is over when the rubber is, and cannot end level.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .base import SIDES


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
