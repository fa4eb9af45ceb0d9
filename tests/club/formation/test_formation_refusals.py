"""Illegal events raise FormationError naming the law, and leave the state as it was; and the
timing of claims (law 16) in the cases that are allowed."""

from __future__ import annotations

import pytest

from club.formation import BRIDGE, EUCHRE, FormationError, apply, new_evening
from tests.club.formation.formation_walk import Walk


def four_at_a_table(rule_set: str = EUCHRE) -> Walk:
    """Ann, Bob, Cat, Dan at table 1, rubber 1 under way (Euchre: Ann and Bob highest)."""
    walk = Walk(rule_set)
    walk.arrive("Ann", "Bob", "Cat", "Dan")
    walk("form_table")
    if rule_set == EUCHRE:
        walk("cut", cards={"Ann": "JS", "Bob": "AS", "Cat": "KS", "Dan": "QS"})
    else:
        walk("cut", cards={"Ann": "AS", "Bob": "2S", "Cat": "3S", "Dan": "4S"})
    return walk


def test_law_11_four_candidates_form_a_table_without_cutting_for_places():
    walk = Walk(EUCHRE)
    walk.arrive("Ann", "Bob", "Cat", "Dan")
    walk("form_table")
    assert walk.table(1).playing == ["Ann", "Bob", "Cat", "Dan"]
    assert walk.pending(1).purpose == "partners-and-deal"


def test_law_11_a_table_needs_four_candidates():
    walk = Walk(EUCHRE)
    walk.arrive("Ann", "Bob", "Cat")
    error = walk.refused("form_table")
    assert error.law == "law 11 / ruling T3"


def test_cut_cards_must_be_exactly_those_of_the_players_who_must_cut():
    walk = Walk(EUCHRE)
    walk.arrive("Ann", "Bob", "Cat", "Dan")
    walk("form_table")
    error = walk.refused("cut", cards={"Ann": "JS", "Bob": "AS", "Cat": "KS"})
    assert error.law == "law 11 / ruling T4"
    assert error.field == "cards.Dan"  # the card missing, by its field
    assert "no card is written for Dan, who must cut for partners and deal too" in error.message
    walk.arrive("Eve")
    error = walk.refused(
        "cut", cards={"Ann": "JS", "Bob": "AS", "Cat": "KS", "Dan": "QS", "Eve": "7S"}
    )
    assert error.field == "cards.Eve"
    assert "Eve does not cut for partners and deal: only Ann, Bob, Cat and Dan do" in (
        error.message
    )


def test_a_cut_with_a_bad_card_and_blanks_names_every_problem_at_once():
    """One card that is no card and the others left blank: the refusal names the bad card
    in words (ruling T1) and the cards missing, each by its field, not only the blanks
    (law 11 / ruling T4: the four cut for partners and deal)."""
    walk = Walk(EUCHRE)
    walk.arrive("Ann", "Bob", "Cat", "Dan")
    walk("form_table")
    error = walk.refused("cut", cards={"Ann": "ZZ"})
    assert error.law == "law 11 / ruling T4"
    assert error.message == (
        "law 11 / ruling T4: Ann's card 'ZZ' is not a card: write its rank then its suit, as "
        "J♠ or JS (ruling T1); no card is written for Bob, Cat and Dan, who must cut for "
        "partners and deal too"
    )
    assert error.field == "cards.Ann"
    assert list(error.fields) == ["cards.Ann", "cards.Bob", "cards.Cat", "cards.Dan"]
    assert error.fields["cards.Ann"][0].startswith("ruling T1: Ann's card 'ZZ' is not a card")
    assert error.details == {"fields": error.fields}
    # Two bad cards, all four given: both named (law 8: no six in the Euchre pack).
    error = walk.refused("cut", cards={"Ann": "ZZ", "Bob": "6S", "Cat": "KS", "Dan": "QS"})
    assert "Ann's card 'ZZ' is not a card" in error.message
    assert "Bob's 6S is not in the 32-card Euchre pack (law 8" in error.message
    assert list(error.fields) == ["cards.Ann", "cards.Bob"]


