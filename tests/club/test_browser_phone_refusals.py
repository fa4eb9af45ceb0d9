"""Hands queued on the phone and refused one after another (Debian's chromium at a 360 px
phone's width): every refusal stays listed on the phone, in words, with its hand, what was
entered and the service's reason, through the live part's updates and a reload, until a
player dismisses it; the last still comes back in the form as it was typed. Each answer
once replaced the one before, so only the last refusal stayed and the players never
learnt that an earlier hand was not recorded. Screenshots in
artifacts/screenshots/phone-refusals-*.png."""

import re

import pytest

from club import recording
from scoring.models import Hand
from tests.browser import fill_hand, shot
from tests.test_browser_accessibility import grave_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
WIDTH = "document.documentElement.scrollWidth"
QUEUE_KEY = "cardclub-phone-queue:"
REFUSED_KEY = "cardclub-phone-refused:"


def words(locator) -> str:
    return re.sub(r"\s+", " ", locator.inner_text()).strip()


def stored(page, prefix: str) -> list:
    """What the phone keeps under PREFIX for this table's page (nothing: [])."""
    return page.evaluate(
        "prefix => JSON.parse(localStorage.getItem(prefix + location.pathname) || '[]')", prefix
    )


def enter(page, *, makers: str, tricks: int, law102: bool = False):
    form = fill_hand(page, makers=makers, tricks=tricks)
    if law102:
        form.locator("details.irregular summary").click()
        form.locator("input[name=law102]").check()
    form.get_by_test_id("record-hand").click()
    # A second tap within 1.5 s is taken for the same hand's (phone-queue.js): the page's
    # own clock (installed before it loaded) is run past it, not waited out.
    page.clock.run_for(1600)


def test_every_refusal_of_the_queued_hands_stays_listed_until_dismissed(
    browser_page, live_server, played
):
    page = browser_page
    page.set_viewport_size(PHONE)
    page.clock.install()  # its timers run forward where the test waits for them
    page.goto(f"{live_server.url}/t/{played.table.token}/")
    answers = []  # the service's answers to the hand's posts
    page.on("response", lambda r: answers.append(r.status) if r.url.endswith("/hand/") else None)

    # The network is gone: three hands are entered and wait on the phone.
    page.context.set_offline(True)
    enter(page, makers="NS", tricks=3)
    enter(page, makers="EW", tricks=4)
    enter(page, makers="NS", tricks=3, law102=True)  # law 102 without a lone hand
    queue = page.get_by_test_id("phone-queue")
    queue.filter(has_text="Not sent yet: 3 hands waiting (hand 2, hand 3, hand 4)").wait_for()

    # Meanwhile the other phone records hands 2 and 3.
    for makers in ("EW", "NS"):
        recording.hand_record(
            evening_id=played.evening.pk, table_number=1, data={"makers": makers, "tricks": 3}
        )
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")

    # All three are refused, one after another; the last answer's live part shows the
    # last refusal with its form as it was typed, as before.
    error = page.get_by_test_id("phone-error")
    error.filter(has_text="law 102").wait_for()
    assert answers == [409, 409, 400]  # refused, as the API and a progressive's phone do
    assert queue.is_hidden()
    form = page.locator("form.hand[data-kind=record]")
    assert form.locator("input[name=makers][value=NS]").is_checked()
    assert form.locator("input[name=law102]").is_checked()

    # And every refusal is listed, in words: which hand, what was entered, not recorded,
    # and why (the service's words, naming the law).
    box = page.get_by_test_id("phone-refused")
    items = box.get_by_test_id("refused-hand")
    assert items.count() == 3
    listed = [words(items.nth(i)) for i in range(3)]
    assert listed[0].startswith(
        "Hand 2 (makers: N-S Ann & Bob; tricks taken by the makers: 3) was not recorded. "
        "Hand 2 is already recorded"
    ), listed[0]
    assert listed[1].startswith(
        "Hand 3 (makers: E-W Cora & Dan; tricks taken by the makers: 4) was not recorded. "
        "Hand 3 is already recorded"
    ), listed[1]
    assert listed[2].startswith(
        "Hand 4 (makers: N-S Ann & Bob; tricks taken by the makers: 3; the lone player's "
        "partner exposed a card) was not recorded. The lone player's partner exposed a card: "
        "law 102 applies only when a lone hand is played"
    ), listed[2]
    assert all(text.endswith("Dismiss") for text in listed)
    assert words(box).startswith("Not recorded: 3 refusals from the club's server.")
    for label in ("makers=", "law102", "409", "expected_number", "None"):
        assert label not in words(box)
    news = page.locator("#phone-refused-news")
    assert news.get_attribute("role") == "alert"
    said = news.text_content()  # all three at once, when the queue had gone out
    assert said.startswith("Hand 2 was not recorded. Hand 2 is already recorded"), said
    assert "Hand 3 was not recorded." in said
    assert "Hand 4 was not recorded. The lone player's partner exposed a card: law 102" in said
    assert page.evaluate(WIDTH) <= PHONE["width"]
    assert grave_violations(page) == []
    shot(page, "phone-refusals-1-three-refused")

    # Hand 4 is sent again as a lone hand: recorded, and the live part is replaced; the
    # list stays as it was (a success adds nothing to it).
    form.locator("input[name=alone]").check()
    form.get_by_test_id("record-hand").click()
    page.get_by_test_id("phone-notice").filter(has_text="Hand 4 recorded.").wait_for()
    assert page.get_by_test_id("phone-error").count() == 0
    assert items.count() == 3
    assert Hand.objects.filter(rubber=played.rubber).count() == 4

    # The other phone plays the rubber out: the poll brings the whole live part up to
    # date ("The rubber is over"); the list is still there.
    rubber = played.rubber
    while rubber.status != rubber.Status.COMPLETE:
        recording.hand_record(
            evening_id=played.evening.pk, table_number=1, data={"makers": "NS", "tricks": 5}
        )
        rubber.refresh_from_db()
    page.clock.run_for(3000)  # the sheet's poll's interval
    page.get_by_text("The rubber is over.").wait_for(timeout=8000)
    assert items.count() == 3

    # A reload keeps it, beside the (empty) queue.
    page.reload()
    assert items.count() == 3
    assert [words(items.nth(i)) for i in range(3)] == listed
    assert stored(page, QUEUE_KEY) == []
    assert len(stored(page, REFUSED_KEY)) == 3

    # Dismissed one by one, or all at once; gone for good.
    box.get_by_role("button", name="Dismiss: hand 3 not recorded").click()
    assert items.count() == 2
    assert "Hand 3" not in words(box)
    assert words(box).startswith("Not recorded: 2 refusals")
    page.reload()
    assert items.count() == 2
    box.get_by_test_id("dismiss-all-refused").click()
    assert box.is_hidden()
    assert page.evaluate(
        "prefix => localStorage.getItem(prefix + location.pathname)", REFUSED_KEY
    ) is None  # fmt: skip
    page.reload()
    assert box.is_hidden()
    assert answers == [409, 409, 400, 200]  # none of the refused was sent again


