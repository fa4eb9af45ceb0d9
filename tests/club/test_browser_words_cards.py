"""Cards on the secretary's board, in Debian's chromium at a phone's width (360 px): the
board and the evening's history showed them as the log's codes ("Ann QH, Bob JC"), the
cut boxes gave no key to how a card is written, and "Q♥" or "3♣" typed was refused. A
card typed by its suit's symbol, in either case, is read as the laws' card and kept in
the log as its code; people read it as "Q♥". Screenshots in
artifacts/screenshots/words-cards-*.png."""

import re

import pytest

from club import evenings
from club.models import EveningEvent
from tests.browser import settled, shot
from tests.club.test_browser_board_live import board_shown, click, open_evening
from tests.worlds import table_formed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CODE = re.compile(r"\b(10|[2-9JQKA])[SHDC]\b")


def test_cards_typed_with_suit_symbols_are_cut_and_read_in_symbols(
    browser_page, live_server, club, secretary
):
    """Ruling T4: the two highest cuts play against the two lowest, the highest deals
    (law 8: knave, ace, king, queen)."""
    evening = open_evening(club)
    table_formed(evening)
    page = browser_page
    board_shown(page, live_server, evening)
    key = page.get_by_test_id("card-key").inner_text()
    assert "♠" in key and "rank then suit" in key
    typed = {"Ann": "J♠", "Bob": "a♥", "Cora": "k♦", "Dan": "Q♣"}
    for name, card in typed.items():
        page.get_by_label(f"Card cut by {name}").fill(card)
    click(page, "enter-cut")
    assert page.locator("#board .alert.error").count() == 0
    # The log keeps the code (the log's JSON, the API).
    cut = EveningEvent.objects.get(evening=evening, type="cut")
    assert cut.data["cards"] == {"Ann": "JS", "Bob": "AH", "Cora": "KD", "Dan": "QC"}
    # People read the cards by their suits' symbols, never the code.
    board = page.locator("#board").inner_text()
    assert "Ann J♠" in board and "Dan Q♣" in board
    history = page.get_by_test_id("history")
    history.locator("details summary").first.click()
    said = history.inner_text()
    assert "J♠" in said
    assert not CODE.search(said), said
    assert not CODE.search(page.locator("#board .alert.ok").inner_text())
    shot(page, "words-cards-cut")


def test_a_call_ace_throw_typed_with_symbols_finds_the_first_jack(
    browser_page, live_server, club, secretary
):
    """Call-Ace law 1: a card is thrown round face up to each, the first jack deals."""
    evening = evenings.evening_open(
        club=club, date="1905-11-21", ruleset="call-ace-foster-1905", stake=1
    )
    table_formed(evening)
    page = browser_page
    board_shown(page, live_server, evening)
    page.fill("#throws-1", "Ann 9♠, Bob j♦")
    with page.expect_response(lambda r: r.url.endswith("/action/")):
        page.get_by_role("button", name="Enter the throws").click()
    settled(page)
    assert page.locator("#board .alert.error").count() == 0
    throw = EveningEvent.objects.get(evening=evening, type="deal_jack")
    assert throw.data["cards"] == [["Ann", "9S"], ["Bob", "JD"]]
    said = page.get_by_test_id("history").inner_text()
    assert "Ann 9♠, Bob J♦" in said and not CODE.search(said)
    shot(page, "words-cards-throw")
