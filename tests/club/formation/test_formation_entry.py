"""Entry and leaving in the corners the whole evenings do not reach (rulings T2, T5, T7)."""

from __future__ import annotations

from club.formation import EUCHRE
from tests.club.formation.formation_walk import Walk


def full_table_after_first_rubber() -> Walk:
    """Six members; after rubber 1, Ann and Bob stayed in (one rubber each), Cat and Dan went
    out, Eve and Fay came in."""
    walk = Walk(EUCHRE)
    walk.arrive("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
    walk("form_table")
    walk(
        "cut", cards={"Ann": "JS", "Bob": "AS", "Cat": "KS", "Dan": "QS", "Eve": "9S", "Fay": "8S"}
    )
    walk("cut", cards={"Ann": "JS", "Bob": "AS", "Cat": "KS", "Dan": "QS"})
    walk("rubber_end", table=1)
    walk("cut", cards={"Ann": "JS", "Bob": "AS", "Cat": "8S", "Dan": "7S"})
    return walk


def test_ruling_t2_a_later_arrival_waits_for_the_next_cut():
    walk = Walk(EUCHRE)
    walk.arrive("Ann", "Bob", "Cat", "Dan", "Eve")
    walk("form_table")
    walk("arrive", player="Fay")
    assert walk.mentions("the cut to form a table has begun without Fay, who waits for the next")
    walk.refused(
        "cut",
        cards={"Ann": "JS", "Bob": "AS", "Cat": "KS", "Dan": "QS", "Eve": "9S", "Fay": "8S"},
    )
    walk("cut", cards={"Ann": "JS", "Bob": "AS", "Cat": "KS", "Dan": "QS", "Eve": "9S"})
    assert walk.state.candidates == ["Fay"]


def test_ruling_t7_with_no_candidate_in_the_room_the_first_waiting_member_takes_the_place():
    walk = full_table_after_first_rubber()
    assert walk.table(1).waiting == ["Dan", "Cat"]
    walk("leave", table=1, player="Ann")
    table = walk.table(1)
    assert sorted(table.playing) == ["Bob", "Dan", "Eve", "Fay"]
    assert table.waiting == ["Cat"]
    assert not table.members["Dan"].one_rubber
    assert walk.mentions("Dan, first of the waiting members, takes Ann's place")
    assert walk.state.candidates == ["Ann"]


def test_law_19_replacement_stays_in_when_no_one_claims_his_place():
    walk = full_table_after_first_rubber()
    walk.arrive("Gus")
    walk("leave", table=1, player="Ann")
    assert walk.table(1).members["Gus"].one_rubber
    walk("leave", table=1, player="Dan")
    walk("leave", table=1, player="Cat")  # nobody waits now
    walk("cut", cards={"Bob": "JS", "Eve": "AS", "Fay": "KS", "Gus": "QS"})
    walk("rubber_end", table=1)
    # Ann would not have gone out with no one claiming, so neither does Gus; the flag lapses.
    assert sorted(walk.table(1).playing) == ["Bob", "Eve", "Fay", "Gus"]
    assert not walk.table(1).members["Gus"].one_rubber


def test_a_candidate_who_leaves_the_room_loses_his_claim():
    walk = full_table_after_first_rubber()
    walk("leave", table=1, player="Cat")
    walk.arrive("Gus")
    walk.refused("claim", player="Gus", table=1)  # law 16: the cut-out has been cut
    walk("cut", cards={"Ann": "JS", "Bob": "AS", "Eve": "KS", "Fay": "QS"})
    walk("claim", player="Gus", table=1)
    walk("depart", player="Gus")
    assert walk.table(1).claims == []
    assert walk.mentions("Gus's claim at table 1 lapses")


def test_a_waiting_member_may_leave_during_a_rubber():
    walk = full_table_after_first_rubber()
    walk("cut", cards={"Ann": "JS", "Bob": "AS", "Eve": "KS", "Fay": "QS"})
    walk("leave", table=1, player="Cat")
    assert walk.table(1).waiting == ["Dan"]
    assert walk.table(1).in_rubber
    walk("rubber_end", table=1)
    # Dan alone claims: one goes out, of Ann and Bob (two rubbers each) they cut.
    assert walk.must_cut(1) == ["Ann", "Bob"]
    assert walk.replays_to_same_state()
