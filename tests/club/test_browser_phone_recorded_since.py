"""Two phones at one table, in Debian's chromium at a phone's width: a hand waiting in one
phone's queue for a number the other phone has recorded since is said on the queue's line
as soon as the sheet's poll shows it, so the players can look at the sheet before it goes;
it is still sent as it is, and refused then (409, hand 3 already recorded), never
recorded twice. A hand already sent once, its answer not back, may be the one the sheet
shows: the line says so rather than blame the other phone.
Screenshot in artifacts/screenshots/phone-recorded-since.png."""

import contextlib
import re

import pytest
from playwright.sync_api import Error as PlaywrightError

from scoring.models import Hand
from tests.browser import PHONE, enter_hand, open_two_phones, refusal_shown, shot
from tests.worlds import club_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = re.compile(r"/hand/$")


@pytest.fixture
def played(django_capture_on_commit_callbacks):
    """Table 1 of a Euchre evening; hand 1 (N-S, three tricks) is recorded."""
    return club_in_play(django_capture_on_commit_callbacks)


def sheet(played) -> list[tuple[str, int]]:
    return [
        (h.data["makers"], h.data["tricks"])
        for h in Hand.objects.filter(rubber=played.rubber).order_by("number")
    ]


def test_a_hand_waiting_for_a_number_the_other_phone_recorded_is_said_at_once(
    browser_page, live_server, played
):
    first, second = open_two_phones(browser_page, f"{live_server.url}/t/{played.table.token}/")
    first.set_default_timeout(10_000)
    # The first phone's hand 2 goes out and hangs (a slow service): its answer does not
    # come; its hand 3 waits behind it, never sent. The sheet's poll still gets through.
    held = []
    statuses = []

    def handle(route):
        if not held:
            held.append(route)
            return
        route.continue_()

    first.route(HAND, handle)
    first.on("response", lambda r: statuses.append(r.status) if HAND.search(r.url) else None)
    enter_hand(first, makers="EW", tricks=4)
    queue = first.get_by_test_id("phone-queue")
    queue.filter(has_text="Not sent yet: 1 hand waiting (hand 2)").wait_for()
    first.wait_for_timeout(1_600)  # past the double-tap guard's 1.5 s: a second hand
    enter_hand(first, makers="EW", tricks=1)
    queue.filter(has_text="Not sent yet: 2 hands waiting (hand 2, hand 3)").wait_for()
    assert first.get_by_test_id("recorded-since").count() == 0

    # Meanwhile the other phone records hands 2 and 3.
    notice = second.get_by_test_id("phone-notice")
    enter_hand(second, makers="NS", tricks=3)
    notice.filter(has_text="Hand 2 recorded.").wait_for()
    enter_hand(second, makers="NS", tricks=5)
    notice.filter(has_text="Hand 3 recorded.").wait_for()

    # The first phone's poll shows them: its queue's line says so at once, before either
    # of its hands goes.
    since = first.get_by_test_id("recorded-since")
    since.filter(has_text="Hand 3 is on the sheet already").wait_for()
    words = " ".join(since.inner_text().split())
    assert (
        "Hand 3 is on the sheet already: another phone at this table recorded it since it "
        "was entered here. Look at the sheet before it goes: the hand 3 waiting here is "
        "refused when it is sent, not recorded twice" in words
    ), words
    # Hand 2 went out once: the sheet's hand 2 may be its own, its answer lost.
    assert (
        "Hand 2 is on the sheet already: recorded by this phone, if its answer was lost on "
        "the way, or by another phone at this table." in words
    ), words
    assert "Not sent yet: 2 hands waiting (hand 2, hand 3)" in queue.inner_text()
    assert first.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(first, "phone-recorded-since")
    assert statuses == []  # nothing answered yet

    # The hanging request reaches the service (or, past its time limit, goes again): both
    # hands are refused as recorded already, said in words, nothing recorded twice.
    with contextlib.suppress(PlaywrightError):  # given up already, it goes again itself
        held[0].continue_()
    queue.wait_for(state="hidden")
    assert statuses == [409, 409], statuses
    # Hand 2, refused while hand 3 waited, is listed; hand 3's refusal is the answer shown.
    refused = first.get_by_test_id("refused-hand")
    assert refused.count() == 1
    assert "Hand 2 (" in refused.inner_text() and "was not recorded" in refused.inner_text()
    assert "Hand 3 is already recorded at this table" in refusal_shown(first), refusal_shown(first)
    assert since.count() == 0
    assert sheet(played) == [("NS", 3), ("NS", 3), ("NS", 5)]
