"""A browser: the other side confirms (issue #14 item 4). One phone at table 1 records a
hand; a second phone on the same link sees it waiting for East-West, confirms one hand and
disputes the next with its own version; the secretary's board shows the dispute with both
versions, and the secretary settles it with a reason (law 5, ruling E9). Screenshots in
artifacts/screenshots/confirm-*.png."""

import datetime
import re
from decimal import Decimal

import pytest

from club import evenings
from club.models import HandConfirmation, Table
from scoring.models import Rubber
from tests.browser import TABLE_POLL_MS, log_in, open_two_phones, shot
from tests.club.test_browser_board import settled
from tests.club.test_evenings import seat_six

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def record(phone, tricks: int) -> None:
    settled(phone)
    form = phone.locator("form.hand")
    form.locator("input[name=makers][value=NS]").check()
    form.locator("input[name=tricks]").fill(str(tricks))
    with phone.expect_response(re.compile(r"/hand/$")):
        form.get_by_test_id("record-hand").click()
    settled(phone)


def test_the_other_side_confirms_and_disputes(browser_page, live_server, club, secretary):
    club.confirm_hands = True
    club.save()
    evening = evenings.evening_open(
        club=club, date=datetime.date(1888, 11, 21), ruleset="euchre-somerset-1888",
        stake=Decimal("0.25"),
    )  # fmt: skip
    seat_six(evening)
    link = f"{live_server.url}/t/{Table.objects.get(evening=evening, number=1).token}/"

    page = browser_page  # the secretary's board
    # The pages' own clocks (the board's, and each phone's below), run forward by a
    # poll's interval where the test waits for a poll, rather than waiting it out.
    page.clock.install()
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/evenings/{evening.pk}/")

    # North-South's phone records, East-West's, on the same link, answers: each a phone
    # of its own (its own browser context: storage, queue and clock), as at a table.
    north, east = open_two_phones(page.context.browser.new_page(), link, clock=True)

    record(north, 5)
    # The other phone sees the hand waiting for East-West without a reload (it polls).
    east.clock.run_for(TABLE_POLL_MS)
    east.get_by_test_id("confirm-1-EW").wait_for(timeout=8000)
    assert "Hand 1 recorded by North-South:" in east.get_by_test_id("confirm-hand-1").inner_text()
    shot(east, "confirm-1-waiting")
    with east.expect_response(re.compile(r"/answer/$")):
        east.get_by_test_id("confirm-1-EW").click()
    settled(east)
    assert "Hand 1 confirmed by East-West." in east.inner_text("#table-live")

    # The second hand counts at once; East-West say the makers took two tricks, not three.
    record(north, 3)
    east.clock.run_for(TABLE_POLL_MS)
    east.get_by_test_id("dispute-2").wait_for(timeout=8000)
    east.get_by_test_id("dispute-2").click()
    block = east.get_by_test_id("confirm-hand-2")
    assert block.locator("input[name=tricks]").input_value() == "3"  # prefilled as recorded
    block.locator("input[name=tricks]").fill("2")
    with east.expect_response(re.compile(r"/answer/$")):
        block.get_by_test_id("dispute-send-2").click()
    settled(east)
    assert "Hand 2 disputed by East-West" in east.inner_text("#table-live")
    shot(east, "confirm-2-disputed")
    rubber = Rubber.objects.get(evening=evening)
    assert rubber.hands.get(number=2).data["tricks"] == 3  # it counts as recorded meanwhile

    # The board flags the dispute with both versions, without a reload.
    dispute = page.get_by_test_id("dispute-table-1-hand-2")
    page.clock.run_for(TABLE_POLL_MS)
    dispute.wait_for(timeout=8000)
    text = dispute.inner_text()
    assert "Recorded by North-South: N-S make, 3 tricks" in text
    assert "Disputed by East-West: N-S make, 2 tricks (euchred)" in text
    shot(page, "confirm-3-board")
    dispute.get_by_test_id("settle-reason").fill("Dan showed the last trick")
    with page.expect_response(re.compile(r"/settle/$")):
        dispute.get_by_test_id("settle").click()
    settled(page)
    assert "Hand 2 settled as disputed, and corrected" in page.inner_text("#board")
    assert not page.get_by_test_id("dispute-table-1-hand-2").count()
    shot(page, "confirm-4-settled")

    hand = rubber.hands.get(number=2)
    assert hand.data["tricks"] == 2 and hand.points == {"NS": 0, "EW": 2}  # euchred (law 3)
    assert hand.corrections.get().reason == "Dan showed the last trick"
    assert HandConfirmation.objects.get(hand=hand).state == "settled"
    # The rubber's page shows the hand settled: neither unconfirmed nor disputed.
    page.goto(f"{live_server.url}/clubs/{club.slug}/rubbers/{rubber.pk}/")
    assert not page.get_by_test_id("hand-2-disputed").count()
