"""A table's phone whose hand is refused 403 before anything was done (its CSRF cookie
gone, as a page restored without it, or renewed) asks for its page again for a fresh
cookie and sends the hand again after the 3 s every other retry of the queue waits
(static/js/phone-queue.js, RETRY_MS): it went again at once, the page's answer taken for
the wait, and a phone stuck so hammered the service. In Debian's chromium at 360 px, the
phone's own clock stopped and run forward by the test (tests/browser.py)."""

import re

import pytest

from scoring.models import Hand
from tests.browser import enter_hand, open_phone, shot, stop_clock, timers_set, wait_for_timer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RETRY_MS = 3_000  # static/js/phone-queue.js


def test_a_hand_refused_403_goes_again_only_after_the_wait(browser_page, live_server, played):
    page = browser_page
    page.clock.install()
    url = f"{live_server.url}/t/{played.table.token}/"
    open_phone(page, url)
    stop_clock(page)
    posts = []
    page.on(
        "request",
        lambda request: (
            posts.append(request.url)
            if request.method == "POST" and request.url.endswith("/hand/")
            else None
        ),
    )
    page.context.clear_cookies()  # the phone holds no session, only the CSRF cookie
    before = timers_set(page, RETRY_MS)  # the sheet's poll's, perhaps
    with page.expect_response(
        lambda response: (
            response.request.method == "GET"
            and response.url.split("?")[0] == url
            and response.request.headers.get("hx-request") is None
        )
    ) as renewed:
        with page.expect_response(re.compile(r"/hand/$")) as refused:
            enter_hand(page, makers="EW", tricks=4)
        assert refused.value.status == 403
    assert renewed.value.ok  # the page asked for again: a fresh cookie
    # Its answer dealt with: the next try is set, on the held clock, RETRY_MS from now
    # (once waited for as 0.3 s of real time: later, the steps below ran the clock on
    # before the wait began, and the try was not yet due when the test looked for it).
    wait_for_timer(page, RETRY_MS, besides=before)
    assert len(posts) == 1
    page.get_by_test_id("phone-queue").filter(has_text="renew its page").wait_for()

    # Short of the wait, in steps, nothing goes again.
    for _ in range(29):
        page.clock.run_for(100)
        page.wait_for_timeout(20)
    page.wait_for_timeout(300)
    assert len(posts) == 1, posts
    assert Hand.objects.filter(rubber=played.rubber).count() == 1
    shot(page, "phone-renew-waiting")

    # Once the wait is over, it goes again, once, and is recorded.
    page.clock.run_for(200)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    assert len(posts) == 2, posts
    assert Hand.objects.filter(rubber=played.rubber).count() == 2
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
