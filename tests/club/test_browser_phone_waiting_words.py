"""What the phone's queue says of a hand not sent yet tells the truth about why, in
Debian's chromium at a phone's width (static/js/phone-queue.js, whyWaiting): with the
network cut, that it waits for the connection; connected but unanswered (a slow Wi-Fi, a
request lost), that the service has not answered yet and it is being tried again. It said
"sent as soon as the connection returns" in both, which a player on a connected phone
could wait for forever. Screenshots in artifacts/screenshots/phone-waiting-*.png."""

import re

import pytest

from scoring.models import Hand
from tests.browser import PHONE, enter_hand, open_phone, shot, stop_clock

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = re.compile(r"/hand/$")
OFFLINE = "sent as soon as the connection returns"
UNANSWERED = "The service has not answered yet; trying again."
WIDTH = "document.documentElement.scrollWidth"


def recorded(played) -> list[tuple[str, int]]:
    return [
        (h.data["makers"], h.data["tricks"])
        for h in Hand.objects.filter(rubber=played.rubber).order_by("number")
    ]


def test_offline_the_phone_says_it_waits_for_the_connection(browser_page, live_server, played):
    page = open_phone(browser_page, f"{live_server.url}/t/{played.table.token}/")
    page.context.set_offline(True)
    enter_hand(page, makers="EW", tricks=4)
    queue = page.get_by_test_id("phone-queue")
    queue.filter(has_text=OFFLINE).wait_for()
    assert "No connection" in queue.inner_text()
    assert "has not answered" not in queue.inner_text()
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "phone-waiting-offline")
    page.context.set_offline(False)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    assert recorded(played) == [("NS", 3), ("EW", 4)]


def test_connected_but_unanswered_the_phone_says_it_is_trying_again(
    browser_page, live_server, played
):
    """The hand's first request is lost on the way (the route aborts it) while the phone
    is online: the queue says the service has not answered and it is trying again, never
    that it waits for a connection it has; the next try, on the page's clock, goes
    through, recorded once."""
    page = browser_page
    page.clock.install()
    open_phone(page, f"{live_server.url}/t/{played.table.token}/")
    # Held still (stop_clock): the queue's next try goes when the test runs the clock, never
    # by itself while a loaded machine takes the screenshot (it then went, recorded, before
    # the test looked at what was waiting).
    stop_clock(page)
    tries: list[str] = []

    def lose_the_first(route):
        tries.append(route.request.headers.get("idempotency-key"))
        if len(tries) == 1:
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route(HAND, lose_the_first)
    enter_hand(page, makers="EW", tricks=4)
    queue = page.get_by_test_id("phone-queue")
    queue.filter(has_text=UNANSWERED).wait_for()
    assert OFFLINE not in queue.inner_text()
    assert "Not sent yet: 1 hand waiting (hand 2)" in queue.inner_text()
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "phone-waiting-unanswered")
    assert recorded(played) == [("NS", 3)]
    page.clock.run_for(5_000)  # the queue's pause before it tries again
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    assert queue.is_hidden()
    assert len(tries) == 2 and tries[0] == tries[1]
    assert recorded(played) == [("NS", 3), ("EW", 4)]


def test_a_change_waiting_on_a_connected_phone_says_it_is_being_tried(
    browser_page, live_server, played
):
    """A take-back waiting while the service does not answer: its note says so, not that
    it goes when the connection returns."""
    page = browser_page
    page.clock.install()
    open_phone(page, f"{live_server.url}/t/{played.table.token}/")
    page.route(HAND, lambda route: route.abort("connectionreset"))
    panel = page.get_by_test_id("take-back")
    panel.locator("summary", has_text="Take back hand 1").click()
    panel.get_by_role("button", name="Yes, take back hand 1").click()
    note = page.get_by_test_id("change-waiting")
    note.filter(has_text="has not answered yet").wait_for()
    assert "connection returns" not in note.inner_text()
    page.context.set_offline(True)
    page.get_by_test_id("phone-queue").filter(has_text=OFFLINE).wait_for()
