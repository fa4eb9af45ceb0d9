"""Rulings T8, T9, T11, T12, T13 and T14 (RULINGS.md), one test or more each, pure.

Each test names its ruling and fails if the engine does not follow it.
"""

from __future__ import annotations

from club.formation import BRIDGE, CALL_ACE, EUCHRE, required
from tests.club.formation.formation_walk import Walk

# -- helpers ------------------------------------------------------------------------------------


def four_at_table(rule_set: str = EUCHRE) -> Walk:
    """Four candidates: they form table 1 without cutting (law 11) and must cut for partners."""
    walk = Walk(rule_set)
    walk.arrive("Ann", "Bob", "Cat", "Dan")
    walk("form_table")
    return walk


def two_tables(rule_set: str) -> Walk:
    """Tables 1 (Ann, Bob, Cat, Dan) and 2 (Eve, Fay, Gus, Hal), four members each."""
    walk = four_at_table(rule_set)
    walk.arrive("Eve", "Fay", "Gus", "Hal")
    walk("form_table")
    return walk


def bridge_table_of_six() -> Walk:
    """A Bridge table of six members (Amy, Ben, Cal, Flo playing; Eli, Guy waiting); Deb a
    candidate."""
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
    assert len(walk.table(1).members) == 6
    return walk


# -- T8: changing tables -----------------------------------------------------------------------


def made_up_fresh(*, will_return: bool | None) -> Walk:
    walk = bridge_table_of_six()
    walk("cut", cards={"Amy": "3D", "Ben": "3H", "Cal": "10C", "Flo": "JS"})
    walk("rubber_end", table=1)
    walk("cut", cards={"Ben": "KS", "Amy": "2H", "Cal": "9D", "Flo": "9C"})
    walk("cut", cards={"Amy": "7H", "Cal": "4C", "Eli": "KH", "Guy": "8S"})
    walk.arrive("Hes", "Ian")  # Deb, Hes and Ian: three free candidates
    fields = {} if will_return is None else {"will_return": will_return}
    walk("change_table", player="Flo", table="new", **fields)
    return walk


def test_ruling_t8_the_right_of_reentry_is_kept_only_if_he_says_he_will_return():
    walk = made_up_fresh(will_return=True)
    assert walk.state.reentry == {"Flo": 1}
    assert walk.mentions(
        "Bridge laws, Rights of Entry / ruling T8",
        "signifies the intention of returning to table 1",
    )


def test_ruling_t8_not_saying_he_will_return_gives_up_the_first_table():
    walk = made_up_fresh(will_return=None)
    assert walk.state.reentry == {}
    assert sorted(walk.table(2).playing) == ["Deb", "Flo", "Hes", "Ian"]
    assert walk.mentions("signifies no intention of returning, and gives up table 1")
    # Going back, he claims like any candidate: no prior right.
    walk("change_table", player="Flo", table=1)
    assert not walk.mentions("with the prior right")


def test_ruling_t8_cutting_into_any_other_table_gives_up_the_right_of_reentry():
    walk = made_up_fresh(will_return=True)
    walk("leave", table=2, player="Flo")
    assert walk.state.reentry == {"Flo": 1}  # a candidate again, still with his right
    walk("claim", player="Flo", table=2)  # he cuts into table 2, not table 1
    assert "Flo" in walk.table(2).members
    assert walk.state.reentry == {}


def test_ruling_t8_returning_his_place_at_the_new_table_is_filled():
    walk = made_up_fresh(will_return=True)
    walk.arrive("Jon")
    walk("claim", player="Jon", table=2)  # waits for table 2's first rubber
    walk("change_table", player="Flo", table=1)
    assert walk.mentions("Flo returns to table 1 under a right of re-entry")
    assert "Jon" in walk.table(2).playing  # the first claimant takes Flo's place
    assert walk.table(1).claims == ["Flo"]


# -- T9: breaking up ----------------------------------------------------------------------------


def test_ruling_t9_its_players_have_first_claim_on_places_at_other_tables():
    walk = two_tables(EUCHRE)
    walk.arrive("Ivy")
    walk("claim", player="Ivy", table=1)  # an ordinary claim, made first
    walk("break_up", table=2, broken_by="Hal")
    # Table 1 has four members and one claim: two places, for three players (not Hal).
    assert walk.must_cut(None) == ["Eve", "Fay", "Gus"]
    walk("cut", cards={"Eve": "JS", "Fay": "7H", "Gus": "AD"})  # Euchre: the highest win
    assert walk.state.prior_right == ["Eve", "Gus"]
    assert walk.mentions("law 21 / ruling T9")
    walk("claim", player="Gus", table=1)
    assert walk.table(1).claims == ["Gus", "Ivy"]  # before the ordinary claim