def test_law_9_two_players_cannot_cut_the_same_card():
    walk = Walk(EUCHRE)
    walk.arrive("Ann", "Bob", "Cat", "Dan")
    walk("form_table")
    error = walk.refused("cut", cards={"Ann": "JS", "Bob": "js", "Cat": "KS", "Dan": "QS"})
    assert error.law == "law 9 / ruling T10"
    assert error.field == "cards.Bob"


def test_law_8_the_euchre_pack_has_no_card_below_the_seven():
    walk = Walk(EUCHRE)
    walk.arrive("Ann", "Bob", "Cat", "Dan")
    walk("form_table")
    error = walk.refused("cut", cards={"Ann": "JS", "Bob": "6S", "Cat": "KS", "Dan": "QS"})
    assert error.law == "law 8 / ruling T1"
    assert "32-card Euchre pack" in error.message


def test_ruling_t1_a_card_is_written_rank_then_suit():
    walk = Walk(EUCHRE)
    walk.arrive("Ann", "Bob", "Cat", "Dan")
    walk("form_table")
    error = walk.refused("cut", cards={"Ann": "SJ", "Bob": "AS", "Cat": "KS", "Dan": "QS"})
    assert error.law == "ruling T1"
    assert error.field == "cards.Ann"


def test_law_16_claim_after_the_partners_cut_began_is_too_late():
    walk = Walk(EUCHRE)
    walk.arrive("Ann", "Bob", "Cat", "Dan", "Eve")
    walk("form_table")
    walk("cut", cards={"Ann": "JS", "Bob": "AS", "Cat": "KS", "Dan": "QS", "Eve": "7S"})
    walk("cut", cards={"Ann": "JH", "Bob": "JD", "Cat": "KS", "Dan": "QS"})  # Ann, Bob tie
    walk.arrive("Fay")
    error = walk.refused("claim", player="Fay", table=1)
    assert error.law == "law 16"


def test_law_16_claim_after_the_rubber_but_before_any_card_is_cut_is_in_time():
    walk = four_at_a_table()
    walk("rubber_end", table=1)
    assert walk.pending(1).purpose == "partners-and-deal"
    walk.arrive("Eve")
    walk("claim", player="Eve", table=1)
    # Settled at once: all four have played one rubber, so they cut for the one place.
    assert walk.pending(1).purpose == "cut-out"
    assert walk.must_cut(1) == ["Ann", "Bob", "Cat", "Dan"]
    walk("cut", cards={"Ann": "JS", "Bob": "AS", "Cat": "KS", "Dan": "7S"})
    assert walk.table(1).waiting == ["Dan"]
    assert sorted(walk.table(1).playing) == ["Ann", "Bob", "Cat", "Eve"]


def test_law_16_a_second_claim_before_the_cut_out_is_cut_counts_too():
    walk = four_at_a_table()
    walk.arrive("Eve", "Fay")
    walk("claim", player="Eve", table=1)
    walk("rubber_end", table=1)
    assert walk.pending(1).purpose == "cut-out"
    walk("claim", player="Fay", table=1)
    cut = walk.pending(1)
    assert cut.context["entrants"] == ["Eve", "Fay"]
    walk("cut", cards={"Ann": "JS", "Bob": "AS", "Cat": "7S", "Dan": "8S"})
    assert walk.table(1).waiting == ["Cat", "Dan"]


def test_a_claim_at_a_fresh_table_waits_for_the_end_of_its_first_rubber():
    walk = Walk(EUCHRE)
    walk.arrive("Ann", "Bob", "Cat", "Dan")
    walk("form_table")
    walk.arrive("Eve")
    walk("claim", player="Eve", table=1)
    assert walk.mentions("the claim is settled at the end of the table's first rubber")
    assert walk.pending(1).purpose == "partners-and-deal"
    assert walk.table(1).claims == ["Eve"]


