"""A hand's request the service never answers, in Debian's chromium at a phone's width:
the phone's queue gives it up after its time limit (REQUEST_TIMEOUT_MS, 15 s, in
static/js/phone-queue.js) and treats it as a network failure, the hand kept and sent
again by itself; never lost, and never doubled when the first request did land (the retry
carries the same Idempotency-Key and is answered from the first).
Screenshot in artifacts/screenshots/phone-no-answer.png."""

import re

import pytest

from scoring.models import Hand
from tests.browser import enter_hand, shot
from tests.worlds import club_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
HAND = re.compile(r"/hand/$")


@pytest.fixture
def played(django_capture_on_commit_callbacks):
    """Table 1 of a Euchre evening; hand 1 (N-S, three tricks) is recorded."""
    return club_in_play(django_capture_on_commit_callbacks)


def sent_once_unanswered(page, *, lands: bool) -> tuple[list[str], list[bool]]:
    """Route the phone's hand posts: the first gets no answer (it reaches the service when
    `lands`, then its answer is lost; else it never arrives), the rest go through. The
    Idempotency-Keys sent, in order, and a list that holds True once the first request
    is dealt with (answered by the service, its answer kept from the phone, or dropped)."""
    keys: list[str] = []
    first_done: list[bool] = []

    def handle(route):
        keys.append(route.request.headers.get("idempotency-key"))
        if len(keys) > 1:
            route.continue_()
            return
        if lands:
            route.fetch()  # recorded; its answer never reaches the phone
        first_done.append(True)

    page.route(HAND, handle)
    return keys, first_done


@pytest.mark.parametrize("lands", [True, False], ids=["landed", "never-arrived"])
def test_a_hand_whose_request_never_answers_is_sent_again_and_recorded_once(
    browser_page, live_server, played, lands
):
    page = browser_page
    page.set_viewport_size(PHONE)
    # The page's clock is Playwright's: the fifteen seconds pass when the test says so.
    page.clock.install()
    page.goto(f"{live_server.url}/t/{played.table.token}/")
    keys, first_done = sent_once_unanswered(page, lands=lands)
    enter_hand(page, makers="EW", tricks=4)
    queue = page.get_by_test_id("phone-queue")
    # The hand's request is out, its clock started, and (when it lands) the service has
    # answered it: only then do the fifteen seconds pass on the page's clock, as they would.
    while not first_done:
        page.wait_for_timeout(50)
    # Nothing is given up before the limit; past it, the phone says so and keeps the hand.
    # Still waiting on a connected phone, it says it is sending, never that it waits for a
    # connection the phone has (static/js/phone-queue.js, whyWaiting).
    page.clock.run_for(14_000)
    assert "has not answered" not in queue.inner_text()
    assert "Sending now" in queue.inner_text()
    assert "connection returns" not in queue.inner_text()
    page.clock.run_for(1_500)
    queue.filter(has_text="has not answered in 15 seconds; trying again").wait_for(timeout=5000)
    assert "connection returns" not in queue.inner_text()
    assert "Not sent yet: 1 hand waiting (hand 2)" in queue.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, f"phone-no-answer-{'landed' if lands else 'lost'}")
    # Sent again by itself (after the queue's pause): recorded once.
    page.clock.run_for(5_000)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for(timeout=10000)
    assert queue.is_hidden()
    assert len(keys) == 2 and keys[0] == keys[1]
    recorded = Hand.objects.filter(rubber=played.rubber).order_by("number")
    assert [(h.data["makers"], h.data["tricks"]) for h in recorded] == [("NS", 3), ("EW", 4)]