def test_ruling_t9_at_bridge_the_lowest_win_the_places():
    walk = two_tables(BRIDGE)
    walk("break_up", table=2, broken_by="Hal")
    walk("cut", cards={"Eve": "KS", "Fay": "2H", "Gus": "AD"})
    assert walk.state.prior_right == ["Gus", "Fay"]
    assert walk.mentions("Bridge laws, Rights of Entry / ruling T9")


def test_ruling_t9_enough_places_no_cut_and_the_breaker_has_no_prior_right():
    walk = two_tables(EUCHRE)
    walk("leave", table=1, player="Dan")  # table 1: three members, three places
    walk("break_up", table=2, broken_by="Hal")
    assert not any(cut.purpose == "break-up" for cut in walk.state.pending)
    assert walk.state.prior_right == ["Eve", "Fay", "Gus"]


# -- T11: ties that decide nothing ------------------------------------------------------------


def test_ruling_t11_a_tie_of_the_two_lowest_is_not_cut_again():
    walk = four_at_table()
    walk("cut", cards={"Ann": "JS", "Bob": "AH", "Cat": "9H", "Dan": "9S"})
    table = walk.table(1)
    assert table.in_rubber and table.dealer == "Ann"
    assert walk.mentions("laws 13-14 / ruling T11: Cat and Dan cut equal cards (9H, 9S)")


def test_ruling_t11_a_tie_of_the_two_highest_is_cut_again_for_the_deal_alone_and_recorded():
    walk = four_at_table()
    walk("cut", cards={"Ann": "JS", "Bob": "JH", "Cat": "9H", "Dan": "8S"})
    assert walk.must_cut(1) == ["Ann", "Bob"]
    assert walk.mentions("only for the deal", "ruling T11")
    walk("cut", cards={"Bob": "KD", "Ann": "10C"})
    table = walk.table(1)
    assert table.dealer == "Bob"
    # The partners did not change: Ann and Bob against Cat and Dan.
    assert {table.seats["N"], table.seats["S"]} == {"Ann", "Bob"}
    assert walk.mentions("ruling T10: cards cut for partners and deal at table 1: Bob KD, Ann 10C")


def test_ruling_t11_a_tie_across_the_partners_is_cut_again():
    walk = four_at_table()
    walk("cut", cards={"Ann": "JS", "Bob": "9H", "Cat": "9D", "Dan": "8S"})
    assert walk.must_cut(1) == ["Bob", "Cat"]


# -- T12: the dealer's choice, and a player who exposes more than one card ---------------------


def test_ruling_t12_without_a_choice_the_dealer_sits_north_his_partner_south():
    walk = four_at_table()
    walk("cut", cards={"Ann": "JS", "Bob": "AH", "Cat": "9H", "Dan": "8S"})
    assert walk.table(1).seats == {"N": "Ann", "E": "Cat", "S": "Bob", "W": "Dan"}


def test_ruling_t12_the_secretary_records_the_dealers_choice_and_he_abides_by_it():
    walk = four_at_table()
    walk("cut", cards={"Ann": "JS", "Bob": "AH", "Cat": "9H", "Dan": "8S"})
    walk("dealer_choice", table=1, seat="E", cards="the red pack", counters="the ivory set")
    table = walk.table(1)
    assert table.seats == {"N": "Dan", "E": "Ann", "S": "Cat", "W": "Bob"}
    assert table.dealer == "Ann"
    assert table.choice == {"seat": "E", "cards": "the red pack", "counters": "the ivory set"}
    assert walk.mentions("law 11 / ruling T12: Ann, the dealer, chooses a seat")
    error = walk.refused("dealer_choice", table=1, seat="S")
    assert error.law == "law 11 / ruling T12"
    assert "abide" in error.message
    assert walk.replays_to_same_state()


def test_ruling_t12_choice_refused_before_the_deal_is_cut_and_counters_only_at_euchre():
    walk = four_at_table()
    assert "no dealer yet" in walk.refused("dealer_choice", table=1, seat="E").message
    bridge = four_at_table(BRIDGE)
    bridge("cut", cards={"Ann": "AH", "Bob": "2H", "Cat": "9H", "Dan": "8S"})
    error = bridge.refused("dealer_choice", table=1, seat="W", counters="ivory")
    assert error.law == "Bridge laws, Forming Tables / ruling T12"
    assert error.field == "counters"
    assert bridge.refused("dealer_choice", table=1, seat="X").field == "seat"


