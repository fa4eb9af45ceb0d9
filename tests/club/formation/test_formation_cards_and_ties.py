"""Cards, cutting orders (ruling T1), drawing a cut (T10) and which ties are cut again (laws
13-14, ruling T4)."""

from __future__ import annotations

import random

import pytest

from club.formation import BRIDGE, CALL_ACE, EUCHRE, FormationError, draw_cut, pack_for, parse_card
from club.formation.cards import Card, call_ace_pack, precedence, throw_for_jack
from club.formation.ranking import flatten, group, refine, undecided


def test_cards_are_written_rank_then_suit():
    assert parse_card("JS") == Card("J", "S")
    assert parse_card("10h") == Card("10", "H")
    assert str(parse_card(" ad ")) == "AD"
    for bad in ("S10", "1H", "JX", "", None, "11S"):
        with pytest.raises(FormationError) as caught:
            parse_card(bad)
        assert caught.value.law == "ruling T1"


def test_pack_sizes_laws_8_and_2():
    assert len(pack_for(EUCHRE)) == 32
    assert len(pack_for(BRIDGE)) == 52
    assert [len(call_ace_pack(n)) for n in (4, 5, 6, 7)] == [24, 28, 32, 36]
    assert Card("8", "S") not in call_ace_pack(4)
    assert Card("8", "S") in call_ace_pack(5)


def test_law_8_euchre_knave_is_highest_then_ace_and_suits_do_not_count():
    order = ["JS", "AH", "KD", "QC", "10S", "9H", "8D", "7C"]
    strengths = [precedence(parse_card(card), EUCHRE) for card in order]
    assert strengths == sorted(strengths, reverse=True)
    assert precedence(parse_card("JS"), EUCHRE) == precedence(parse_card("JH"), EUCHRE)


def test_ruling_t1_bridge_ace_lowest_and_hearts_lowest_between_equal_ranks():
    def bridge_rank(card: str) -> int:
        # Bridge favours the lowest card, so a higher cutting value is a weaker claim.
        return -precedence(parse_card(card), BRIDGE)

    cuts = ["AH", "AD", "AC", "AS", "2H", "10S", "JH", "KS"]
    assert [bridge_rank(c) for c in cuts] == sorted(bridge_rank(c) for c in cuts)
    assert len({bridge_rank(str(card)) for card in pack_for(BRIDGE)}) == 52


def test_ruling_t10_draw_cut_draws_distinct_cards_from_the_games_pack():
    players = [f"P{i}" for i in range(12)]
    cards = draw_cut(players, random.Random(7), rule_set=EUCHRE)
    assert list(cards) == players
    assert len(set(cards.values())) == 12
    assert all(parse_card(card) in pack_for(EUCHRE) for card in cards.values())
    assert draw_cut(players, random.Random(7), rule_set=EUCHRE) == cards
    many = draw_cut([f"P{i}" for i in range(40)], random.Random(1), rule_set=BRIDGE)
    assert len(set(many.values())) == 40


def test_law_1_throwing_for_the_first_jack_stops_at_the_jack():
    throws = throw_for_jack(["A", "B", "C", "D"], random.Random(3))
    assert [player for player, _ in throws] == [
        ["A", "B", "C", "D"][i % 4] for i in range(len(throws))
    ]
    assert parse_card(throws[-1][1]).rank == "J"
    assert all(parse_card(card).rank != "J" for _, card in throws[:-1])
    assert all(parse_card(card) in pack_for(CALL_ACE, players=4) for _, card in throws)


# Partners and deal: boundaries 1 (the deal) and 2 (partners), ruling T4.
PARTNERS = [1, 2]


def cut_for_partners(cards: dict[str, str]) -> list[list[str]]:
    strength = {p: precedence(parse_card(c), EUCHRE) for p, c in cards.items()}
    return undecided(refine([list(cards)], strength), PARTNERS)


def test_law_13_two_lowest_equal_are_not_cut_again():
    assert cut_for_partners({"A": "JS", "B": "AS", "C": "9H", "D": "9D"}) == []


def test_law_13_equal_cards_across_the_partnership_are_cut_again():
    assert cut_for_partners({"A": "JS", "B": "KS", "C": "KH", "D": "9D"}) == [["B", "C"]]


def test_ruling_t4_two_highest_equal_cut_again_only_for_the_deal():
    assert cut_for_partners({"A": "JS", "B": "JH", "C": "9H", "D": "8D"}) == [["A", "B"]]


def test_law_14_three_equal_with_the_fourth_highest_or_lowest_cut_again():
    assert cut_for_partners({"A": "JS", "B": "9S", "C": "9H", "D": "9D"}) == [["B", "C", "D"]]
    assert cut_for_partners({"A": "AS", "B": "AH", "C": "AD", "D": "7D"}) == [["A", "B", "C"]]


def test_law_14_the_new_cut_decides_partners_and_deal():
    # Fourth card highest: the two lowest of the new cut are partners against the fourth and
    # the highest of the new cut; the fourth deals.
    tiers = refine([["A", "B", "C", "D"]], {"A": 7, "B": 3, "C": 3, "D": 3})
    tiers = refine(tiers, {"B": 1, "C": 5, "D": 2})
    assert undecided(tiers, PARTNERS) == []
    assert flatten(tiers) == ["A", "C", "D", "B"]


def test_four_equal_cards_all_cut_again():
    assert cut_for_partners({"A": "JS", "B": "JH", "C": "JD", "D": "JC"}) == [["A", "B", "C", "D"]]


def test_group_keeps_the_given_order_within_equal_keys():
    assert group(["a", "b", "c", "d"], {"a": 2, "b": 1, "c": 2, "d": 1}.get) == [
        ["b", "d"],
        ["a", "c"],
    ]
