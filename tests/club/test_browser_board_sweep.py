"""The board as a secretary meets it in Debian's chromium, at a laptop's and a phone's
width: typing in a form while the board's live update arrives keeps the text, the focus
and the selection. Screenshots in artifacts/screenshots/board-sweep-*.png."""

import pytest

from club import evenings
from tests.browser import polled, settled, shot
from tests.club.test_browser_board_live import BOARD_POLL_MS, open_board, open_evening

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1280, 360])
def test_a_live_update_keeps_the_text_the_focus_and_the_selection(
    browser_page, live_server, club, secretary, width
):
    evening = open_evening(club)
    page = browser_page
    page.set_viewport_size({"width": width, "height": 900})
    page.clock.install()  # the board's own clock: its poll is run forward, not waited for
    open_board(page, live_server, evening)
    field = page.locator("#arrive-player")
    field.click()
    page.keyboard.type("Zebedee Smith")
    # He selects "Smith" to type over it, and the board moves on meanwhile.
    page.evaluate("document.getElementById('arrive-player').setSelectionRange(8, 13)")
    evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": "Walt"})
    polled(page, f"/secretary/evenings/{evening.pk}/board/", run_for=BOARD_POLL_MS)
    page.wait_for_selector("#board .chip:text-is('Walt')")
    settled(page)
    assert field.input_value() == "Zebedee Smith"
    assert page.evaluate("document.activeElement.id") == "arrive-player"
    assert page.evaluate(
        "[document.activeElement.selectionStart, document.activeElement.selectionEnd]"
    ) == [8, 13]
    page.keyboard.type("Jones")  # typed over the selection, as he meant
    assert field.input_value() == "Zebedee Jones"
    shot(page, f"board-sweep-selection-{width}")