def test_ruling_t2_a_claimant_waits_for_his_table_and_is_not_cut_for_a_fresh_one():
    walk = four_at_a_table()
    walk.arrive("Eve", "Fay", "Gus", "Hal")
    walk("claim", player="Eve", table=1)
    error = walk.refused("form_table")
    assert error.law == "law 11 / ruling T3"
    assert "3 candidates" in error.message
    walk("withdraw", player="Eve")
    walk("form_table")
    assert walk.table(2).playing == ["Eve", "Fay", "Gus", "Hal"]


def test_law_20_a_player_at_one_table_cannot_claim_at_another():
    walk = four_at_a_table()
    walk.arrive("Eve", "Fay", "Gus", "Hal")
    walk("form_table")
    error = walk.refused("claim", player="Ann", table=2)
    assert error.law == "law 20 / ruling T8"
    # In words, not the log's key "(change_table)".
    assert "to play at another, Ann changes tables and gives up the place at table 1" in (
        error.message
    )


def test_law_18_a_player_may_not_leave_a_rubber_in_progress_without_a_substitute():
    walk = four_at_a_table()
    error = walk.refused("leave", table=1, player="Ann")
    assert error.law == "law 18 / ruling T6"


def test_law_18_a_substitute_cannot_belong_to_another_table():
    walk = four_at_a_table()
    walk.arrive("Eve", "Fay", "Gus", "Hal")
    walk("form_table")
    error = walk.refused(
        "substitute", table=1, player="Ann", substitute="Eve", consent=["Bob", "Cat", "Dan"]
    )
    assert error.law == "law 20 / ruling T8"
    assert error.field == "substitute"


def test_law_18_a_substitute_sits_in_only_during_a_rubber():
    walk = Walk(EUCHRE)
    walk.arrive("Ann", "Bob", "Cat", "Dan", "Eve")
    walk("form_table")
    walk("cut", cards={"Ann": "JS", "Bob": "AS", "Cat": "KS", "Dan": "QS", "Eve": "7S"})
    error = walk.refused(
        "substitute", table=1, player="Ann", substitute="Eve", consent=["Bob", "Cat", "Dan"]
    )
    assert error.law == "law 18 / ruling T6"


def test_rubber_end_needs_a_rubber_in_progress():
    walk = Walk(EUCHRE)
    walk.arrive("Ann", "Bob", "Cat", "Dan")
    walk("form_table")
    error = walk.refused("rubber_end", table=1)
    assert error.law == "law 1 / ruling T4"
    assert "no rubber in progress" in error.message


def test_law_20_at_euchre_the_right_of_reentry_is_not_kept():
    walk = four_at_a_table()
    walk.arrive("Eve", "Fay", "Gus")
    walk("rubber_end", table=1)
    error = walk.refused("change_table", player="Ann", table="new")
    assert error.law == "law 20 / ruling T8"
    assert "only the Bridge laws" in error.message


def test_law_20_cutting_into_another_table_gives_up_the_first():
    walk = four_at_a_table()
    walk.arrive("Eve", "Fay", "Gus", "Hal", "Ivy")
    walk("form_table")
    walk("cut", cards={"Eve": "JS", "Fay": "AS", "Gus": "KS", "Hal": "QS", "Ivy": "7S"})
    walk("rubber_end", table=1)
    walk("cut", cards={"Ann": "JS", "Bob": "AS", "Cat": "KS", "Dan": "QS"})
    walk("change_table", player="Ivy", table=1)
    assert "Ivy" not in walk.table(2).members
    assert walk.table(1).claims == ["Ivy"]
    assert walk.mentions("Ivy cuts into table 1 while belonging to table 2: Ivy loses the right")


def test_a_refused_change_of_table_leaves_the_player_where_he_was():
    walk = four_at_a_table()
    walk.arrive("Eve", "Fay", "Gus", "Hal", "Ivy")
    walk("form_table")
    walk("cut", cards={"Eve": "JS", "Fay": "AS", "Gus": "KS", "Hal": "QS", "Ivy": "7S"})
    walk("rubber_end", table=1)
    walk("cut", cards={"Ann": "JH", "Bob": "JD", "Cat": "KS", "Dan": "QS"})  # cut began
    error = walk.refused("change_table", player="Ivy", table=1)
    assert error.law == "law 16"
    assert "Ivy" in walk.table(2).members


