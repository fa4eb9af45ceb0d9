"""A card refused on the secretary's board, in Debian's chromium at a phone's width
(360 px): the refusal names whose card and which box, says how a card is written by its
suit's symbol or its letter (ruling T1), and shows a card not in the pack by its suit
(law 8), never the log's codes ("'JS'", "6S"). Screenshot in
artifacts/screenshots/card-refusals-*.png."""

import re

import pytest

from tests.browser import PHONE, shot
from tests.club.test_browser_board_live import board_shown, click, open_evening
from tests.worlds import table_formed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 900}
WIDTH = "document.documentElement.scrollWidth"
CODE = re.compile(r"\b(10|[2-9JQKA])[SHDC]\b")


def test_a_bad_cut_card_and_a_card_not_in_the_pack_are_refused_in_words(
    browser_page, live_server, club, secretary
):
    """Ruling T1: a card is written rank then suit; law 8: the Euchre pack is seven to ace;
    law 11 / ruling T4: the four cut for partners and deal."""
    evening = open_evening(club)
    table_formed(evening)
    page = browser_page
    board_shown(page, live_server, evening)
    for name, card in {"Ann": "J♠", "Bob": "a♥", "Cora": "ZZ", "Dan": "6♠"}.items():
        page.get_by_label(f"Card cut by {name}").fill(card)
    click(page, "enter-cut")
    said = " ".join(page.locator("#board .alert.error").inner_text().split())
    assert (
        "Cora's card 'ZZ' is not a card: write its rank then its suit, as J♠ or JS (ruling T1)"
        in said
    ), said
    assert "Dan's 6♠ is not in the 32-card Euchre pack (law 8 / ruling T1)" in said, said
    assert not CODE.search(said.replace("J♠ or JS", "")), said  # the key's letter only
    assert page.get_by_label("Card cut by Cora").get_attribute("aria-invalid") == "true"
    assert page.get_by_label("Card cut by Dan").get_attribute("aria-invalid") == "true"
    shot(page, "card-refusals-cut")
    page.set_viewport_size(LAPTOP)  # and on the laptop the board is usually run from
    assert page.locator("#board .alert.error").inner_text() and page.evaluate(WIDTH) <= 1280
    shot(page, "card-refusals-cut-1280")
    page.set_viewport_size(PHONE)

    # The cards a player exposed (law 10 / ruling T12), refused by his name and that box.
    page.get_by_label("Card cut by Cora").fill("K♦")
    page.get_by_label("Card cut by Dan").fill("Q♣")
    page.locator("details.exposed summary").first.click()
    page.get_by_label("Cards exposed by Dan").fill("J♥ X♥")
    click(page, "enter-cut")
    said = " ".join(page.locator("#board .alert.error").inner_text().split())
    # Quoted as typed ('X♥'), not as the service reads a card ('XH').
    assert "Dan's exposed card 'X♥' is not a card: write its rank then its suit, as J♠ or JS" in (
        said
    ), said
    shot(page, "card-refusals-exposed")
