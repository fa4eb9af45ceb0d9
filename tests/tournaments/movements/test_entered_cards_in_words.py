"""The director's cards cut (ruling T10) refused in the words of every card refusal
(club.formation.cards): whose card, that it is no card and how one is written (ruling T1),
or that it is not in the game's pack, the card shown by its suit's symbol (law 8)."""

import pytest

from tournaments.movements import CardsError, EnteredCards
from tournaments.movements.cutting import BRIDGE_PACK, EUCHRE_PACK

PLAYERS = ["Ann", "Bob", "Cora", "Dan"]


def refused(cards: dict, pack=EUCHRE_PACK) -> str:
    with pytest.raises(CardsError) as caught:
        EnteredCards(cards, pack=pack, players=PLAYERS)
    return str(caught.value)


def test_ruling_t1_a_card_that_is_no_card_names_the_player_and_how_to_write_one():
    assert refused({"Ann": ["JS"], "Bob": ["ZZ"]}) == (
        "Bob's card 'ZZ' is not a card: write its rank then its suit, as J♠ or JS (ruling T1)"
    )


def test_law_8_a_card_not_in_the_euchre_pack_is_shown_by_its_suit():
    assert (
        refused({"Ann": ["6S"]}) == "Ann's 6♠ is not in the 32-card Euchre pack (law 8 / ruling T1)"
    )
    assert refused({"Ann": ["1S"]}, BRIDGE_PACK).startswith("Ann's card '1S' is not a card")


def test_ruling_t10_two_players_cannot_cut_one_card_shown_by_its_suit():
    entered = EnteredCards({"Ann": ["QH"], "Bob": ["qh"]}, pack=EUCHRE_PACK, players=PLAYERS)
    with pytest.raises(CardsError) as caught:
        entered.take(["Ann", "Bob"], "tables")
    assert (
        str(caught.value)
        == "Ann and Bob cannot both have cut Q♥ for tables: the cut is from one pack"
    )
