"""The next hand's heading while several hands wait on the phone, in Debian's chromium at
a phone's width: the entry form's title and "X deals hand N" follow the queue (the next
hand after those waiting, the deal passing to the left for each, law 28), not the
service's next number, when the first waiting hand's answer replaces the page's live part
and when the page is reloaded with hands still waiting (static/js/phone-queue.js,
followQueue). Screenshot in artifacts/screenshots/phone-waiting-heading.png."""

import re

import pytest

from scoring.models import Hand
from tests.browser import enter_hand, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
HAND = re.compile(r"/hand/$")


def title(page) -> str:
    return page.locator("form.hand[data-kind=record] .form-title").inner_text()


def dealer(page) -> str:
    return page.get_by_test_id("dealer").inner_text()


def dealing_seat(page) -> str:
    return page.get_by_test_id("seats").locator("li.deals").inner_text()


def test_the_next_hand_follows_the_hands_waiting(browser_page, live_server, played):
    page = browser_page
    page.set_viewport_size(PHONE)
    page.clock.install()  # its timers run forward where the test waits for them
    page.goto(f"{live_server.url}/t/{played.table.token}/")
    page.context.set_offline(True)
    for tricks in (3, 4, 5):  # hands 2, 3 and 4, dealt by Cora, Bob and Dan
        enter_hand(page, makers="EW", tricks=tricks)
        page.clock.run_for(1600)  # a hand's play apart, not a second tap (1.5 s)
    queue = page.get_by_test_id("phone-queue")
    queue.filter(has_text="3 hands waiting (hand 2, hand 3, hand 4)").wait_for()
    assert title(page) == "Hand 5"
    assert dealer(page).startswith("Ann deals hand 5")
    assert dealing_seat(page).split() == ["NORTH", "Ann", "deals"]

    # Back online, only the first gets through (a flaky Wi-Fi): its answer brings the page
    # as the service has it (hand 3 next), while hands 3 and 4 still wait here.
    sent = []

    def first_only(route):
        sent.append(route.request.url)
        if len(sent) == 1:
            route.continue_()
        else:
            route.abort()

    page.route(HAND, first_only)
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    queue.filter(has_text="2 hands waiting (hand 3, hand 4)").wait_for()
    assert title(page) == "Hand 5"
    assert dealer(page).startswith("Ann deals hand 5")
    assert "Ann" in dealing_seat(page)
    expected = page.locator("form.hand[data-kind=record] input[name=expected_number]")
    assert expected.input_value() == "5"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "phone-waiting-heading")

    # Reloaded with the two still waiting: the same.
    page.reload()
    queue.filter(has_text="2 hands waiting").wait_for()
    assert title(page) == "Hand 5"
    assert dealer(page).startswith("Ann deals hand 5")

    # The connection is good again: they go, and the page is as the service has it.
    page.unroute(HAND)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.get_by_test_id("phone-notice").filter(has_text="Hand 4 recorded.").wait_for()
    assert queue.is_hidden()
    assert title(page) == "Hand 5"
    assert dealer(page).startswith("Ann deals hand 5")
    recorded = Hand.objects.filter(rubber=played.rubber).order_by("number")
    assert [h.data["tricks"] for h in recorded] == [3, 3, 4, 5]


def test_a_take_back_waiting_makes_its_number_the_next_again(browser_page, live_server, played):
    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/t/{played.table.token}/")
    page.context.set_offline(True)
    page.get_by_test_id("take-back").locator("> summary").click()
    page.get_by_role("button", name="Yes, take back hand 1").click()
    page.get_by_test_id("phone-queue").filter(has_text="take-back of hand 1").wait_for()
    assert title(page) == "Hand 1"
    assert dealer(page).startswith("Ann deals hand 1")
