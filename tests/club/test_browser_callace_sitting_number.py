"""A Call-Ace table's sitting is named by its number on the secretary's board and the
room display, in Debian's chromium at a phone's width and a laptop's. A player who leaves
or joins mid-sitting ends it and begins another (law 1, ruling C5); the board's table card
and the room display counted only sittings the laws of forming tables call rubbers, and
said "Sitting 1" of the third sitting while the closing dialog, the sittings list and the
log said 3. Screenshots in artifacts/screenshots/callace-sitting-number-*.png."""

import re

import pytest

from club import evenings
from tests.browser import PHONE, log_in, shot
from tests.worlds import bridge_and_call_ace_in_play, club_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 900}


@pytest.fixture
def third_sitting(django_capture_on_commit_callbacks):
    """A Call-Ace table of five, one deal recorded; one of them leaves (sitting 1 ends), a
    sixth player arrives and claims a place (sitting 2 ends): sitting 3 is in play."""
    played = club_in_play(django_capture_on_commit_callbacks)
    world = bridge_and_call_ace_in_play(played.club)
    evening = world.call_ace.evening
    act = lambda **event: evenings.evening_act(evening_id=evening.pk, event=event)  # noqa: E731
    act(type="leave", table=1, player=world.call_ace_order[-1])
    act(type="arrive", player="Frank")
    act(type="claim", table=1, player="Frank")
    return evening


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_sitting_in_play_is_named_by_its_number(browser_page, live_server, third_sitting, size):
    page = browser_page
    page.set_viewport_size(size)
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/evenings/{third_sitting.pk}/")
    # The sittings table lists every sitting of the table; the one in play is the last.
    sittings = page.locator("td[data-label=Table]").filter(has_text=re.compile(r"^\s*1\s*$"))
    number = sittings.count()
    assert number == 3
    card = page.locator("#table-1 .score")
    assert card.inner_text().startswith(f"Sitting {number},"), card.inner_text()
    # The closing dialog names the same sitting by the same number.
    assert page.get_by_text(f"Table 1, sitting {number}").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    shot(page, f"callace-sitting-number-board-{size['width']}")
    page.goto(
        f"{live_server.url}/clubs/{third_sitting.club.slug}/evenings/{third_sitting.pk}/room/"
    )
    table = page.locator(".room-table").filter(has_text="Table 1")
    assert f"Sitting {number}" in table.inner_text()
    assert "Sitting 1" not in table.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    shot(page, f"callace-sitting-number-room-{size['width']}")


def test_the_score_sheet_is_headed_with_the_sittings_number(
    browser_page, live_server, third_sitting
):
    """The sitting's score sheet, opened from the board, is headed with the number the
    board gives it, not the database's number for it (which counted every rubber and
    sitting of every evening of the club)."""
    page = browser_page
    page.set_viewport_size(PHONE)
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/evenings/{third_sitting.pk}/")
    named = page.locator("#table-1 .score").inner_text().split(",")[0]  # "Sitting 3"
    page.locator("#table-1 .score").get_by_role("link", name="score sheet").click()
    heading = page.locator("h1")
    assert heading.inner_text().startswith(f"{named}: Call-Ace"), heading.inner_text()
    assert page.title().startswith(f"{named} ·")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "callace-sitting-number-sheet-360")
