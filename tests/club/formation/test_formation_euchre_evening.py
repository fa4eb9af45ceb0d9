"""A whole Euchre evening (Somerset laws 8-21, rulings T1-T9), each decision checked by hand.

Cutting order (law 8): knave, ace, king, queen, ten, nine, eight, seven; suits do not count.
The stages build on each other: every test replays the evening up to its stage.
"""

from __future__ import annotations

from club.formation import EUCHRE, required
from tests.club.formation.formation_walk import Walk


def table_formed() -> Walk:
    """Seven candidates cut; Dan and Eve tie across the fourth place and cut again."""
    walk = Walk(EUCHRE)
    walk.arrive("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus")
    walk("form_table")
    walk(
        "cut",
        cards={
            "Ann": "JS",
            "Bob": "JH",
            "Cat": "AD",
            "Dan": "KS",
            "Eve": "KH",
            "Fay": "QH",
            "Gus": "9C",
        },
    )
    walk("cut", cards={"Dan": "10C", "Eve": "7H"})
    return walk


def test_ruling_t3_all_seven_candidates_cut_to_form_a_table():
    walk = Walk(EUCHRE)
    walk.arrive("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus")
    walk("form_table")
    assert walk.must_cut() == ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


def test_law_13_only_the_tie_across_the_fourth_place_is_cut_again():
    walk = Walk(EUCHRE)
    walk.arrive("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus")
    walk("form_table")
    walk(
        "cut",
        cards={
            "Ann": "JS",
            "Bob": "JH",
            "Cat": "AD",
            "Dan": "KS",
            "Eve": "KH",
            "Fay": "QH",
            "Gus": "9C",
        },
    )
    # Ann and Bob's knaves tie too, but both play whichever is higher.
    assert walk.must_cut() == ["Dan", "Eve"]
    assert walk.mentions("law 13 / ruling T3: Dan and Eve cut equal cards (KS, KH)")
    assert walk.mentions("Ann and Bob cut equal cards (JS, JH), but the tie decides nothing")
    assert walk.state.tables == []


def test_law_12_fifth_and_sixth_belong_to_the_table_as_waiting_members():
    walk = table_formed()
    table = walk.table(1)
    assert table.playing == ["Ann", "Bob", "Cat", "Dan"]
    assert table.waiting == ["Eve", "Fay"]
    assert walk.state.candidates == ["Gus"]
    assert walk.mentions("Gus remains a candidate")


def test_ruling_t4_partners_cut_follows_the_forming_of_the_table():
    walk = table_formed()
    assert walk.must_cut(1) == ["Ann", "Bob", "Cat", "Dan"]
    assert required(walk.state)[0] == {
        "kind": "cut",
        "cut_id": "table-1",
        "purpose": "partners-and-deal",
        "table": 1,
        "players": ["Ann", "Bob", "Cat", "Dan"],
        "round": 1,
        "law": "law 11 / ruling T4",
        "text": "Ann, Bob, Cat and Dan cut for partners and deal (table 1)",
    }


def first_rubber() -> Walk:
    """Ann and Bob tie highest: partners are settled, they cut again for the deal (T4)."""
    walk = table_formed()
    walk("cut", cards={"Ann": "QH", "Bob": "QD", "Cat": "9S", "Dan": "8C"})
    walk("cut", cards={"Ann": "7S", "Bob": "AC"})
    return walk


def test_ruling_t4_tie_of_the_two_highest_is_cut_again_only_for_the_deal():
    walk = table_formed()
    walk("cut", cards={"Ann": "QH", "Bob": "QD", "Cat": "9S", "Dan": "8C"})
    assert walk.must_cut(1) == ["Ann", "Bob"]
    assert walk.mentions("a tie of the two highest is cut again only for the deal")
    # What the board asks next says the same, not "cut for partners and deal again".
    assert required(walk.state)[0]["text"] == (
        "Ann and Bob cut again for the deal (table 1): the partners stand"
    )
    walk("cut", cards={"Ann": "7S", "Bob": "AC"})
    table = walk.table(1)
    assert table.dealer == "Bob"
    assert table.seats == {"N": "Bob", "E": "Cat", "S": "Ann", "W": "Dan"}
    assert table.in_rubber
    assert walk.mentions("law 11 / ruling T4: Bob and Ann cut highest and play against Cat and Dan")


