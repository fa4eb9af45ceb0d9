"""A Call-Ace evening (Foster 1905, laws 1-2; rulings T1-T3, T9).

Four to seven play, each for himself; seats are not cut: a card is thrown round face up and
the first jack deals (law 1). The pack has 24, 28, 32 or 36 cards for four to seven (law 2).
"""

from __future__ import annotations

from club.formation import CALL_ACE, required
from tests.club.formation.formation_walk import Walk

SEVEN = ["Abe", "Bea", "Cy", "Di", "Ed", "Fi", "Gil"]


def table_formed() -> Walk:
    walk = Walk(CALL_ACE)
    walk.arrive(*SEVEN, "Hy", "Ivo")
    walk("form_table")
    return walk


def test_law_1_seven_at_most_play_first_in_the_room_first_and_seats_are_not_cut():
    walk = table_formed()
    assert walk.table(1).playing == SEVEN
    assert walk.state.candidates == ["Hy", "Ivo"]
    assert walk.mentions("seats are not cut; seven at most play, so Hy and Ivo remain candidates")
    assert required(walk.state)[0]["kind"] == "deal_jack"
    assert required(walk.state)[0]["players"] == SEVEN


def dealing() -> Walk:
    walk = table_formed()
    walk("deal_jack", table=1, cards=[["Abe", "6H"], ["Bea", "10S"], ["Cy", "AH"], ["Di", "JC"]])
    return walk


def test_law_1_the_first_jack_deals():
    walk = dealing()
    assert walk.table(1).dealer == "Di"
    assert walk.state.pending == []
    assert walk.mentions("Di receives the first jack and deals the first hand")


def test_law_2_the_six_is_in_the_pack_for_seven_but_not_the_five():
    walk = table_formed()
    error = walk.refused("deal_jack", table=1, cards=[["Abe", "5H"], ["Bea", "JC"]])
    assert error.law == "law 2 / ruling T1"
    assert error.field == "cards[0]"


def test_law_1_the_throw_stops_at_the_first_jack():
    walk = table_formed()
    error = walk.refused("deal_jack", table=1, cards=[["Abe", "JH"], ["Bea", "JS"]])
    assert error.law == "law 1 / ruling T1"
    assert "Abe received the first jack" in error.message
    error = walk.refused("deal_jack", table=1, cards=[["Abe", "9H"], ["Bea", "10S"]])
    assert "until a jack falls" in error.message


def test_law_1_the_cards_go_round_in_turn():
    walk = table_formed()
    error = walk.refused("deal_jack", table=1, cards=[["Bea", "9H"], ["Di", "JS"]])
    assert error.law == "law 1 / ruling T1"
    assert "card 2 goes to Cy, not Di" in error.message


def test_the_throw_may_begin_anywhere_and_goes_round_past_the_last_seat():
    walk = table_formed()
    walk("deal_jack", table=1, cards=[["Gil", "9H"], ["Abe", "JS"]])
    assert walk.table(1).dealer == "Abe"


def test_law_1_an_eighth_player_is_refused():
    walk = dealing()
    error = walk.refused("claim", player="Hy", table=1)
    assert error.law == "law 1 / ruling T14"
    assert "seven" in error.message


def test_ruling_c5_call_ace_has_no_rubbers_and_no_substitutes():
    walk = dealing()
    assert walk.refused("rubber_end", table=1).law == "ruling C5"
    error = walk.refused("substitute", table=1, player="Abe", substitute="Hy", consent=[])
    assert error.law == "ruling T6"


def test_a_player_joins_a_table_of_six_at_once_and_the_dealer_stands():
    walk = dealing()
    walk("leave", table=1, player="Cy")
    walk("claim", player="Hy", table=1)
    table = walk.table(1)
    assert table.playing == ["Abe", "Bea", "Di", "Ed", "Fi", "Gil", "Hy"]
    assert table.dealer == "Di"
    assert walk.state.pending == []


