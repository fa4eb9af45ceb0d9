"""A progressive's table's phone (/p/<token>/, 360 px, Debian's chromium) whose queued
deals are refused one after another: each stays listed, with its deal, what was entered
and the service's reason, through the live part's update and a reload, until dismissed.
Screenshot in artifacts/screenshots/table-phone-refusals.png."""

import re

import pytest

from club import recording
from tests.browser import PHONE, enter_hand, open_phone, shot
from tournaments.models import TournamentTable

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def enter(page, *, makers: str, tricks: int):
    enter_hand(page, makers=makers, tricks=tricks)
    # Not a second tap on the same hand (phone-queue.js's 1.5 s): the page's own clock,
    # installed before it loaded, is run past it rather than waited out.
    page.clock.run_for(1600)


def test_deals_queued_for_a_round_that_ended_meanwhile_are_each_listed(
    browser_page, live_server, round_one
):
    token = TournamentTable.objects.get(number=1).token
    browser_page.clock.install()
    page = open_phone(browser_page, f"{live_server.url}/p/{token}/")
    page.context.set_offline(True)
    enter(page, makers="NS", tricks=3)
    enter(page, makers="EW", tricks=4)
    page.get_by_test_id("phone-queue").filter(has_text="2 hands waiting").wait_for()

    # The round's one deal is recorded from the table's other phone: the round is over.
    rubber_id = round_one.rounds.get(number=1).tables.get(number=1).rubber_id
    recording.hand_record(rubber_id=rubber_id, data={"makers": "EW", "tricks": 5})
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")

    items = page.get_by_test_id("refused-hand")
    page.get_by_test_id("table-state").filter(has_text="Round 1 is over").wait_for()
    items.nth(1).wait_for()
    listed = [re.sub(r"\s+", " ", items.nth(i).inner_text()) for i in range(2)]
    assert listed[0].startswith("Hand 1 (makers: N-S "), listed[0]
    assert listed[1].startswith("Hand 2 (makers: E-W "), listed[1]
    assert all("tricks taken by the makers" in text for text in listed)
    assert all(") was not recorded. " in text for text in listed)
    assert "Hand 1 is already recorded" in listed[0], listed[0]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "table-phone-refusals")

    page.reload()
    assert [re.sub(r"\s+", " ", items.nth(i).inner_text()) for i in range(2)] == listed
    page.get_by_test_id("dismiss-all-refused").click()
    assert items.count() == 0 and page.get_by_test_id("phone-refused").is_hidden()
