"""Two phones at a progressive's table (`/p/<token>/`, Debian's chromium at 360 px): a deal
waiting in one phone's queue for a number the other phone has recorded since is said on
the queue's line as soon as the sheet's poll shows it, as at an evening's table
(tests/club/test_browser_phone_recorded_since.py); sent, it is refused (409), never
recorded twice. Screenshot in artifacts/screenshots/table-phone-recorded-since.png."""

import contextlib
import re

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.browser import PHONE, enter_hand, open_two_phones, shot
from tests.tournaments.test_table_phone import at_table, hands
from tournaments import rounds
from tournaments.models import TournamentTable

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = re.compile(r"/hand/$")


@pytest.fixture
def four_deals(make, director):
    """A rotation progressive of four deals a round, round 1 seated, nothing recorded."""
    tournament = make("rotation", deals=4)
    rounds.round_seat_next(tournament_id=tournament.pk, user=director)
    return tournament


def test_a_deal_waiting_for_a_number_the_other_phone_recorded_is_said_at_once(
    browser_page, live_server, four_deals
):
    token = TournamentTable.objects.get(tournament=four_deals, number=1).token
    first, second = open_two_phones(browser_page, f"{live_server.url}/p/{token}/")
    first.set_default_timeout(10_000)
    held = []
    statuses = []

    def handle(route):
        if not held:  # the first deal's request hangs: a slow service
            held.append(route)
            return
        route.continue_()

    first.route(HAND, handle)
    first.on("response", lambda r: statuses.append(r.status) if HAND.search(r.url) else None)
    queue = first.get_by_test_id("phone-queue")
    enter_hand(first, makers="EW", tricks=4)
    queue.filter(has_text="Not sent yet: 1 hand waiting (hand 1)").wait_for()
    first.wait_for_timeout(1_600)  # past the double-tap guard's 1.5 s: a second deal
    enter_hand(first, makers="EW", tricks=1)
    queue.filter(has_text="Not sent yet: 2 hands waiting (hand 1, hand 2)").wait_for()

    notice = second.get_by_test_id("phone-notice")
    enter_hand(second, makers="NS", tricks=3)
    notice.filter(has_text="Hand 1 recorded.").wait_for()
    enter_hand(second, makers="NS", tricks=5)
    notice.filter(has_text="Hand 2 recorded.").wait_for()

    since = first.get_by_test_id("recorded-since")
    since.filter(has_text="Hand 2 is on the sheet already").wait_for()
    words = " ".join(since.inner_text().split())
    assert "another phone at this table recorded it since it was entered here" in words
    assert first.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(first, "table-phone-recorded-since")

    with contextlib.suppress(PlaywrightError):  # given up already, it goes again itself
        held[0].continue_()
    queue.wait_for(state="hidden")
    assert statuses == [409, 409], statuses
    assert [(h["makers"], h["tricks"]) for h in hands(at_table(four_deals))] == [
        ("NS", 3),
        ("NS", 5),
    ]
