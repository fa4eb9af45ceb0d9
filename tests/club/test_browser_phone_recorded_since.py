"""Two phones at one table, in Debian's chromium at a phone's width: a hand waiting in one
phone's queue for a number the other phone has recorded since is said on the queue's line
as soon as the sheet's poll shows it, so the players can look at the sheet before it goes;
it is still sent as it is, and refused then (409, hand 3 already recorded), never
recorded twice. A hand already sent once, its answer not back, may be the one the sheet
shows: the line says so rather than blame the other phone. The same when the other
phone's hand ended the rubber, and the page has no entry form to read the table from.
Screenshot in artifacts/screenshots/phone-recorded-since.png."""

import contextlib
import re

import pytest
from playwright.sync_api import Error as PlaywrightError

from club import recording
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


def two_hands_waiting(first, numbers: tuple[int, int]):
    """On the FIRST phone, the hand numbered NUMBERS[0] goes out and hangs (a slow service:
    its answer does not come) and the next, NUMBERS[1], waits behind it, never sent; both
    for E-W. The sheet's poll still gets through. Returns the hanging request's route (a
    list, empty until it is out) and the statuses of the hands' answers, as they come."""
    first.set_default_timeout(10_000)
    held = []
    statuses = []

    def handle(route):
        if not held:
            held.append(route)
            return
        route.continue_()

    first.route(HAND, handle)
    first.on("response", lambda r: statuses.append(r.status) if HAND.search(r.url) else None)
    queue = first.get_by_test_id("phone-queue")
    enter_hand(first, makers="EW", tricks=4)
    queue.filter(has_text=f"Not sent yet: 1 hand waiting (hand {numbers[0]})").wait_for()
    # Past the double-tap guard's 1.5 s: a second hand. The phone's own clock, installed
    # before it loaded (open_two_phones(clock=True)), is run forward, not waited out.
    first.clock.run_for(1_600)
    enter_hand(first, makers="EW", tricks=1)
    waiting = f"Not sent yet: 2 hands waiting (hand {numbers[0]}, hand {numbers[1]})"
    queue.filter(has_text=waiting).wait_for()
    return held, statuses


def test_a_hand_waiting_for_a_number_the_other_phone_recorded_is_said_at_once(
    browser_page, live_server, played
):
    first, second = open_two_phones(
        browser_page, f"{live_server.url}/t/{played.table.token}/", clock=True
    )
    held, statuses = two_hands_waiting(first, (2, 3))
    queue = first.get_by_test_id("phone-queue")
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
    first.clock.run_for(3_000)  # its poll, on its own clock (every 3 s)
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


def test_a_hand_waiting_for_the_number_that_ended_the_rubber_is_said_too(
    browser_page, live_server, played
):
    """The other phone's hand ends the rubber: the page then has no entry form (the rubber
    is over, law 15), and the hand waiting here for that number is still said on the
    queue's line; sent, it is refused (409), never recorded."""
    # N-S have won the first two games (ruling E1), and the third is played all the same
    # (law 1): they begin it with their lap of one (ruling E2).
    for number in range(2, 7):
        recording.hand_record(
            evening_id=played.evening.pk,
            table_number=1,
            data={"makers": "NS", "tricks": 5},
            expected_number=number,
        )
    first, second = open_two_phones(
        browser_page, f"{live_server.url}/t/{played.table.token}/", clock=True
    )
    held, statuses = two_hands_waiting(first, (7, 8))
    # The other phone records hands 7 and 8, marches: N-S win the third game, the rubber
    # is over.
    notice = second.get_by_test_id("phone-notice")
    enter_hand(second, makers="NS", tricks=5)
    notice.filter(has_text="Hand 7 recorded.").wait_for()
    enter_hand(second, makers="NS", tricks=5)
    second.get_by_text("The rubber is over.").wait_for()

    since = first.get_by_test_id("recorded-since")
    first.clock.run_for(3_000)  # its poll, on its own clock (every 3 s)
    since.filter(has_text="Hand 8 is on the sheet already").wait_for()
    words = " ".join(since.inner_text().split())
    assert (
        "Hand 8 is on the sheet already: another phone at this table recorded it since it "
        "was entered here. Look at the sheet before it goes" in words
    ), words
    assert "Hand 7 is on the sheet already: recorded by this phone" in words, words
    assert first.get_by_test_id("phone-queue").is_visible()

    with contextlib.suppress(PlaywrightError):  # given up already, it goes again itself
        held[0].continue_()
    first.get_by_test_id("phone-queue").wait_for(state="hidden")
    assert statuses == [409, 409], statuses
    played.rubber.refresh_from_db()
    assert played.rubber.status == "complete"
    assert sheet(played) == [("NS", 3)] + [("NS", 5)] * 7
