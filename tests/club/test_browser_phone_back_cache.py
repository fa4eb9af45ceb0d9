"""A table's phone page brought back by the Back button from the browser's back/forward
cache, in Debian's chromium at a phone's width: the page comes back as it was left (the
sheet, the next hand's form and its number, the queue's line), so on `pageshow` with
`persisted` the queue's script (static/js/phone-queue.js) asks for the table as it is now
and shows the queue as stored. Playwright launches chromium with that cache off
(--disable-back-forward-cache among its default arguments): this test launches one of
its own without it. Screenshot in artifacts/screenshots/phone-back-cache.png."""

import asyncio

import pytest

from tests.browser import (
    ARGS,
    CHROMIUM,
    PHONE,
    enter_hand,
    offers_hand_without_a_poll,
    open_phone,
    shot,
    stop_clock,
)
from tests.conftest import browser_context
from tests.phone_races import shows_the_hand_recorded
from tests.worlds import club_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Set on the page each time it is shown from the back/forward cache.
RESTORED = """window.addEventListener("pageshow", (event) => {
  if (event.persisted) window.restoredFromCache = (window.restoredFromCache || 0) + 1;
});"""


@pytest.fixture
def with_back_cache(live_server, chromium, monkeypatch):
    """A browser context of a chromium launched with its back/forward cache on, as a
    phone's browser has it (the session's chromium has it off: Playwright's default)."""
    browser, loop = chromium
    asyncio._set_running_loop(loop)
    own = browser.browser_type.launch(
        executable_path=CHROMIUM, args=ARGS, ignore_default_args=["--disable-back-forward-cache"]
    )
    try:
        with browser_context((own, loop), monkeypatch) as context:
            context.set_default_timeout(10_000)
            yield context
    finally:
        asyncio._set_running_loop(loop)
        own.close()
        asyncio._set_running_loop(None)


def test_a_page_back_from_the_cache_shows_the_table_as_it_now_is(
    with_back_cache, live_server, django_capture_on_commit_callbacks
):
    played = club_in_play(django_capture_on_commit_callbacks)
    url = f"{live_server.url}/t/{played.table.token}/"
    # This phone's own clock, stopped: nothing below waits for the sheet's 3 s poll.
    with_back_cache.clock.install()
    with_back_cache.add_init_script(RESTORED)
    phone = open_phone(with_back_cache.new_page(), url)
    stop_clock(phone)
    enter_hand(phone, makers="EW", tricks=4)
    phone.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()

    # The player goes to another page; meanwhile the other phone at the table records
    # hand 3; the player presses Back.
    phone.goto(f"{live_server.url}/")
    other = open_phone(with_back_cache.browser.new_context().new_page(), url)
    enter_hand(other, makers="NS", tricks=3)
    other.get_by_test_id("phone-notice").filter(has_text="Hand 3 recorded.").wait_for()
    phone.go_back(wait_until="commit")  # no load event from the cache
    phone.wait_for_function(
        '() => window.restoredFromCache !== undefined || document.readyState === "complete"'
    )
    assert phone.evaluate("window.restoredFromCache") == 1  # not loaded afresh

    # The table as it now is: hand 3 on the sheet, the form for hand 4 and its dealer,
    # not the page as it was left (the form for hand 3, which sent would be refused as
    # recorded already, law 5 and ruling E9 to correct it).
    offers_hand_without_a_poll(phone, 4)
    shows_the_hand_recorded(phone, number=3, tricks="3")
    assert phone.get_by_test_id("phone-queue").is_hidden()
    assert not phone.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").count()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "phone-back-cache")
