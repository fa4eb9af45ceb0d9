"""The cut movement: a fresh cut each round, seating everyone present once."""

import random
from collections import Counter

import pytest

from tests.tournaments.movements.movement_helpers import (
    bye_counts_after_each_round,
    play,
    players,
)
from tournaments.movements import MOVEMENTS, MovementError, movement_for

CUT = MOVEMENTS["cut"]


@pytest.mark.parametrize("count", [4, 5, 7, 8, 13, 22, 33])
def test_the_cut_seats_everyone_present_once(count):
    everyone = players(count)
    seating = CUT.seat_round(round_number=1, players=everyone, previous=[], rng=random.Random(1))
    assert sorted([*seating.seated, *seating.byes]) == everyone
    assert len(seating.tables) == count // 4
    assert len(seating.byes) == count % 4


def test_tables_go_by_the_cut_and_partners_by_a_second_cut():
    seating = CUT.seat_round(round_number=1, players=players(9), previous=[], rng=random.Random(2))
    by_purpose = Counter(cut.purpose for cut in seating.cuts)
    assert by_purpose == {"tables": 9, "partners at table 1": 4, "partners at table 2": 4}
    # Same rng, same calls: the seating is the cut's and nothing else's.
    again = CUT.seat_round(round_number=1, players=players(9), previous=[], rng=random.Random(2))
    assert again == seating


def test_the_worst_cuts_sit_out_in_round_one():
    rng = random.Random(3)
    seating = CUT.seat_round(round_number=1, players=players(10), previous=[], rng=rng)
    # Table 1 has the four best cuts of the table cut: ranks J A K Q 10 9 8 7 (T1).
    ranks = ["J", "A", "K", "Q", "10", "9", "8", "7"]
    first_card = {cut.player: cut.cards for cut in seating.cuts if cut.purpose == "tables"}

    def strength(player):
        return [ranks.index(card[:-1]) for card in first_card[player]]

    head = set(seating.table(1).players)
    others = set(seating.table(2).players)
    assert max(strength(p) for p in head) <= min(strength(p) for p in others)
    assert all(strength(bye) >= max(strength(p) for p in others) for bye in seating.byes)


@pytest.mark.parametrize("count", [9, 10, 11, 14, 23])
def test_byes_stay_within_one_of_each_other(count):
    everyone = players(count)
    results = play(CUT, rounds=12, present=lambda _: everyone, seed=count)
    for sat_out in bye_counts_after_each_round(results, everyone):
        assert max(sat_out.values()) - min(sat_out.values()) <= 1


def test_a_late_arrival_plays_rather_than_sits_out():
    early = players(9)
    results = play(CUT, rounds=6, present=lambda k: early if k < 4 else [*early, "late"], seed=4)
    for result in results[3:]:
        assert "late" in result.seating.seated


def test_bridge_cuts_with_the_bridge_pack():
    bridge = movement_for("cut", rule_set="bridge-elwell-1907")
    seating = bridge.seat_round(
        round_number=1, players=players(4), previous=[], rng=random.Random(6)
    )
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    suits = "HDCS"
    last = {cut.player: cut.cards[-1] for cut in seating.cuts if cut.purpose.startswith("partners")}
    lowest = min(last, key=lambda p: (ranks.index(last[p][:-1]), suits.index(last[p][-1])))
    assert seating.table(1).seats["N"] == lowest


def test_unknown_movements_and_call_ace_are_refused():
    with pytest.raises(MovementError, match="no movement 'howell'"):
        movement_for("howell", rule_set="euchre-somerset-1888")
    with pytest.raises(MovementError, match="not played in partnerships"):
        movement_for("cut", rule_set="call-ace-foster-1905")
