"""Rotation charts for 8 to 32 players, built from whist tournaments.

A whist tournament Wh(v) seats v players (v = 4m or 4m + 1) at tables of four for
v - 1 or v rounds so that every two players are partners exactly once and opponents
exactly twice: the best a partnership rotation can do. The ones here are cyclic: one
starting round (the "starter") is written down, and round i adds i to every place in
the group Z_a x Z_b, leaving the place infinity where it is. The starters were found by
computer search (simulated annealing on the difference conditions); every chart is
checked as it is built, so a wrong starter cannot slip through.

From them, for n players:

* n = 4m: Wh(4m), 4m - 1 rounds, nobody sits out.
* n = 4m + 1: Wh(4m + 1), 4m + 1 rounds; in round i place i sits out.
* n = 4m + 2: Wh(4m + 1) and an extra place X, 4m + 1 rounds. Each round X either
  sits out beside that round's bye or takes the seat of a player, who sits out
  instead; a search picks whom, so that X never partners anyone twice.
* n = 4m + 3: Wh(4m + 4) with infinity left empty, 4m + 3 rounds: the three who would
  sit with it sit out, and the rounds are put in an order that keeps byes balanced.
  Eleven players have a chart of their own (see `_ELEVEN`).

In every chart no two places partner twice, after every round nobody has sat out more
than once more than anyone else, and every two places meet as opponents exactly twice
(n = 4m, 4m + 1) or once or twice (n = 4m + 2, 4m + 3). Places are numbered 0 to n - 1;
the rotation movement cuts to decide who takes which.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

MIN_PLAYERS = 8
MAX_PLAYERS = 32

INFINITY = -1
"""The place that stays put while the others turn round (written as oo below)."""

oo = INFINITY

Table = tuple[int, int, int, int]
"""Four places in seat order N, E, S, W: N-S partner E-W."""


@dataclass(frozen=True)
class _Starter:
    """The first round of a cyclic whist tournament.

    Places are elements of Z_a x Z_b, written as the number x * b + y for (x, y);
    `moduli` is (a, b), or (a,) for a cyclic group.
    """

    moduli: tuple[int, ...]
    tables: tuple[Table, ...]

    @property
    def order(self) -> int:
        return math.prod(self.moduli)

    def shift(self, place: int, by: int) -> int:
        """Where place `place` of the starter sits in round `by`: the two added in the
        group, coordinate by coordinate. Infinity stays where it is."""
        if place == INFINITY:
            return place
        total, radix = 0, 1
        for modulus in reversed(self.moduli):
            total += (place // radix % modulus + by // radix % modulus) % modulus * radix
            radix *= modulus
        return total


# Wh(4m) on Z_(4m-1) plus infinity, and Wh(4m+1) on Z_(4m+1); for 9, Z_3 x Z_3, as the
# search found none on Z_9. From 16 up the table with infinity is (oo, 1, 0, 2), which
# the 4m + 3 charts rely on (see `_with_phantom`).
_STARTERS: dict[int, _Starter] = {
    8: _Starter((7,), ((4, 5, 2, 6), (oo, 0, 1, 3))),
    9: _Starter((3, 3), ((2, 8, 1, 4), (3, 7, 6, 5))),
    12: _Starter((11,), ((6, 2, 7, 4), (1, oo, 9, 8), (0, 3, 5, 10))),
    13: _Starter((13,), ((10, 9, 11, 2), (12, 3, 8, 5), (7, 1, 4, 6))),
    16: _Starter((15,), ((oo, 1, 0, 2), (6, 9, 4, 13), (5, 14, 10, 7), (8, 3, 11, 12))),
    17: _Starter((17,), ((14, 11, 3, 16), (7, 6, 10, 5), (8, 13, 4, 15), (2, 9, 12, 1))),
    20: _Starter(
        (19,),
        ((oo, 1, 0, 2), (4, 12, 15, 17), (7, 3, 10, 16), (5, 9, 14, 13), (6, 11, 8, 18)),
    ),
    21: _Starter(
        (21,),
        ((15, 4, 18, 9), (1, 16, 20, 17), (2, 19, 8, 10), (3, 12, 13, 5), (11, 14, 7, 6)),
    ),
    24: _Starter(
        (23,),
        (
            (oo, 1, 0, 2),
            (16, 3, 10, 22),
            (14, 15, 11, 6),
            (12, 4, 20, 17),
            (19, 5, 8, 21),
            (7, 18, 9, 13),
        ),
    ),
    25: _Starter(
        (25,),
        (
            (17, 7, 5, 14),
            (9, 13, 12, 19),
            (15, 20, 6, 3),
            (10, 8, 21, 4),
            (24, 18, 23, 16),
            (1, 2, 11, 22),
        ),
    ),
    28: _Starter(
        (27,),
        (
            (oo, 1, 0, 2),
            (23, 10, 19, 3),
            (17, 14, 22, 24),
            (9, 18, 6, 12),
            (4, 5, 15, 20),
            (26, 11, 7, 13),
            (21, 25, 8, 16),
        ),
    ),
    29: _Starter(
        (29,),
        (
            (2, 21, 16, 10),
            (18, 11, 14, 27),
            (19, 4, 22, 23),
            (25, 1, 20, 3),
            (12, 9, 24, 8),
            (28, 26, 5, 17),
            (13, 15, 6, 7),
        ),
    ),
    32: _Starter(
        (31,),
        (
            (oo, 1, 0, 2),
            (4, 25, 12, 18),
            (30, 29, 13, 20),
            (15, 21, 17, 10),
            (24, 19, 28, 16),
            (14, 5, 8, 26),
            (22, 6, 3, 11),
            (27, 23, 9, 7),
        ),
    ),
}


WHIST_SIZES = tuple(sorted(_STARTERS))
"""The v for which `whist_rounds(v)` gives a whist tournament."""


@dataclass(frozen=True)
class ChartRound:
    """One round of a chart: tables of places in seat order N, E, S, W, and the places
    that sit out."""

    tables: tuple[Table, ...]
    byes: tuple[int, ...]


@dataclass(frozen=True)
class Chart:
    """A rotation chart for `player_count` places, and how it was made."""

    player_count: int
    rounds: tuple[ChartRound, ...]
    construction: str


class ChartError(AssertionError):
    """A chart broke one of its own promises: a bug in the starters or the construction."""


def _partnerships(table: Table) -> tuple[frozenset[int], frozenset[int]]:
    north, east, south, west = table
    return frozenset((north, south)), frozenset((east, west))


def _opponents(table: Table) -> tuple[frozenset[int], ...]:
    north, east, south, west = table
    return tuple(
        frozenset(pair) for pair in ((north, east), (north, west), (south, east), (south, west))
    )


def whist_rounds(v: int) -> list[ChartRound]:
    """The rounds of the cyclic Wh(v): infinity is numbered v - 1, the last place."""
    starter = _STARTERS[v]
    rounds = []
    for shift in range(starter.order):
        tables = tuple(
            tuple(v - 1 if place == INFINITY else starter.shift(place, shift) for place in table)
            for table in starter.tables
        )
        # Without infinity every place but one is in the starter, and that one sits out.
        byes = () if v % 4 == 0 else (shift,)
        rounds.append(ChartRound(tables=tables, byes=byes))
    return rounds


def _byes_balanced(places: Iterable[int], rounds: Iterable[ChartRound]) -> bool:
    """Whether after every round nobody has sat out more than once more than anyone."""
    sat_out = Counter(dict.fromkeys(places, 0))
    for chart_round in rounds:
        sat_out.update(chart_round.byes)
        if max(sat_out.values()) - min(sat_out.values()) > 1:
            return False
    return True


def _opponent_range(player_count: int, rounds: Iterable[ChartRound]) -> int:
    """How far apart the most and the least that any two places meet as opponents."""
    met: Counter[frozenset[int]] = Counter()
    for chart_round in rounds:
        for table in chart_round.tables:
            met.update(_opponents(table))
    counts = [met[frozenset((a, b))] for a in range(player_count) for b in range(a)]
    return max(counts) - min(counts)


def _order_for_byes(rounds: Sequence[ChartRound]) -> list[ChartRound]:
    """The rounds reordered so that byes stay balanced, if a greedy order manages it.

    Next comes the earliest round whose sitters have sat out least in all. With the
    starters from 16 up the three round infinity are consecutive places i, i+1, i+2, so
    this takes rounds 0, 3, 6, ... and each stretch of rounds gives everyone one bye.
    """
    sat_out: Counter[int] = Counter()
    remaining = list(rounds)
    ordered = []
    while remaining:
        best = min(remaining, key=lambda r: sum(sat_out[place] for place in r.byes))
        remaining.remove(best)
        ordered.append(best)
        sat_out.update(best.byes)
    return ordered


def _with_phantom(player_count: int) -> Chart:
    """4m + 3 players, 15 and up: Wh(4m + 4) with infinity left empty; the three who
    would sit with it sit out.

    In the starter infinity partners 0 against 1 and 2, so in round i the players
    i + 1 and i + 2 lose a meeting with i: the pairs that lose one are those 1 apart
    and those 2 apart, each once, and every two players still meet once or twice. The
    byes of round i are i, i + 1, i + 2, so taking rounds 0, 3, 6, ... gives everyone a
    bye in turn; `_order_for_byes` finds that order.
    """
    ordered = _order_for_byes(
        [
            ChartRound(
                tables=tuple(t for t in chart_round.tables if player_count not in t),
                byes=tuple(
                    place
                    for table in chart_round.tables
                    if player_count in table
                    for place in table
                    if place != player_count
                ),
            )
            for chart_round in whist_rounds(player_count + 1)
        ]
    )
    return Chart(
        player_count=player_count,
        rounds=tuple(ordered),
        construction=f"Wh({player_count + 1}) with infinity left empty",
    )


# Eleven players: no cyclic Wh(12) on Z_11 with infinity left empty can have its rounds
# ordered to keep byes balanced (an exhaustive search says so), and leaving a finite
# place empty instead leaves two players who never meet. So this chart was found
# directly, by simulated annealing, with the byes of round i fixed as places 3i, 3i + 1,
# 3i + 2 (mod 11). Two tables a round, in seat order N, E, S, W.
_ELEVEN = (
    ((7, 9, 5, 4), (8, 10, 3, 6)),
    ((2, 9, 10, 7), (1, 8, 0, 6)),
    ((0, 9, 4, 1), (2, 10, 3, 5)),
    ((7, 5, 3, 1), (4, 2, 8, 6)),
    ((8, 10, 5, 4), (0, 9, 7, 6)),
    ((3, 9, 10, 0), (7, 8, 1, 2)),
    ((1, 5, 10, 6), (3, 0, 4, 2)),
    ((3, 2, 6, 7), (9, 5, 8, 4)),
    ((0, 7, 5, 8), (1, 10, 6, 9)),
    ((4, 10, 2, 0), (3, 1, 9, 8)),
    ((6, 5, 0, 2), (7, 3, 4, 1)),
)


def _eleven() -> Chart:
    return Chart(
        player_count=11,
        rounds=tuple(
            ChartRound(tables=tables, byes=tuple((3 * index + k) % 11 for k in range(3)))
            for index, tables in enumerate(_ELEVEN)
        ),
        construction="written out, found by simulated annealing",
    )


def _relabel(table: Table, relabel: dict[int, int]) -> Table:
    north, east, south, west = (relabel[place] for place in table)
    return north, east, south, west


def _with_extra(player_count: int) -> Chart:
    """4m + 2 players: Wh(4m + 1) and an extra place X (numbered 4m + 1).

    In each round X either sits out beside that round's bye or takes the seat of a
    player, who sits out instead. A depth-first search picks, round by round, whom X
    replaces so that X never partners anyone twice, byes stay balanced after every
    round, nobody loses both meetings with the same opponent, and X meets everyone once
    or twice. Every two players then meet once or twice.
    """
    extra = player_count - 1
    whist = whist_rounds(player_count - 1)
    sat_out = Counter(dict.fromkeys(range(player_count), 0))
    lost: Counter[frozenset[int]] = Counter()
    met_extra: Counter[int] = Counter()
    partnered_extra: set[int] = set()
    chosen: list[int] = []

    def seat_of(chart_round: ChartRound, player: int) -> tuple[int, tuple[int, int]]:
        """The partner and the two opponents of `player` in the round."""
        for north, east, south, west in chart_round.tables:
            for me, partner, opponents in (
                (north, south, (east, west)),
                (south, north, (east, west)),
                (east, west, (north, south)),
                (west, east, (north, south)),
            ):
                if me == player:
                    return partner, opponents
        raise ChartError(f"place {player} is not seated")

    def search(index: int) -> bool:
        if index == len(whist):
            return all(met_extra[player] > 0 for player in range(extra))
        chart_round = whist[index]
        (bye,) = chart_round.byes
        # Try first whoever has sat out least, X before the rest, and then the player
        # half the chart ahead of this round's bye: on a cyclic group that choice in
        # every round (X sitting out in the first) meets every condition at once.
        for out in sorted(
            range(player_count),
            key=lambda p: (sat_out[p], p != extra, (p - bye - (extra - 1) // 2) % extra),
        ):
            if out == bye:
                continue
            sat_out.update((bye, out))
            balanced = max(sat_out.values()) - min(sat_out.values()) <= 1
            if out == extra:
                if balanced:
                    chosen.append(out)
                    if search(index + 1):
                        return True
                    chosen.pop()
            elif balanced:
                partner, opponents = seat_of(chart_round, out)
                pairs = [frozenset((out, opponent)) for opponent in opponents]
                if (
                    partner not in partnered_extra
                    and all(lost[pair] == 0 for pair in pairs)
                    and all(met_extra[opponent] < 2 for opponent in opponents)
                ):
                    partnered_extra.add(partner)
                    lost.update(pairs)
                    met_extra.update(opponents)
                    chosen.append(out)
                    if search(index + 1):
                        return True
                    chosen.pop()
                    met_extra.subtract(opponents)
                    lost.subtract(pairs)
                    partnered_extra.discard(partner)
            sat_out.subtract((bye, out))
        return False

    if not search(0):
        raise ChartError(f"no way to seat the extra place in Wh({player_count - 1})")
    rounds = []
    for chart_round, out in zip(whist, chosen, strict=True):
        (bye,) = chart_round.byes
        rounds.append(
            ChartRound(
                tables=tuple(
                    _relabel(table, {p: extra if p == out else p for p in table})
                    for table in chart_round.tables
                ),
                byes=(bye, out),
            )
        )
    return Chart(
        player_count=player_count,
        rounds=tuple(rounds),
        construction=(
            f"Wh({player_count - 1}) and an extra place {extra}, who each round sits out "
            "or takes the seat of a player who then sits out"
        ),
    )


@cache
def rotation_chart(player_count: int) -> Chart:
    """The rotation chart for `player_count` places (8 to 32), checked before it is used.

    Every round seats each place once or gives it a bye; no two places partner twice;
    byes stay balanced after every round. Raises ChartError (a bug) if any fails.
    """
    if not MIN_PLAYERS <= player_count <= MAX_PLAYERS:
        raise ValueError(f"rotation charts are for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    match player_count % 4:
        case 0 | 1:
            chart = Chart(player_count, tuple(whist_rounds(player_count)), f"Wh({player_count})")
        case 2:
            chart = _with_extra(player_count)
        case _ if player_count == 11:
            chart = _eleven()
        case _:
            chart = _with_phantom(player_count)
    _verify(chart)
    return chart


def _verify(chart: Chart) -> None:
    """Raise ChartError unless the chart keeps every promise in the module docstring."""
    partnered: Counter[frozenset[int]] = Counter()
    for number, chart_round in enumerate(chart.rounds, start=1):
        places = [p for table in chart_round.tables for p in table] + list(chart_round.byes)
        if sorted(places) != list(range(chart.player_count)):
            raise ChartError(f"chart {chart.player_count}, round {number}: not everyone once")
        for table in chart_round.tables:
            partnered.update(_partnerships(table))
    if partnered and max(partnered.values()) > 1:
        raise ChartError(f"chart {chart.player_count}: a partnership repeats")
    if not _byes_balanced(range(chart.player_count), chart.rounds):
        raise ChartError(f"chart {chart.player_count}: byes out of balance")
    if _opponent_range(chart.player_count, chart.rounds) > 1:
        raise ChartError(f"chart {chart.player_count}: meetings more than one apart")
