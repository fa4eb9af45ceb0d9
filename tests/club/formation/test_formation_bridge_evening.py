"""A whole Bridge evening (Elwell 1907: Cutting, Forming Tables, Cutting Out, Rights of Entry).

Cutting order (ruling T1): ace lowest, then two up to king; between equal ranks the heart is
lowest, then diamond, club, spade. So 5H is below 5S and a Bridge cut never ties. Bridge
favours the low cards: the four lowest play, the two lowest are partners and the lowest deals,
and at a cutting out the highest go out.
"""

from __future__ import annotations

from club.formation import BRIDGE, required
from tests.club.formation.formation_walk import Walk


def table_formed() -> Walk:
    walk = Walk(BRIDGE)
    walk.arrive("Amy", "Ben", "Cal", "Deb", "Eli", "Flo", "Guy")
    walk("form_table")
    walk(
        "cut",
        cards={
            "Amy": "AS",
            "Ben": "AH",
            "Cal": "2C",
            "Deb": "KD",
            "Eli": "5S",
            "Flo": "5H",
            "Guy": "QS",
        },
    )
    return walk


def test_forming_tables_the_four_lowest_play_and_suits_break_equal_ranks():
    walk = table_formed()
    table = walk.table(1)
    # Ben AH < Amy AS < Cal 2C < Flo 5H < Eli 5S < Guy QS < Deb KD: no second cut at all.
    assert table.playing == ["Ben", "Amy", "Cal", "Flo"]
    assert table.waiting == ["Eli", "Guy"]
    assert walk.state.candidates == ["Deb"]
    assert walk.mentions(
        "Bridge laws, Forming Tables / ruling T3: table 1: Ben, Amy, Cal and Flo cut lowest"
    )


def first_rubber() -> Walk:
    walk = table_formed()
    walk("cut", cards={"Amy": "3D", "Ben": "3H", "Cal": "10C", "Flo": "JS"})
    return walk


def test_forming_tables_the_two_lowest_are_partners_and_the_lowest_deals():
    walk = first_rubber()
    table = walk.table(1)
    assert table.dealer == "Ben"
    assert table.seats == {"N": "Ben", "E": "Cal", "S": "Amy", "W": "Flo"}


def test_rights_of_entry_a_substitute_keeps_his_rights_at_bridge():
    walk = first_rubber()
    walk("substitute", table=1, player="Cal", substitute="Deb", consent=["Ben", "Amy", "Flo"])
    assert walk.mentions("Bridge laws, Rights of Entry / ruling T6: Deb sits in for Cal")
    # "shall not in any way affect the substitute's rights": Deb is still fresh (law 17's
    # Bridge counterpart), unlike a Euchre substitute.
    assert "Deb" not in walk.state.belonged


def second_rubber() -> Walk:
    walk = first_rubber()
    walk("substitute", table=1, player="Cal", substitute="Deb", consent=["Ben", "Amy", "Flo"])
    walk("rubber_end", table=1)
    walk("cut", cards={"Ben": "KS", "Amy": "2H", "Cal": "9D", "Flo": "9C"})
    walk("cut", cards={"Amy": "7H", "Cal": "4C", "Eli": "KH", "Guy": "8S"})
    return walk


def test_cutting_out_when_all_have_played_the_same_number_the_highest_go_out():
    walk = first_rubber()
    walk("substitute", table=1, player="Cal", substitute="Deb", consent=["Ben", "Amy", "Flo"])
    walk("rubber_end", table=1)
    assert walk.consecutive(1)["Cal"] == 1
    assert walk.must_cut(1) == ["Amy", "Ben", "Cal", "Flo"]
    walk("cut", cards={"Ben": "KS", "Amy": "2H", "Cal": "9D", "Flo": "9C"})
    table = walk.table(1)
    # Cal's 9D is below Flo's 9C: Flo and Ben cut highest and go out, Ben (highest) first.
    assert table.waiting == ["Ben", "Flo"]
    assert sorted(table.playing) == ["Amy", "Cal", "Eli", "Guy"]
    assert walk.mentions(
        "Bridge laws, Cutting Out / ruling T5: Ben has played 1 consecutive rubber and cut highest"
    )


