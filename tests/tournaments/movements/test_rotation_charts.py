"""The rotation charts, checked from scratch for every size from 8 to 32."""

from collections import Counter
from itertools import combinations

import pytest

from tournaments.movements.charts import WHIST_SIZES, rotation_chart, whist_rounds

SIZES = range(8, 33)

# The bounds docs/movements.md promises: (rounds, least and most byes per player,
# least and most times two players meet as opponents over the whole chart).
DOCUMENTED = {
    n: (
        {0: n - 1, 1: n, 2: n - 1, 3: n}[n % 4],
        {0: (0, 0), 1: (1, 1), 2: (1, 2), 3: (3, 3)}[n % 4],
        (2, 2) if n % 4 in (0, 1) else (1, 2),
    )
    for n in SIZES
}


def partnerships(table):
    north, east, south, west = table
    return [frozenset((north, south)), frozenset((east, west))]


def opponents(table):
    north, east, south, west = table
    return [frozenset((a, b)) for a in (north, south) for b in (east, west)]


@pytest.mark.parametrize("v", WHIST_SIZES)
def test_every_starter_makes_a_whist_tournament(v):
    rounds = whist_rounds(v)
    partnered = Counter(pair for r in rounds for t in r.tables for pair in partnerships(t))
    met = Counter(pair for r in rounds for t in r.tables for pair in opponents(t))
    every_pair = [frozenset(pair) for pair in combinations(range(v), 2)]
    assert all(partnered[pair] == 1 for pair in every_pair)
    assert all(met[pair] == 2 for pair in every_pair)


@pytest.mark.parametrize("n", SIZES)
def test_every_round_seats_each_place_once(n):
    for chart_round in rotation_chart(n).rounds:
        places = [p for table in chart_round.tables for p in table] + list(chart_round.byes)
        assert sorted(places) == list(range(n))
        assert len(chart_round.tables) == n // 4
        assert len(chart_round.byes) == n % 4


@pytest.mark.parametrize("n", SIZES)
def test_nobody_partners_anyone_twice(n):
    chart = rotation_chart(n)
    partnered = Counter(pair for r in chart.rounds for t in r.tables for pair in partnerships(t))
    assert max(partnered.values()) == 1
    assert len(chart.rounds) == DOCUMENTED[n][0]


@pytest.mark.parametrize("n", SIZES)
def test_byes_are_balanced_after_every_round(n):
    sat_out = Counter(dict.fromkeys(range(n), 0))
    for chart_round in rotation_chart(n).rounds:
        sat_out.update(chart_round.byes)
        assert max(sat_out.values()) - min(sat_out.values()) <= 1
    assert (min(sat_out.values()), max(sat_out.values())) == DOCUMENTED[n][1]


@pytest.mark.parametrize("n", SIZES)
def test_opponents_meet_within_the_documented_bounds(n):
    met = Counter(pair for r in rotation_chart(n).rounds for t in r.tables for pair in opponents(t))
    counts = [met[frozenset(pair)] for pair in combinations(range(n), 2)]
    assert (min(counts), max(counts)) == DOCUMENTED[n][2]
    for player in range(n):
        mine = [met[frozenset((player, other))] for other in range(n) if other != player]
        assert max(mine) - min(mine) <= (0 if n % 4 in (0, 1) else 1)


def test_outside_eight_to_thirty_two_there_is_no_chart():
    with pytest.raises(ValueError):
        rotation_chart(7)
    with pytest.raises(ValueError):
        rotation_chart(33)