def second_table() -> Walk:
    walk = dealing()
    walk("leave", table=1, player="Cy")
    walk("claim", player="Hy", table=1)
    walk.arrive("Jo", "Kay")
    walk("form_table")
    return walk


def test_ruling_t3_fresh_candidates_first_at_call_ace_too():
    walk = second_table()
    # Cy has belonged to table 1 (law 17 as ruling T3 reads it): he comes last.
    assert walk.table(2).playing == ["Ivo", "Jo", "Kay", "Cy"]
    error = walk.refused("deal_jack", table=2, cards=[["Jo", "8C"], ["Kay", "JD"]])
    assert "not in the 24-card pack for 4 players" in error.message
    walk("deal_jack", table=2, cards=[["Jo", "QS"], ["Kay", "KD"], ["Cy", "JH"]])
    assert walk.table(2).dealer == "Cy"


def test_a_call_ace_table_below_four_waits_for_players():
    walk = second_table()
    walk("leave", table=2, player="Kay")
    assert walk.state.cut_at(2) is None
    seat = next(item for item in required(walk.state) if item["kind"] == "seat")
    assert (seat["table"], seat["places"]) == (2, 1)
    walk("claim", player="Kay", table=2)
    assert walk.pending(2).purpose == "first-jack"


def test_ruling_t9_call_ace_cuts_no_cards_so_the_first_in_the_room_has_the_place():
    walk = second_table()
    walk("deal_jack", table=2, cards=[["Jo", "QS"], ["Kay", "KD"], ["Cy", "JH"]])
    walk("leave", table=1, player="Abe")
    walk("break_up", table=2)
    assert walk.state.pending == []
    assert walk.state.prior_right == ["Cy"]
    assert walk.mentions("1 place for 4: the first in the room, Cy, has the prior right")
    walk("claim", player="Cy", table=1)
    assert "Cy" in walk.table(1).playing
    assert walk.state.prior_right == []
    assert walk.replays_to_same_state()


def test_ruling_c5_a_player_leaving_ends_the_sitting_in_play_in_words():
    # Law 1: a player leaves at once; a sitting is played by the same players throughout
    # (ruling C5), so the one in play ends, settled as it stood, as an arrival ends it.
    walk = dealing()
    said = walk("leave", table=1, player="Abe")
    assert said == [
        "law 1 / ruling C5: Abe leaves the Call-Ace table 1: the sitting in play there is "
        "closed and settled as it stood; a new sitting begins with the players still there"
    ]
    assert walk.table(1).dealer == "Di"  # the first dealer stays


def test_law_3_the_first_dealer_leaving_passes_the_deal_to_his_left():
    walk = dealing()  # Di dealt; Ed sits on her left (the order round the table)
    said = walk("leave", table=1, player="Di")
    assert walk.table(1).dealer == "Ed"
    assert said[0].startswith("law 1 / ruling C5 / law 3: Di leaves the Call-Ace table 1")
    assert said[0].endswith("Ed, on Di's left, deals first")
    walk("leave", table=1, player="Gil")
    walk("leave", table=1, player="Fi")
    walk("leave", table=1, player="Ed")  # the last in the order: his left is the first
    assert walk.table(1).dealer == "Abe"
    assert walk.replays_to_same_state()


def test_a_player_leaving_a_table_with_no_sitting_in_play_ends_nothing():
    walk = table_formed()  # no jack thrown yet: no sitting is in play
    assert walk("leave", table=1, player="Abe") == ["law 1: Abe leaves the Call-Ace table 1"]
    walk = second_table()
    walk("deal_jack", table=2, cards=[["Jo", "QS"], ["Kay", "KD"], ["Cy", "JH"]])
    said = walk("leave", table=2, player="Kay")  # three remain: no new sitting
    assert said[0] == (
        "law 1 / ruling C5: Kay leaves the Call-Ace table 2: the sitting in play there is "
        "closed and settled as it stood"
    )
    assert "Call-Ace needs four to seven" in said[1]