def test_second_rubber_partners_lowest_deals():
    walk = second_rubber()
    table = walk.table(1)
    assert table.seats == {"N": "Cal", "E": "Guy", "S": "Amy", "W": "Eli"}
    assert table.dealer == "Cal"


def fresh_table_made_up() -> Walk:
    walk = second_rubber()
    walk.arrive("Hes", "Ian")
    walk("change_table", player="Flo", table="new", will_return=True)
    return walk


def test_ruling_t8_a_player_who_enables_three_candidates_keeps_his_right_of_reentry():
    walk = fresh_table_made_up()
    assert walk.state.reentry == {"Flo": 1}
    assert sorted(walk.table(2).playing) == ["Deb", "Flo", "Hes", "Ian"]
    assert "Flo" not in walk.table(1).members
    assert walk.must_cut(2) == ["Deb", "Flo", "Hes", "Ian"]
    assert walk.mentions(
        "Flo enables Deb, Hes and Ian to form a fresh table and signifies the intention of "
        "returning to table 1, keeping the right of re-entry there"
    )


def test_ruling_t8_the_exception_needs_exactly_three_candidates():
    walk = second_rubber()
    walk.arrive("Hes")
    error = walk.refused("change_table", player="Flo", table="new")
    assert error.law == "Bridge laws, Rights of Entry / ruling T8"
    # It says what to do, not only "1 candidate free: Flo keeps the right of re-entry only
    # when enabling three candidates to form a fresh table".
    table = walk.state.table_of("Flo").number
    assert error.message == (
        f"{error.law}: only Deb and Hes are free; Flo keeps the right of re-entry into "
        f"table {table} only by making up a fresh table with exactly three free "
        f"candidates: wait until three are free, or let Flo leave table {table} and cut in "
        "as a candidate, giving the right up"
    )
    walk.arrive("Ida", "Jo")
    error = walk.refused("change_table", player="Flo", table="new")
    assert error.message.endswith(
        "4 candidates are free, enough for a table without Flo; Flo keeps the right of "
        f"re-entry into table {table} only by making up a fresh table with exactly three "
        f"free candidates: let them form a fresh table by cutting, or let Flo leave table "
        f"{table} and cut with them, giving the right up"
    )


def returned() -> Walk:
    walk = fresh_table_made_up()
    walk("change_table", player="Flo", table=1)
    return walk


def test_ruling_t8_returning_his_place_at_the_new_table_can_be_filled():
    walk = returned()
    assert walk.table(1).claims == ["Flo"]
    assert sorted(walk.table(2).playing) == ["Deb", "Hes", "Ian"]
    assert walk.mentions("Flo returns to table 1 under a right of re-entry")
    seat = next(item for item in required(walk.state) if item["kind"] == "seat")
    assert (seat["table"], seat["places"]) == (2, 1)


def test_cutting_out_at_rubber_end_admits_the_waiting_member_and_the_returning_player():
    walk = returned()
    walk("rubber_end", table=1)
    table = walk.table(1)
    # Amy and Cal have played two consecutive rubbers, Eli and Guy one.
    assert sorted(table.playing) == ["Ben", "Eli", "Flo", "Guy"]
    assert table.waiting == ["Amy", "Cal"]
    assert walk.state.reentry == {}


def test_a_candidate_takes_the_empty_place_at_a_short_table():
    walk = returned()
    walk.arrive("Jo")
    walk("claim", player="Jo", table=2)
    assert sorted(walk.table(2).playing) == ["Deb", "Hes", "Ian", "Jo"]
    assert walk.must_cut(2) == ["Deb", "Hes", "Ian", "Jo"]
    assert walk.replays_to_same_state()
