"""Cutting (rulings T1, T4, T10): who wins the cut, ties cut again, partners by the cut."""

import random

import pytest

from tournaments.movements import MovementError
from tournaments.movements.cutting import (
    BRIDGE_PACK,
    EUCHRE_PACK,
    cut_for_partners,
    cut_order,
    pack_for,
)


class StackedPack(random.Random):
    """A random source that deals the cards named, in order, instead of shuffling: each
    shuffle puts the next list of cards on top of the pack."""

    def __init__(self, *tops: list[str]) -> None:
        super().__init__(0)
        self.tops = list(tops)

    def shuffle(self, deck):  # type: ignore[override]
        top = self.tops.pop(0)
        rest = [card for card in deck if card not in top]
        deck[:] = top + rest


def test_euchre_knave_beats_ace_and_seven_is_lowest():
    order, cuts = cut_order(
        ["ann", "bob", "cora"],
        pack=EUCHRE_PACK,
        rng=StackedPack(["7H", "JC", "AS"]),
        purpose="tables",
    )
    assert order == ["bob", "cora", "ann"]
    assert [cut.cards for cut in cuts] == [("7H",), ("JC",), ("AS",)]


def test_euchre_equal_cards_cut_again():
    order, cuts = cut_order(
        ["ann", "bob", "cora"],
        pack=EUCHRE_PACK,
        rng=StackedPack(["KH", "KS", "9D"], ["8C", "QD"]),
        purpose="tables",
    )
    assert order == ["bob", "ann", "cora"]
    assert {cut.player: cut.cards for cut in cuts} == {
        "ann": ("KH", "8C"),
        "bob": ("KS", "QD"),
        "cora": ("9D",),
    }


def test_bridge_lowest_wins_ace_low_and_suits_break_ties():
    order, _ = cut_order(
        ["ann", "bob", "cora", "dan"],
        pack=BRIDGE_PACK,
        rng=StackedPack(["KS", "AS", "2H", "2C"]),
        purpose="tables",
    )
    # Ace lowest; of the twos hearts rank below clubs (hearts, diamonds, clubs, spades).
    assert order == ["bob", "cora", "dan", "ann"]


def test_more_players_than_cards_cut_from_packs_shuffled_together():
    many = [f"p{number}" for number in range(70)]
    order, cuts = cut_order(many, pack=EUCHRE_PACK, rng=random.Random(5), purpose="tables")
    assert sorted(order) == sorted(many)
    assert len(cuts) == 70


def test_partners_by_the_cut_best_two_against_the_others_best_deals_north():
    table, cuts = cut_for_partners(
        3,
        ["ann", "bob", "cora", "dan"],
        pack=EUCHRE_PACK,
        rng=StackedPack(["9H", "AC", "JD", "7S"]),
    )
    assert table.seats == {"N": "cora", "S": "bob", "E": "ann", "W": "dan"}
    assert {cut.purpose for cut in cuts} == {"partners at table 3"}


def test_call_ace_has_no_partners_to_cut_for():
    with pytest.raises(MovementError, match="not played in partnerships"):
        pack_for("call-ace-foster-1905")