def test_law_12_a_seventh_member_is_refused_at_a_full_table():
    walk = first_rubber()
    error = walk.refused("claim", player="Gus", table=1)
    assert error.law == "law 12 / ruling T3"
    assert error.field == "table"
    assert "seventh" in error.message


def second_rubber() -> Walk:
    """All four have played one rubber: they cut, the two lowest go out (law 15)."""
    walk = first_rubber()
    walk.arrive("Hal")
    walk("rubber_end", table=1)
    walk("cut", cards={"Ann": "KS", "Bob": "KH", "Cat": "9D", "Dan": "9C"})
    walk("cut", cards={"Ann": "8H", "Bob": "9H", "Eve": "JC", "Fay": "10D"})
    return walk


def test_law_15_when_all_have_played_the_same_number_they_cut_lowest_going_out():
    walk = first_rubber()
    walk("rubber_end", table=1)
    assert walk.consecutive(1) == {"Ann": 1, "Bob": 1, "Cat": 1, "Dan": 1, "Eve": 0, "Fay": 0}
    assert walk.must_cut(1) == ["Ann", "Bob", "Cat", "Dan"]
    assert walk.pending(1).purpose == "cut-out"
    walk("cut", cards={"Ann": "KS", "Bob": "KH", "Cat": "9D", "Dan": "9C"})
    # Cat and Dan tie lowest: both go out either way, so no second cut (law 13).
    table = walk.table(1)
    assert sorted(table.playing) == ["Ann", "Bob", "Eve", "Fay"]
    assert table.waiting == ["Cat", "Dan"]
    assert walk.consecutive(1)["Cat"] == 0
    assert walk.mentions("law 15 / ruling T5: Cat has played 1 consecutive rubber and cut lowest")
    assert walk.must_cut(1) == ["Ann", "Bob", "Eve", "Fay"]


def test_law_16_claim_after_the_cut_for_cutting_out_is_too_late():
    walk = first_rubber()
    walk("rubber_end", table=1)
    walk("cut", cards={"Ann": "KS", "Bob": "KH", "Cat": "9D", "Dan": "9C"})
    walk.arrive("Hal")
    error = walk.refused("claim", player="Hal", table=1)
    assert error.law == "law 16"
    assert "began to cut" in error.message


def test_law_15_the_two_who_played_most_go_out_without_cutting():
    walk = second_rubber()
    assert walk.table(1).dealer == "Eve"
    walk("rubber_end", table=1)
    assert walk.mentions(
        "rubber 2 at table 1 ends; consecutive rubbers: Eve 1, Bob 2, Fay 1, Ann 2"
    )
    # No cut: going out, Ann and Bob start counting consecutive rubbers afresh.
    assert walk.pending(1).purpose == "partners-and-deal"
    assert walk.consecutive(1) == {"Ann": 0, "Bob": 0, "Cat": 0, "Dan": 0, "Eve": 1, "Fay": 1}
    table = walk.table(1)
    assert sorted(table.playing) == ["Cat", "Dan", "Eve", "Fay"]
    assert table.waiting == ["Ann", "Bob"]
    assert walk.mentions("law 15 / ruling T5: Ann has played 2 consecutive rubbers, goes out")


def third_rubber() -> Walk:
    walk = second_rubber()
    walk("rubber_end", table=1)
    walk("cut", cards={"Cat": "AS", "Dan": "AH", "Eve": "AD", "Fay": "7C"})
    walk("cut", cards={"Cat": "KC", "Dan": "QS", "Eve": "8D"})
    return walk


def test_law_14_three_equal_highest_cut_again_the_two_highest_of_the_new_cut_deal():
    walk = second_rubber()
    walk("rubber_end", table=1)
    walk("cut", cards={"Cat": "AS", "Dan": "AH", "Eve": "AD", "Fay": "7C"})
    assert walk.must_cut(1) == ["Cat", "Dan", "Eve"]
    assert walk.mentions("law 14 / ruling T4: Cat, Dan and Eve cut equal cards (AS, AH, AD)")
    walk("cut", cards={"Cat": "KC", "Dan": "QS", "Eve": "8D"})
    table = walk.table(1)
    assert table.seats == {"N": "Cat", "E": "Eve", "S": "Dan", "W": "Fay"}
    assert table.dealer == "Cat"


