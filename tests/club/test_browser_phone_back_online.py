"""The Wi-Fi comes back while the phone's try at sending a hand is still failing, in
Debian's chromium at a phone's width: the browser says the phone is online again (its
`online` event) before the failed request's answer reaches the queue
(static/js/phone-queue.js). The hand goes at once, as it does when the connection returns
with nothing on its way; the queue once let the `online` go by (a request was out) and
then waited its RETRY_MS, 3 s more with the connection back (seen in CI: a tab taking over
a closed tab's queue sent it only at its next try).
Screenshot in artifacts/screenshots/phone-back-online.png."""

import re

import pytest

from scoring.models import Hand
from tests.browser import enter_hand, offers_hand_without_a_poll, open_phone, shot, stop_clock
from tests.phone_races import shows_the_hand_recorded

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = re.compile(r"/hand/$")


def test_a_hand_whose_try_fails_as_the_wifi_returns_goes_at_once(browser_page, live_server, played):
    page = browser_page
    page.clock.install()
    open_phone(page, f"{live_server.url}/t/{played.table.token}/")
    stop_clock(page)  # the queue's 3 s pause passes only if the test says so
    held = []
    # The first try is held (the test fails it below); any other goes through.
    page.route(HAND, lambda route: route.continue_() if held else held.append(route))
    enter_hand(page, makers="EW", tricks=4)
    while not held:
        page.wait_for_timeout(20)
    # The connection returns while the try is out; then the try fails, as one sent while
    # the Wi-Fi was down does.
    page.evaluate("window.dispatchEvent(new Event('online'))")
    held[0].abort("internetdisconnected")
    # Sent again at once: short of the queue's 3 s (and of the sheet's 3 s poll).
    offers_hand_without_a_poll(page, 3)
    shows_the_hand_recorded(page, number=2, tricks="4")
    assert page.get_by_test_id("phone-queue").is_hidden()
    assert Hand.objects.filter(rubber=played.rubber).count() == 2
    shot(page, "phone-back-online")
