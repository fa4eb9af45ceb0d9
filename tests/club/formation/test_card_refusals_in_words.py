"""A card that is no card is refused in the words people read cards in (club.formation.cards):
whose card it is and in which box (the cut, the cards exposed, the throw for the first
jack), and how to write one, by its suit's symbol or its letter (ruling T1). The old words
named no player outside the cut and showed only the log's codes ("e.g. 'JS'")."""

from __future__ import annotations

from club.formation import CALL_ACE, EUCHRE
from tests.club.formation.formation_walk import Walk

HOW = "is not a card: write its rank then its suit, as J♠ or JS"


def four_to_cut() -> Walk:
    walk = Walk(EUCHRE)
    walk.arrive("Ann", "Bob", "Cat", "Dan")
    walk("form_table")
    return walk


def test_ruling_t1_a_cut_card_that_is_no_card_names_the_player():
    walk = four_to_cut()
    error = walk.refused("cut", cards={"Ann": "JS", "Bob": "AS", "Cat": "KS", "Dan": "ZZ"})
    assert error.message == f"ruling T1: Dan's card 'ZZ' {HOW}"
    assert (error.law, error.field) == ("ruling T1", "cards.Dan")


def test_ruling_t12_an_exposed_card_that_is_no_card_names_the_player_and_the_box():
    """Law 10 / ruling T12: a player who exposed more than one card cuts again; the cards he
    exposed are recorded with the cut."""
    walk = four_to_cut()
    error = walk.refused(
        "cut",
        cards={"Ann": "JS", "Bob": "AS", "Cat": "KS", "Dan": "QS"},
        exposed={"Dan": ["JH", "ZZ"]},
    )
    assert error.message == f"ruling T1: Dan's exposed card 'ZZ' {HOW}"
    assert (error.law, error.field) == ("ruling T1", "exposed.Dan[1]")


def test_call_ace_law_1_a_thrown_card_that_is_no_card_names_the_player_it_went_to():
    walk = Walk(CALL_ACE)
    walk.arrive("Abe", "Bea", "Cy", "Di")
    walk("form_table")
    error = walk.refused("deal_jack", table=1, cards=[["Abe", "9H"], ["Bea", "ZZ"]])
    assert error.message == f"ruling T1: Bea's thrown card 'ZZ' {HOW}"
    assert (error.law, error.field) == ("ruling T1", "cards[1]")