def fourth_rubber() -> Walk:
    """Cat quits the third rubber; Gus sits in for her (law 18)."""
    walk = third_rubber()
    walk("substitute", table=1, player="Cat", substitute="Gus", consent=["Dan", "Eve", "Fay"])
    walk("rubber_end", table=1)
    walk("cut", cards={"Ann": "JD", "Bob": "10S", "Cat": "9H", "Dan": "7S"})
    return walk


def test_law_18_substitute_needs_the_consent_of_the_other_three():
    walk = third_rubber()
    error = walk.refused(
        "substitute", table=1, player="Cat", substitute="Gus", consent=["Dan", "Eve"]
    )
    assert error.law == "law 18 / ruling T6"
    assert error.field == "consent"
    # In words, whose consent is missing (it said "'consent' must name exactly them").
    assert str(error).endswith(": the consent of Fay is not given")


def test_ruling_t6_the_substitutes_rubber_is_booked_to_the_absent_player():
    walk = third_rubber()
    walk("substitute", table=1, player="Cat", substitute="Gus", consent=["Dan", "Eve", "Fay"])
    assert walk.table(1).substitutes == {"Cat": "Gus"}
    assert "Gus" not in walk.state.candidates
    # Law 17: at Euchre, one who has played at a table has lost his prior right.
    assert "Gus" in walk.state.belonged
    walk("rubber_end", table=1)
    assert walk.mentions("the rubber is booked to Cat although Gus played it")
    assert walk.consecutive(1) == {"Ann": 0, "Bob": 0, "Cat": 1, "Dan": 1, "Eve": 0, "Fay": 0}
    assert walk.table(1).members["Cat"].rubbers == 2
    assert "Gus" not in walk.table(1).members
    assert walk.table(1).substitutes == {}
    assert walk.state.candidates == ["Gus", "Hal"]
    # Eve and Fay had played two; Ann and Bob, waiting, come in.
    assert walk.table(1).waiting == ["Eve", "Fay"]


def fifth_rubber_table() -> Walk:
    walk = fourth_rubber()
    walk("rubber_end", table=1)
    walk("cut", cards={"Ann": "9S", "Bob": "8S", "Eve": "KD", "Fay": "QC"})
    walk("rubber_end", table=1)
    return walk


def test_full_table_of_six_every_player_gets_his_two_consecutive_rubbers():
    walk = fourth_rubber()
    walk("rubber_end", table=1)
    # Rubbers 3 and 4 for Cat and Dan (Cat's third booked to her): out after two.
    assert walk.table(1).waiting == ["Cat", "Dan"]
    walk("cut", cards={"Ann": "9S", "Bob": "8S", "Eve": "KD", "Fay": "QC"})
    walk("rubber_end", table=1)
    # Rubbers 4 and 5 for Ann and Bob: out after two.
    assert walk.table(1).waiting == ["Ann", "Bob"]
    assert walk.mentions("Ann has played 2 consecutive rubbers", "Bob has played 2")


def sixth_rubber() -> Walk:
    """Eve leaves after one of her two rubbers; Gus takes her place for one rubber (law 19)."""
    walk = fifth_rubber_table()
    walk("leave", table=1, player="Eve")
    walk("cut", cards={"Fay": "AS", "Cat": "KS", "Dan": "QS", "Gus": "10S"})
    return walk


def test_law_19_candidate_next_in_order_takes_the_place_for_one_rubber():
    walk = fifth_rubber_table()
    assert walk.consecutive(1)["Eve"] == 1
    walk("leave", table=1, player="Eve")
    table = walk.table(1)
    assert sorted(table.playing) == ["Cat", "Dan", "Fay", "Gus"]
    assert table.members["Gus"].one_rubber
    assert walk.state.candidates == ["Eve", "Hal"]
    assert walk.mentions(
        "law 19 / ruling T7: Gus, the candidate next in order, takes Eve's place at table 1, "
        "and goes out at the end of one rubber"
    )
    assert walk.must_cut(1) == ["Cat", "Dan", "Fay", "Gus"]


