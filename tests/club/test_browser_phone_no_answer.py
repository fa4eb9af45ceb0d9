"""A hand's request the service never answers, in Debian's chromium at a phone's width:
the phone's queue gives it up after its time limit (REQUEST_TIMEOUT_MS, 15 s, in
static/js/phone-queue.js) and treats it as a network failure, the hand kept and sent
again by itself; never lost, and never doubled when the first request did land (the retry
carries the same Idempotency-Key and is answered from the first).
Screenshot in artifacts/screenshots/phone-no-answer.png."""

import re

import pytest

from club import recording
from scoring.models import Hand
from tests.browser import enter_hand, open_phone, shot, stop_clock

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
HAND = re.compile(r"/hand/$")


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
    # The page's clock is Playwright's, held still once the page is up (stop_clock): the
    # fifteen seconds pass when the test says so, however long the service takes to answer
    # on a loaded machine (the clock once installed ran by itself, and passed the limit).
    page.clock.install()
    page.goto(f"{live_server.url}/t/{played.table.token}/")
    stop_clock(page)
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


@pytest.mark.parametrize("entered", ["before", "after"], ids=["hand-3-in-time", "hand-3-late"])
def test_a_hand_waiting_behind_a_request_that_hung_is_listed_when_refused(
    browser_page, live_server, played, entered
):
    """Hand 2's request hangs past its time limit; hand 3 waits behind it, entered while
    hand 2 is still out or once it has been given up (then tried again at once). Another
    phone records hands 2 and 3 meanwhile: both are refused (409, a hand is recorded once,
    law 5), and both are listed among the refusals kept on the phone, each with its words,
    not hand 3 in the live part alone."""
    page = browser_page
    page.clock.install()
    open_phone(page, f"{live_server.url}/t/{played.table.token}/")
    # Held still (stop_clock): hand 2's fifteen seconds pass only when the test says, never
    # by themselves while hand 3 is entered on a loaded machine (then hand 2 went again,
    # recorded, before the other phone's hands).
    stop_clock(page)
    _, first_done = sent_once_unanswered(page, lands=False)
    queue = page.get_by_test_id("phone-queue")
    enter_hand(page, makers="EW", tricks=4)
    while not first_done:
        page.wait_for_timeout(50)
    if entered == "before":
        page.clock.run_for(2_000)  # past the double-tap guard
        enter_hand(page, makers="EW", tricks=1)
        queue.filter(has_text="Not sent yet: 2 hands waiting (hand 2, hand 3)").wait_for()
    page.clock.run_for(15_500)
    queue.filter(has_text="has not answered in 15 seconds; trying again").wait_for()
    for number, tricks in ((2, 3), (3, 5)):  # the other phone at the table
        recording.hand_record(
            evening_id=played.evening.pk,
            table_number=1,
            data={"makers": "NS", "tricks": tricks},
            expected_number=number,
        )
    if entered == "after":
        enter_hand(page, makers="EW", tricks=1)  # hand 2 goes again at once, then hand 3
    else:
        page.clock.run_for(5_000)  # hand 2 goes again after the queue's pause
    queue.wait_for(state="hidden", timeout=10_000)
    refused = page.get_by_test_id("refused-hand")
    listed = [" ".join(text.split()) for text in refused.all_inner_texts()]
    assert len(listed) == 2, listed
    assert listed[0].startswith("Hand 2 (") and "was not recorded." in listed[0], listed
    assert listed[1].startswith("Hand 3 (") and "was not recorded." in listed[1], listed
    assert "Hand 3 is already recorded at this table" in listed[1], listed
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    recorded = Hand.objects.filter(rubber=played.rubber).order_by("number")
    assert [(h.data["makers"], h.data["tricks"]) for h in recorded] == [
        ("NS", 3),
        ("NS", 3),
        ("NS", 5),
    ]
