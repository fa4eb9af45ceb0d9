"""The rotation movement: the chart through the movement, and players who come and go."""

import random
from collections import Counter

import pytest

from tests.tournaments.movements.movement_helpers import (
    bye_counts_after_each_round,
    opponent_meetings,
    partnerships,
    play,
    players,
    repeated_partnerships,
)
from tournaments.movements import (
    MOVEMENTS,
    Guarantee,
    MovementError,
    RoundResult,
    RoundSeating,
    TableSeating,
)
from tournaments.movements.charts import rotation_chart

ROTATION = MOVEMENTS["rotation"]
SIZES = range(8, 33)


def guarantees(results):
    return Counter(r.guarantee for result in results for r in result.seating.relaxations)


@pytest.mark.parametrize("n", SIZES)
def test_the_whole_chart_seats_a_new_partner_every_round(n):
    everyone = players(n)
    rounds = ROTATION.max_rounds(player_count=n)
    results = play(ROTATION, rounds=rounds, present=lambda _: everyone, seed=n)
    assert repeated_partnerships(results) == {}
    assert guarantees(results) == {}
    for sat_out in bye_counts_after_each_round(results, everyone):
        assert max(sat_out.values()) - min(sat_out.values()) <= 1
    met = opponent_meetings(results)
    bounds = (2, 2) if n % 4 in (0, 1) else (1, 2)
    for player in everyone:
        mine = [met[frozenset((player, other))] for other in everyone if other != player]
        assert (min(mine), max(mine)) == bounds


def test_places_are_cut_for_in_round_one():
    seating = ROTATION.seat_round(
        round_number=1, players=players(10), previous=[], rng=random.Random(1)
    )
    assert Counter(cut.purpose for cut in seating.cuts) == {"places on the chart": 10}
    assert len(seating.tables) == 2
    assert len(seating.byes) == 2


def test_a_round_one_seated_otherwise_still_gives_places():
    # Round 1 was cut (same shape as the chart); the rotation takes over from there.
    results = play(MOVEMENTS["cut"], rounds=1, present=lambda _: players(12), seed=2)
    results += play_on(results, rounds=10, present=lambda _: players(12))
    assert repeated_partnerships(results) == {}


def play_on(results, *, rounds, present, seed=0):
    """Seat `rounds` more rounds after `results` with the rotation."""
    rng = random.Random(seed)
    more = []
    for _ in range(rounds):
        seating = ROTATION.seat_round(
            round_number=len(results) + len(more) + 1,
            players=list(present(len(results) + len(more) + 1)),
            previous=[*results, *more],
            rng=rng,
        )
        more.append(RoundResult(seating, {}))
    return more


@pytest.mark.parametrize("n", [8, 9, 10, 11, 16, 21, 26, 31])
@pytest.mark.parametrize("fraction", [0.25, 0.5, 0.8])
def test_a_newcomer_who_replaces_a_leaver_takes_his_place_on_the_chart(n, fraction):
    everyone = players(n)
    rounds = ROTATION.max_rounds(player_count=n)
    change = max(2, round(rounds * fraction))
    late = [p for p in everyone if p != "p03"] + ["newcomer"]
    results = play(
        ROTATION, rounds=rounds, present=lambda k: everyone if k < change else late, seed=n
    )
    assert repeated_partnerships(results) == {}
    # The chart goes on as if nothing had happened: no guarantee relaxed.
    assert guarantees(results) == {}


@pytest.mark.parametrize("n", [8, 12, 16, 20, 24, 28])
def test_a_departure_from_a_multiple_of_four_keeps_partners_new(n):
    # One leaves early: the empty place acts as a phantom; byes may run two apart.
    everyone = players(n)
    rounds = ROTATION.max_rounds(player_count=n)
    rest = everyone[1:]
    results = play(ROTATION, rounds=rounds, present=lambda k: everyone if k < 3 else rest)
    assert repeated_partnerships(results) == {}
    for sat_out in bye_counts_after_each_round(results[2:], rest):
        assert max(sat_out.values()) - min(sat_out.values()) <= 2


