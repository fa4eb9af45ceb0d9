"""A card as a person types it and reads it (club.formation.cards): its suit's symbol or
letter after the rank, either case, is the service's code ("QH"), and every card of the
packs reads back by its symbol and is read again as itself (ruling T1)."""

from __future__ import annotations

import pytest

from club.formation.cards import (
    HOW_WRITTEN,
    SUIT_SYMBOLS,
    bridge_pack,
    card_typed,
    cards_shown,
    parse_card,
)


@pytest.mark.parametrize("card", bridge_pack(), ids=str)
def test_every_card_shown_by_its_symbol_is_typed_back_as_itself(card):
    shown = cards_shown(str(card))
    assert shown == f"{card.rank}{SUIT_SYMBOLS[card.suit]}"
    assert parse_card(card_typed(shown)) == card
    assert parse_card(card_typed(shown.lower())) == card


def test_a_sentence_shows_its_cards_and_leaves_its_words():
    said = cards_shown("Ann QH, Bob 10C (ruling T4); AS high. JACKS and QHS are words")
    assert said == "Ann Q♥, Bob 10♣ (ruling T4); A♠ high. JACKS and QHS are words"


def test_the_words_saying_how_a_card_is_written_keep_its_letter():
    """Ruling T1: a card may be written by its suit's symbol or its letter, and a refusal
    shown in symbols still says both."""
    said = cards_shown("ruling T1: Ann's card 'ZZ' is not a card: " + HOW_WRITTEN + "; Bob 6S")
    assert said.endswith("write its rank then its suit, as J♠ or JS; Bob 6♠")


def test_an_example_of_a_card_typed_by_letter_keeps_it_and_a_real_card_does_not():
    """Ruling T1: "J♠ or JS, 10♥ or 10H" says both ways of typing a card; a code after "or"
    that is not the card just named by its symbol is a card of the sentence."""
    said = cards_shown("rank then suit (e.g. J♠ or JS, 10♥ or 10H); Ann QH or JS, KS or KS")
    assert said == "rank then suit (e.g. J♠ or JS, 10♥ or 10H); Ann Q♥ or J♠, K♠ or K♠"