def test_a_hand_refused_at_once_is_shown_in_the_form_not_listed(browser_page, live_server, played):
    """A hand sent when entered and refused at once, nothing after it: the player sees the
    refusal with the form as typed, as before; it is not listed a second time."""
    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/t/{played.table.token}/")
    form = page.locator("form.hand[data-kind=record]")
    form.locator("input[name=makers][value=NS]").check()
    form.locator("input[name=tricks]").fill("3")
    form.locator("details.irregular summary").click()
    form.locator("input[name=law102]").check()
    form.get_by_test_id("record-hand").click()
    page.get_by_test_id("phone-error").filter(has_text="law 102").wait_for()
    assert page.get_by_test_id("phone-refused").is_hidden()
    assert stored(page, REFUSED_KEY) == []


def test_a_hand_answered_busy_waits_and_is_not_listed(browser_page, live_server, played):
    """A 409 with Retry-After (the rubber's lock not granted in time) is no refusal, though
    its page says "Not recorded." in a role=alert: the hand waits and goes again, and is
    recorded; nothing is listed."""
    page = browser_page
    page.clock.install()  # the queue's retry run forward on the page's own clock, below
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/t/{played.table.token}/")
    busy = (
        '<div id="table-live"><div class="alert error" role="alert"><strong>Not recorded.'
        "</strong> The table is busy; try again in a moment.</div></div>"
    )
    answered = []

    def first_busy(route):
        if answered:
            route.continue_()
            return
        answered.append(409)
        route.fulfill(
            status=409, headers={"Retry-After": "1", "Content-Type": "text/html"}, body=busy
        )

    page.route(re.compile(r"/hand/$"), first_busy)
    form = page.locator("form.hand[data-kind=record]")
    form.locator("input[name=makers][value=EW]").check()
    form.locator("input[name=tricks]").fill("4")
    form.get_by_test_id("record-hand").click()
    page.get_by_test_id("phone-queue").filter(has_text="The club's server is busy").wait_for()
    page.clock.run_for(3000)  # the queue's retry (RETRY_MS, static/js/phone-queue.js)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    assert answered == [409]
    assert page.get_by_test_id("refused-hand").count() == 0
    assert stored(page, REFUSED_KEY) == [] and stored(page, QUEUE_KEY) == []
    assert Hand.objects.filter(rubber=played.rubber).count() == 2
