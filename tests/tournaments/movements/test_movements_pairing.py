"""Seating players off the chart: partners repeat only as often as they must."""

from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.movements.history import History
from tournaments.movements.pairing import fewest_repeats, seat_pool


def fewest_by_trying_every_pairing(players, partnered):
    """The least number of old partnerships in any way of pairing everyone off."""
    if not players:
        return 0
    first, rest = players[0], players[1:]
    return min(
        (frozenset((first, other)) in partnered)
        + fewest_by_trying_every_pairing([p for p in rest if p != other], partnered)
        for other in rest
    )


@st.composite
def pools(draw):
    players = [f"q{number}" for number in range(4 * draw(st.integers(1, 3)))]
    pairs = [frozenset(pair) for pair in combinations(players, 2)]
    partnered = set(draw(st.lists(st.sampled_from(pairs), unique=True)))
    met = Counter(draw(st.lists(st.sampled_from(pairs))))
    reserved = set(draw(st.lists(st.sampled_from(pairs), unique=True)))
    history = History(partners=Counter(partnered), opponents=met, played=Counter())
    return players, partnered, history, reserved


@settings(max_examples=200, deadline=None)
@given(pools())
def test_partners_repeat_no_more_than_every_pairing_forces(pool):
    players, partnered, history, reserved = pool
    tables, repeats = seat_pool(players, history=history, reserved=reserved)
    least = fewest_by_trying_every_pairing(players, partnered)
    assert len(repeats) == least == fewest_repeats(players, history=history)
    assert sorted(player for table in tables for player in table) == sorted(players)
    assert {frozenset(pair) for pair in repeats} == {
        pair
        for north, east, south, west in tables
        for pair in (frozenset((north, south)), frozenset((east, west)))
        if pair in partnered
    }


def test_partnerships_kept_for_the_chart_are_used_only_when_needed():
    players = ["a", "b", "c", "d"]
    history = History(partners=Counter(), opponents=Counter(), played=Counter())
    tables, _ = seat_pool(players, history=history, reserved={frozenset("ab"), frozenset("cd")})
    ((north, east, south, west),) = tables
    assert {frozenset((north, south)), frozenset((east, west))}.isdisjoint(
        {frozenset("ab"), frozenset("cd")}
    )


def test_opponents_met_least_are_put_together():
    players = ["a", "b", "c", "d", "e", "f", "g", "h"]
    # Pairs a-b, c-d, e-f, g-h are all anyone may play (everything else repeats), and
    # a-b have met c-d twice but never e-f.
    partnered = {frozenset(p) for p in combinations(players, 2)} - {
        frozenset("ab"),
        frozenset("cd"),
        frozenset("ef"),
        frozenset("gh"),
    }
    met = Counter({frozenset(p): 2 for p in ("ac", "ad", "bc", "bd")})
    history = History(partners=Counter(partnered), opponents=met, played=Counter())
    tables, repeats = seat_pool(players, history=history)
    assert repeats == []
    at_table = [set(table) for table in tables]
    assert {"a", "b", "c", "d"} not in at_table
