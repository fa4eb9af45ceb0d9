"""The board's buttons for players coming and going cite the evening's own laws, in
Debian's chromium at a phone's width and a laptop's: on a Call-Ace evening "Leaves the
table" and "Break up the table" cited Euchre's laws 19 and 21, which in Foster's Call-Ace
are laws on calling for a partner (law 19) and on a call once made (law 21). Each button
now cites what the service cites when it acts on it (law 1, ruling T9). Screenshots in
artifacts/screenshots/callace-board-laws-*.png."""

import re

import pytest

from tests.browser import PHONE, log_in, settled, shot
from tests.worlds import bridge_and_call_ace_in_play, club_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 900}


@pytest.fixture
def call_ace(django_capture_on_commit_callbacks):
    """A Call-Ace table of five, one deal recorded."""
    played = club_in_play(django_capture_on_commit_callbacks)
    return bridge_and_call_ace_in_play(played.club).call_ace


def cited(text: str) -> str:
    """The law in a button's closing brackets: "Leaves the table (law 1)" -> "law 1"."""
    return re.search(r"\(([^()]*)\)\s*$", text.strip()).group(1)


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_coming_and_going_cites_the_call_ace_laws(browser_page, live_server, call_ace, size):
    page = browser_page
    page.set_viewport_size(size)
    page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/evenings/{call_ace.evening_id}/")
    page.locator("#comings-1 summary").click()
    leave = page.locator("#comings-1").get_by_role("button", name="Leaves the table")
    law = cited(leave.inner_text())
    shot(page, f"callace-board-laws-{size['width']}")
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    leave.click()
    settled(page)
    # What the laws made of it, as the board shows it: "law 1 / ruling C5 / law 3: Ann
    # leaves ..." (the sitting in play ends with her leaving, and she dealt first).
    made = page.locator(".alert.ok").inner_text()
    assert re.match(rf"{re.escape(law)}( / [^:]+)?: ", made), (law, made)
    assert "the sitting in play there is closed and settled as it stood" in made
    page.locator("#comings-1").evaluate("details => { details.open = true; }")
    break_up = page.locator("#comings-1").get_by_role("button", name="Break up the table")
    law = cited(break_up.inner_text())
    break_up.click()
    settled(page)
    made = page.locator(".alert.ok").inner_text()
    assert any(line.startswith(f"{law}: ") for line in made.splitlines()), (law, made)
