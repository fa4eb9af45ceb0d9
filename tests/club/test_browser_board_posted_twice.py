"""A board's button pressed again after its answer was lost, in Debian's chromium at a
phone's width (360 px): the first post was carried out, its answer never reached the
board (a dropped Wi-Fi answer), and the secretary, seeing nothing happen, presses again,
the same form posted twice. "A fresh link" renews the table's link once, and "End the
sitting" ends one sitting (ruling C5): the second post is refused, and the board says in
words what happened meanwhile and shows the evening as it is now, the link in force with
it. The board's polls are held back meanwhile (answered "unchanged"), as a network that
lost the answer would. Screenshots in artifacts/screenshots/posted-twice-*.png."""

import re

import pytest

from club import evenings
from club.models import Table
from scoring.models import Rubber
from tests.browser import PHONE, settled, shot
from tests.club.test_browser_board_live import open_board
from tests.worlds import call_ace_first_deal, euchre_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ACTION = re.compile(r"/action/$")


def said(page, selector: str) -> str:
    return " ".join(page.locator(selector).first.inner_text().split())


def answer_lost_then_pressed_again(page, evening, testid: str):
    """Press the button (its question answered yes): the service acts, but its answer is
    lost on the way; then press it again, the board unchanged, and wait for that answer."""
    page.on("dialog", lambda dialog: dialog.accept())
    page.route(f"**/evenings/{evening.pk}/board/", lambda route: route.fulfill(status=304))

    def lost(route):
        route.fetch()  # it reaches the service, which acts ...
        route.abort()  # ... and its answer never reaches the board

    page.route(ACTION, lost)
    with page.expect_event("requestfailed"):
        page.get_by_test_id(testid).click()
    page.unroute(ACTION, lost)
    settled(page)
    with page.expect_response(ACTION) as again:
        page.get_by_test_id(testid).click()
    settled(page)
    return again.value


def fits(page, name: str) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, name)


def test_a_fresh_link_pressed_again_renews_the_link_once(
    browser_page, live_server, club, secretary
):
    evening = euchre_table(club)
    page = browser_page
    page.set_viewport_size(PHONE)
    open_board(page, live_server, evening)
    settled(page)
    original = Table.objects.get(evening=evening, number=1).token
    assert original in page.get_by_test_id("table-link-1").get_attribute("href")

    answer_lost_then_pressed_again(page, evening, "new-link-1")

    table = Table.objects.get(evening=evening, number=1)
    assert table.token != original and table.replaced_token == original  # renewed once
    refusal = said(page, "#board [data-testid=refusal]")
    assert "Not done." in refusal, refusal
    assert "Table 1's link was renewed already at " in refusal, refusal
    assert "print its card" in refusal, refusal
    assert "has a fresh link" not in said(page, "#board")
    # The board shows the link in force, whose card is the one to print.
    assert f"/t/{table.token}/" in page.get_by_test_id("table-link-1").get_attribute("href")
    fits(page, "posted-twice-new-link")


def test_end_the_sitting_pressed_again_ends_one_sitting(browser_page, live_server, club, secretary):
    evening = evenings.evening_open(
        club=club, date="1905-11-21", ruleset="call-ace-foster-1905", stake=1
    )
    call_ace_first_deal(evening, ["Ann", "Bob", "Cora", "Dan", "Edith"])
    page = browser_page
    page.set_viewport_size(PHONE)
    open_board(page, live_server, evening)
    settled(page)
    events = evening.events.count()
    page.locator("#comings-1 summary").click()  # the table's "Players come and go"

    answer_lost_then_pressed_again(page, evening, "close-sitting-1")

    assert Rubber.objects.filter(evening=evening).count() == 1  # no second sitting ended
    assert evening.events.count() == events + 1  # one entry: the sitting ended
    refusal = said(page, "#board [data-testid=refusal]")
    assert "Not done." in refusal and "The board was out of date" in refusal, refusal
    assert "The sitting at table 1 ends and is settled" in refusal, refusal
    # The board as it is now: the sitting settled, no sitting in play to end.
    assert page.get_by_test_id("close-sitting-1").count() == 0
    assert "finished" in said(page, "[data-testid=rubbers] tbody tr")
    fits(page, "posted-twice-close-sitting")
