"""The progressive movement, checked against seatings worked out by hand."""

import random

import pytest

from tests.tournaments.movements.movement_helpers import bye_counts_after_each_round, play, players
from tournaments.movements import (
    MOVEMENTS,
    Guarantee,
    MovementError,
    RoundResult,
    RoundSeating,
    TableSeating,
)

PROGRESSIVE = MOVEMENTS["progressive"]

# Round 1 of twelve players: table 1 is the head, table 3 the foot.
ROUND_ONE = RoundSeating(
    round_number=1,
    tables=(
        TableSeating.of(1, "a", "b", "c", "d"),
        TableSeating.of(2, "e", "f", "g", "h"),
        TableSeating.of(3, "i", "j", "k", "l"),
    ),
)


def seat(previous, present=tuple("abcdefghijkl")):
    return PROGRESSIVE.seat_round(
        round_number=len(previous) + 1,
        players=list(present),
        previous=previous,
        rng=random.Random(0),
    )


def seats(seating):
    return [table.players for table in seating.tables]


def test_winners_move_up_losers_down_and_partners_split():
    # Table 1: a-c (NS) beat b-d. Table 2: f-h (EW) beat e-g. Table 3: i-k (NS) beat j-l.
    seating = seat([RoundResult(ROUND_ONE, {1: "NS", 2: "EW", 3: "NS"})])
    assert seats(seating) == [
        # Head: a-c stay, f-h come up; a partners f, c partners h.
        ("a", "c", "f", "h"),
        # b-d come down from the head, i-k come up from the foot.
        ("b", "d", "i", "k"),
        # e-g come down, j-l stay at the foot.
        ("e", "g", "j", "l"),
    ]
    assert seating.byes == ()
    assert seating.relaxations == ()


def test_a_second_round_follows_from_the_first_by_hand():
    round_two = seat([RoundResult(ROUND_ONE, {1: "NS", 2: "EW", 3: "NS"})])
    # Round 2 tables, in seat order N E S W: (a c f h), (b d i k), (e g j l).
    # Table 1: E-W (c, h) win. Table 2: N-S (b, i) win. Table 3: E-W (g, l) win.
    results = [
        RoundResult(ROUND_ONE, {1: "NS", 2: "EW", 3: "NS"}),
        RoundResult(round_two, {1: "EW", 2: "NS", 3: "EW"}),
    ]
    assert seats(seat(results)) == [
        # Head: c-h stay (c sat East), b-i come up (b sat North).
        ("c", "h", "b", "i"),
        # a-f (a North) down from the head; g-l (g East) up from the foot.
        ("a", "f", "g", "l"),
        # d-k down from table 2; e-j stay at the foot.
        ("d", "k", "e", "j"),
    ]


def test_one_table_swaps_partners():
    round_one = RoundSeating(1, (TableSeating.of(1, "a", "b", "c", "d"),))
    seating = seat([RoundResult(round_one, {1: "EW"})], present="abcd")
    assert seats(seating) == [("b", "d", "a", "c")]


def test_the_other_split_is_taken_when_the_usual_one_repeats_a_partnership():
    # In round 1, a and f were partners at table 1 (a North, f South).
    earlier = RoundSeating(
        1,
        (
            TableSeating.of(1, "a", "b", "f", "d"),
            TableSeating.of(2, "e", "c", "h", "g"),
            TableSeating.of(3, "i", "j", "k", "l"),
        ),
    )
    round_two = RoundSeating(2, ROUND_ONE.tables)
    seating = PROGRESSIVE.seat_round(
        round_number=3,
        players=list("abcdefghijkl"),
        previous=[
            RoundResult(earlier, {1: "NS", 2: "NS", 3: "NS"}),
            RoundResult(round_two, {1: "NS", 2: "EW", 3: "NS"}),
        ],
        rng=random.Random(0),
    )
    # Usually a partners f and c partners h; a-f has been played, so a partners h.
    assert seating.table(1).players == ("a", "c", "h", "f")
    assert all(r.guarantee != Guarantee.NEW_PARTNER for r in seating.relaxations)


def test_a_repeat_both_splits_make_is_reported():
    one = RoundSeating(1, (TableSeating.of(1, "a", "b", "c", "d"),))
    two = RoundSeating(2, (TableSeating.of(1, "a", "c", "b", "d"),))
    three = RoundSeating(3, (TableSeating.of(1, "a", "b", "d", "c"),))
    results = [RoundResult(s, {1: "NS"}) for s in (one, two, three)]
    seating = seat(results, present="abcd")
    assert [r.guarantee for r in seating.relaxations] == [Guarantee.NEW_PARTNER]


def test_round_one_is_cut_for():
    seating = seat([], present=players(9))
    assert {cut.purpose for cut in seating.cuts} >= {"tables", "partners at table 1"}
    assert len(seating.byes) == 1


def test_every_table_needs_its_winners():
    with pytest.raises(MovementError, match="no result at table 2"):
        seat([RoundResult(ROUND_ONE, {1: "NS", 3: "EW"})])


def test_one_sitting_out_is_replaced_by_the_one_who_sat_out_last():
    round_one = RoundSeating(round_number=1, tables=ROUND_ONE.tables, byes=("m",))
    seating = seat([RoundResult(round_one, {1: "NS", 2: "EW", 3: "NS"})], present="abcdefghijklm")
    # Everyone has played once but m; of them the lowest on the ladder (l, who would
    # stay at the foot in West) sits out, and m takes his place.
    assert seating.byes == ("l",)
    assert seats(seating)[2] == ("e", "g", "j", "m")
    assert [r.guarantee for r in seating.relaxations] == [Guarantee.PROGRESSION]


def test_a_departure_closes_up_from_the_foot():
    seating = seat([RoundResult(ROUND_ONE, {1: "NS", 2: "EW", 3: "NS"})], present="abcdefghijk")
    # The ladder would be a c f h | b d i k | e g j l. With l gone, eleven players make
    # two tables, and the three lowest on the ladder, j, g and e, sit out.
    assert seating.byes == ("j", "g", "e")
    assert seats(seating) == [("a", "c", "f", "h"), ("b", "d", "i", "k")]


def test_arrivals_make_a_new_table_at_the_foot():
    seating = seat(
        [RoundResult(ROUND_ONE, {1: "NS", 2: "EW", 3: "NS"})],
        present=[*"abcdefghijkl", "w", "x", "y", "z"],
    )
    assert seats(seating)[:3] == [("a", "c", "f", "h"), ("b", "d", "i", "k"), ("e", "g", "j", "l")]
    assert seats(seating)[3] == ("w", "x", "y", "z")


@pytest.mark.parametrize("count", [5, 9, 13, 14, 19])
def test_byes_stay_within_one_of_each_other(count):
    everyone = players(count)
    results = play(PROGRESSIVE, rounds=15, present=lambda _: everyone, seed=count)
    for sat_out in bye_counts_after_each_round(results, everyone):
        assert max(sat_out.values()) - min(sat_out.values()) <= 1
