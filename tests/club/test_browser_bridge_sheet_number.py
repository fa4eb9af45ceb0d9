"""A Bridge rubber's score sheet, opened from the evening's board, is headed with the
rubber's number at its table (as the board, the closing dialog and the log name it),
in Debian's chromium at a phone's width and a laptop's. It was headed with the
database's number for the rubber ("Rubber 10" of an evening's second rubber), which
counts every rubber and sitting of the club. Screenshots in
artifacts/screenshots/bridge-sheet-number-*.png."""

import pytest

from club import evenings, recording
from tests.browser import PHONE, log_in, shot
from tests.worlds import bridge_and_call_ace_in_play, club_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 900}


@pytest.fixture
def second_rubber(django_capture_on_commit_callbacks):
    """A Bridge table whose first rubber is won in two hands (N-S two games at no trumps,
    ruling B2) and whose four have cut again: its second rubber is in play. Other rubbers
    of the club (a Euchre evening's, a Call-Ace sitting) were started before it."""
    played = club_in_play(django_capture_on_commit_callbacks)
    table = bridge_and_call_ace_in_play(played.club).bridge
    evening = table.evening
    win = {"trump": "NT", "tricks": {"NS": 10, "EW": 3}}
    for declarer in ["EW", "NS"]:  # hands 2 and 3: the dealer's side declares
        data = {**win, "declarer": declarer}
        recording.hand_record(evening_id=evening.pk, table_number=1, data=data)
    cards = {"Ann": "AS", "Bob": "2S", "Cora": "3S", "Dan": "4S"}
    evenings.evening_act(evening_id=evening.pk, event={"type": "cut", "cards": cards})
    return evening


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_score_sheet_is_headed_with_the_rubbers_number_at_its_table(
    browser_page, live_server, second_rubber, size
):
    page = browser_page
    page.set_viewport_size(size)
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/evenings/{second_rubber.pk}/")
    score = page.locator("#table-1 .score")
    named = score.inner_text().split(",")[0]  # the board's "Rubber 2"
    assert named.startswith("Rubber ")
    score.get_by_role("link", name="score sheet").click()
    heading = page.locator("h1")
    assert heading.inner_text().startswith(f"{named}: Bridge"), heading.inner_text()
    assert page.title().startswith(f"{named} ·")
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    shot(page, f"bridge-sheet-number-{size['width']}")
    # The finished first rubber's sheet, from the board's list of rubbers, is rubber 1.
    page.go_back()
    page.locator("tr", has_text="finished").get_by_role("link", name="score sheet").click()
    assert page.locator("h1").inner_text().startswith("Rubber 1: Bridge")