def test_the_cut_out_is_finished_before_a_member_leaves():
    walk = four_at_a_table()
    walk.arrive("Eve")
    walk("claim", player="Eve", table=1)
    walk("rubber_end", table=1)
    error = walk.refused("leave", table=1, player="Ann")
    assert error.law == "law 15 / ruling T5"
    error = walk.refused("depart", player="Eve")
    assert error.field == "player"


def test_a_member_leaves_the_table_before_he_leaves_the_room():
    walk = four_at_a_table()
    error = walk.refused("depart", player="Ann")
    assert error.law == "law 19 / ruling T7"


def test_arrivals_and_malformed_events():
    walk = Walk(EUCHRE)
    walk.arrive("Ann")
    assert walk.refused("arrive", player="Ann").law == "ruling T2"
    assert walk.refused("arrive").field == "player"
    assert walk.refused("claim", player="Ann", table=9).field == "table"
    assert walk.refused("shuffle").field == "type"
    with pytest.raises(FormationError):
        apply(walk.state, ["arrive"])  # type: ignore[arg-type]
    with pytest.raises(FormationError) as caught:
        new_evening("whist")
    assert caught.value.field == "rule_set"


def test_events_owned_by_the_db_layer_pass_through():
    walk = four_at_a_table()
    before = walk.state.to_dict()
    for kind in ("hand", "correction", "close", "reopen"):
        assert walk(kind, table=1) == []
    after = walk.state.to_dict()
    assert after.pop("events_applied") == before.pop("events_applied") + 4
    assert after == before


def test_bridge_cuts_never_tie_and_never_cut_again():
    walk = four_at_a_table(BRIDGE)
    assert walk.table(1).dealer == "Ann"
    assert walk.table(1).seats == {"N": "Ann", "E": "Cat", "S": "Bob", "W": "Dan"}


def test_law_21_prior_right_displacing_a_claim_counted_in_a_cut_out_not_yet_cut():
    walk = four_at_a_table()
    walk.arrive("Eve", "Fay", "Gus", "Hal")
    walk("form_table")
    walk("cut", cards={"Eve": "JS", "Fay": "AS", "Gus": "KS", "Hal": "QS"})  # table 2
    walk.arrive("Ivy", "Jay")
    walk("claim", player="Ivy", table=1)
    walk("claim", player="Jay", table=1)
    walk("rubber_end", table=1)
    assert walk.pending(1).context["entrants"] == ["Ivy", "Jay"]
    walk("rubber_end", table=2)
    walk("leave", table=2, player="Hal")
    walk("break_up", table=2, broken_by="Gus")
    assert walk.state.prior_right == ["Eve", "Fay"]
    walk("claim", player="Eve", table=1)
    # Jay's claim gives way (law 21); the cut-out, not yet cut, is counted again.
    assert walk.table(1).claims == ["Eve", "Ivy"]
    assert walk.pending(1).context["entrants"] == ["Eve", "Ivy"]
    walk("cut", cards={"Ann": "JS", "Bob": "AS", "Cat": "8S", "Dan": "7S"})
    table = walk.table(1)
    assert sorted(table.playing) == ["Ann", "Bob", "Eve", "Ivy"]
    assert table.waiting == ["Dan", "Cat"]
    assert "Jay" in walk.state.candidates


def test_an_entry_of_no_known_type_is_refused_in_words():
    """The engine names what an entry of the log may be in words, never by the log's keys
    (it listed "announce, arrive, break_up, change_table, ..."): a backup's log or a
    replayed file reaches it."""
    state = new_evening(EUCHRE)
    with pytest.raises(FormationError) as refused:
        apply(state, {"type": "fly"})
    said = refused.value.message
    assert said.startswith(
        "'fly' is not an action of the evening's log: an entry of the log is an arrival, a "
        "departure from the room, forming a table, a cut, "
    )
    assert said.endswith("closing the evening or reopening it (docs/evening-log.md)")
    assert "form_table" not in said and "hand_removed" not in said
    assert refused.value.field == "type"