def test_law_19_the_replacement_goes_out_as_his_predecessor_would_have():
    walk = sixth_rubber()
    walk("rubber_end", table=1)
    assert walk.consecutive(1) == {"Ann": 0, "Bob": 0, "Cat": 1, "Dan": 1, "Fay": 0, "Gus": 0}
    table = walk.table(1)
    # Gus goes out by law 19 and Fay, who played two, by law 15: no cut is needed.
    assert table.waiting == ["Gus", "Fay"]
    assert sorted(table.playing) == ["Ann", "Bob", "Cat", "Dan"]
    assert not table.members["Gus"].one_rubber
    assert walk.mentions("Gus took a place under law 19 and goes out at the end of one rubber")
    assert walk.pending(1).purpose == "partners-and-deal"


def second_table() -> Walk:
    walk = sixth_rubber()
    walk("rubber_end", table=1)
    walk("cut", cards={"Ann": "JH", "Bob": "10C", "Cat": "9C", "Dan": "8D"})
    walk.arrive("Ivy", "Jay", "Kit")
    walk("form_table")
    walk(
        "cut",
        cards={"Eve": "JS", "Hal": "7H", "Ivy": "8H", "Jay": "9H", "Kit": "7D"},
    )
    return walk


def test_law_17_fresh_candidates_have_the_prior_right_at_a_fresh_table():
    walk = second_table()
    table = walk.table(2)
    # Eve cut the knave, but she has belonged to table 1 this evening.
    assert sorted(table.playing) == ["Hal", "Ivy", "Jay", "Kit"]
    assert table.waiting == ["Eve"]
    assert walk.mentions(
        "ranking before the others whatever their cards (law 17 / ruling T3); Eve is fifth"
    )
    assert walk.mentions("Hal and Kit cut equal cards (7H, 7D), but the tie decides nothing")


def broken_up() -> Walk:
    walk = second_table()
    walk("cut", cards={"Hal": "AH", "Ivy": "KH", "Jay": "QH", "Kit": "10H"})
    walk("leave", table=1, player="Fay")
    walk("depart", player="Fay")
    walk("break_up", table=2, broken_by="Kit")
    return walk


def test_law_21_players_of_a_broken_up_table_cut_for_too_few_places():
    walk = broken_up()
    assert walk.state.table(2) is None
    assert walk.must_cut() == ["Eve", "Hal", "Ivy", "Jay"]
    assert walk.pending().purpose == "break-up"
    assert walk.mentions("the rubber in progress at table 2 is not finished")
    walk("cut", cards={"Eve": "9C", "Hal": "AC", "Ivy": "AD", "Jay": "7C"})
    assert walk.must_cut() == ["Hal", "Ivy"]
    walk("cut", cards={"Hal": "KC", "Ivy": "QC"})
    assert walk.state.prior_right == ["Hal"]
    assert walk.mentions("law 21 / ruling T9: Hal cuts highest and has the prior right")


def test_law_21_prior_right_goes_before_the_one_who_broke_up_the_table():
    walk = broken_up()
    walk("cut", cards={"Eve": "9C", "Hal": "AC", "Ivy": "AD", "Jay": "7C"})
    walk("cut", cards={"Hal": "KC", "Ivy": "QC"})
    walk("claim", player="Kit", table=1)
    assert walk.table(1).claims == ["Kit"]
    walk("claim", player="Hal", table=1)
    assert walk.table(1).claims == ["Hal"]
    assert walk.mentions("Kit's claim at table 1 gives way to Hal, who has the prior right")
    walk("rubber_end", table=1)
    # Gus, waiting, and Hal enter; Ann and Bob (1 each) stay, Cat and Dan (2 each) go out.
    table = walk.table(1)
    assert sorted(table.playing) == ["Ann", "Bob", "Gus", "Hal"]
    assert table.waiting == ["Cat", "Dan"]
    assert walk.state.prior_right == []
    assert walk.replays_to_same_state()


def test_the_whole_evening_replays_to_the_same_state():
    walk = broken_up()
    assert walk.replays_to_same_state()
    assert [d.event for d in walk.state.decisions] == sorted(d.event for d in walk.state.decisions)
    assert walk.state.events_applied == len(walk.log)