def test_ruling_t12_a_player_who_exposes_more_than_one_card_cuts_again_and_they_are_recorded():
    walk = four_at_table()
    walk(
        "cut",
        cards={"Ann": "JS", "Bob": "AH", "Cat": "9H", "Dan": "8S"},
        exposed={"Cat": ["JH", "JD"]},
    )
    # Cat's card is that of his new cut, 9H, not the knaves he exposed.
    assert walk.table(1).dealer == "Ann"
    assert walk.mentions("law 10 / ruling T12: Cat exposed more than one card (JH, JD) and cut")


def test_ruling_t12_exposing_is_more_than_one_card_by_a_cutter():
    walk = four_at_table()
    cards = {"Ann": "JS", "Bob": "AH", "Cat": "9H", "Dan": "8S"}
    error = walk.refused("cut", cards=cards, exposed={"Cat": ["JH"]})
    assert (error.law, error.field) == ("law 10 / ruling T12", "exposed.Cat")
    error = walk.refused("cut", cards=cards, exposed={"Zed": ["JH", "JD"]})
    assert error.field == "exposed.Zed"
    error = walk.refused("cut", cards=cards, exposed={"Cat": ["JH", "2H"]})
    assert error.field == "exposed.Cat[1]"  # no two in the Euchre pack


# -- T13: announcing (Bridge) -------------------------------------------------------------------


def test_ruling_t13_the_first_to_announce_has_the_first_vacancy():
    walk = bridge_table_of_six()
    walk.arrive("Hes")
    walk("announce", player="Hes", table=1)  # Deb, first in the room, does not announce
    assert walk.mentions("Bridge laws, Forming Tables / ruling T13: Hes announces")
    walk("leave", table=1, player="Guy")  # a waiting member retires
    table = walk.table(1)
    assert "Hes" in table.waiting and "Deb" not in table.members
    assert table.announced == []
    assert walk.mentions("Hes, the first to announce")


def test_ruling_t13_two_announce_the_first_succeeds_the_second_waits():
    walk = bridge_table_of_six()
    walk.arrive("Hes")
    walk("announce", player="Hes", table=1)
    walk("announce", player="Deb", table=1)
    walk("leave", table=1, player="Eli")
    assert "Hes" in walk.table(1).members
    assert walk.table(1).announced == ["Deb"]


def test_ruling_t13_announcing_only_at_a_full_bridge_table():
    walk = four_at_table(BRIDGE)
    walk.arrive("Eve")
    error = walk.refused("announce", player="Eve", table=1)
    assert (error.law, error.field) == ("Bridge laws, Forming Tables / ruling T13", "table")
    euchre = four_at_table(EUCHRE)
    euchre.arrive("Eve")
    assert euchre.refused("announce", player="Eve", table=1).law == "ruling T13"


def test_ruling_t13_an_announcement_lapses_when_its_maker_leaves_the_room():
    walk = bridge_table_of_six()
    walk("announce", player="Deb", table=1)
    walk("depart", player="Deb")
    assert walk.table(1).announced == []
    assert walk.replays_to_same_state()


# -- T14: Call-Ace tables -----------------------------------------------------------------------


def test_ruling_t14_seven_with_precedence_play_and_four_of_the_rest_form_another_table():
    walk = Walk(CALL_ACE)
    players = ["Abe", "Bea", "Cy", "Di", "Ed", "Flo", "Gil", "Hy", "Ida", "Jo", "Kit"]
    walk.arrive(*players)
    walk("form_table")
    assert walk.table(1).playing == players[:7]
    assert walk.mentions("law 1 / ruling T14")
    assert walk.state.candidates == players[7:]
    assert any(item["kind"] == "form_table" for item in required(walk.state))
    walk("form_table")
    assert walk.table(2).playing == players[7:]


def test_ruling_t14_three_of_the_rest_cannot_form_a_table():
    walk = Walk(CALL_ACE)
    walk.arrive("Abe", "Bea", "Cy", "Di", "Ed", "Flo", "Gil", "Hy", "Ida", "Jo")
    walk("form_table")
    error = walk.refused("form_table")
    assert error.law == "law 1 / ruling T14"
    assert "a table needs four" in error.message