@pytest.mark.parametrize("n", [8, 12, 16, 20, 24, 28, 32])
def test_a_late_arrival_is_seated_with_new_partners(n):
    everyone = players(n)
    rounds = ROTATION.max_rounds(player_count=n)
    results = play(
        ROTATION,
        rounds=rounds,
        present=lambda k: everyone if k < 4 else [*everyone, "late"],
        seed=n,
    )
    assert repeated_partnerships(results) == {}
    # Having played least, he sits out no round once he has come.
    assert all("late" in result.seating.seated for result in results[3:])


def test_a_leaver_who_comes_back_has_his_place_again():
    everyone = players(12)
    away = [p for p in everyone if p != "p05"]
    results = play(ROTATION, rounds=11, present=lambda k: away if k in (4, 5) else everyone, seed=3)
    assert repeated_partnerships(results) == {}
    # While he is away his table-mates sit out, as if his place were a phantom; back,
    # he sits in his place: every table of every round is the chart's.
    assert guarantees(results) == {}
    assert all(len(r.seating.byes) == 3 for r in results[3:5])


def test_every_repeated_partnership_is_reported():
    everyone = players(9)
    # Nine less one leave eight for nine rounds: eight players can partner anew for
    # only seven rounds, so repeats are forced and must be owned up to.
    results = play(
        ROTATION, rounds=9, present=lambda k: everyone if k < 2 else everyone[1:], seed=4
    )
    seen = Counter()
    forced = 0
    for result in results:
        repeats = [pair for pair in partnerships(result.seating) if seen[pair]]
        seen.update(partnerships(result.seating))
        reported = [r for r in result.seating.relaxations if r.guarantee == Guarantee.NEW_PARTNER]
        assert bool(repeats) == bool(reported)
        forced += len(repeats)
    assert forced > 0


def test_rounds_beyond_the_chart_are_seated_round_by_round():
    everyone = players(8)
    results = play(ROTATION, rounds=9, present=lambda _: everyone)
    assert guarantees(results[:7]) == {}
    # Past round 7 everyone has partnered everyone: repeats, reported.
    assert guarantees(results[7:])[Guarantee.NEW_PARTNER] == 2


def test_the_chart_needs_eight_to_thirty_two_players():
    for count in (7, 33):
        with pytest.raises(MovementError, match="8 to 32 players"):
            ROTATION.seat_round(
                round_number=1, players=players(count), previous=[], rng=random.Random(0)
            )
    with pytest.raises(MovementError, match="8 to 32 players"):
        ROTATION.max_rounds(player_count=40)


def test_a_round_one_of_the_wrong_shape_is_refused():
    odd = RoundSeating(
        1,
        (
            TableSeating.of(1, "a", "b", "c", "d"),
            TableSeating.of(2, "e", "f", "g", "h"),
        ),
        byes=("i", "j", "k", "l"),
    )
    with pytest.raises(MovementError, match="shape of a rotation chart"):
        ROTATION.seat_round(
            round_number=2,
            players=list("abcdefghijkl"),
            previous=[RoundResult(odd)],
            rng=random.Random(0),
        )


def test_thirty_two_players_for_thirty_one_rounds_from_a_chart_made_afresh():
    """The largest chart, made anew (its cache emptied), seats all thirty-one rounds with a
    new partner each time. Not timed: a wall-clock bound fails on a machine busy with other
    work (CI's did, at 1.26 s); it is made in a few milliseconds."""
    everyone = players(32)
    rotation_chart.cache_clear()
    results = play(ROTATION, rounds=31, present=lambda _: everyone)
    assert len(results) == 31
    assert repeated_partnerships(results) == {}


def test_round_one_short_of_or_over_the_charts_says_what_the_director_can_do():
    """The movement is fixed once the tournament is created: the refusal names the
    movement's rule and what the director can do now, never another movement."""
    with pytest.raises(MovementError) as short:
        ROTATION.seat_round(round_number=1, players=players(7), previous=[], rng=random.Random(0))
    assert str(short.value) == (
        "the rotation movement seats 8 to 32 players from its charts, and 7 are present for "
        "round 1: enter 1 more player before seating it (the movement is chosen when the "
        "tournament is created and is not changed)"
    )
    with pytest.raises(MovementError) as over:
        ROTATION.seat_round(round_number=1, players=players(34), previous=[], rng=random.Random(0))
    assert "34 are present for round 1: 2 of them must ask to sit round 1 out (a bye)" in (
        str(over.value)
    )
    assert "progressive movement" not in str(short.value) + str(over.value)
