"""A table's link open twice on one phone (its QR code scanned twice, or the link in two
tabs), in Debian's chromium at a phone's width: the two tabs share the phone's queue in
localStorage (static/js/phone-queue.js), so one tab sends at a time (the sending tab
holds a lease in storage) and each hand goes out once, at once, whichever tab it was
entered in; the other tab, hearing the queue change, brings its own page up to date.
Without it each tab sent the queue's oldest hand itself: a hand already on its way from
the other tab went again with the same Idempotency-Key, was answered 409 (the same key
still running, core/idempotency.py) and its tab said the server was busy and tried again
3 s later. Both tabs are pages of one browser context (one phone's storage) on one clock,
stopped: nothing below waits for the sheet's 3 s poll.
Screenshots in artifacts/screenshots/phone-two-tabs-*.png."""

import re

import pytest

from scoring.models import Hand
from tests.browser import (
    PHONE,
    enter_hand,
    enter_hand_dropped,
    offers_hand_without_a_poll,
    open_phone,
    shot,
    stop_clock,
)
from tests.phone_races import shows_the_hand_recorded
from tests.worlds import club_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = re.compile(r"/hand/$")


@pytest.fixture
def tabs(browser_page, live_server, django_capture_on_commit_callbacks):
    """Table 1 of a Euchre evening (hand 1 recorded) open in two tabs of one phone, each
    at a phone's width, on the context's clock (installed before either loaded). Returns
    (first tab, second tab, the posts of a hand the phone made: (key, status))."""
    played = club_in_play(django_capture_on_commit_callbacks)
    url = f"{live_server.url}/t/{played.table.token}/"
    context = browser_page.context
    context.set_default_timeout(10_000)
    context.clock.install()
    posts = []

    def answered(response):
        request = response.request
        if request.method == "POST" and HAND.search(request.url):
            posts.append((request.headers.get("idempotency-key"), response.status))

    context.on("response", answered)
    first = open_phone(browser_page, url)
    second = open_phone(context.new_page(), url)
    stop_clock(first)
    return first, second, posts


def recorded_in_both(first, second, *, number: int, tricks: str) -> None:
    """Each tab shows hand NUMBER on its sheet and offers the next hand's form."""
    for tab in (first, second):
        offers_hand_without_a_poll(tab, number + 1)
        shows_the_hand_recorded(tab, number=number, tricks=tricks)
        assert tab.get_by_test_id("phone-queue").is_hidden()


def test_a_hand_entered_in_either_tab_goes_once_at_once_and_both_show_it(tabs):
    first, second, posts = tabs
    # Hand 2 is slow on its way from the first tab; hand 3 is entered in the second
    # meanwhile: it waits behind hand 2 and is not sent again beside it.
    held = []
    first.route(HAND, lambda route: held.append(route) if not held else route.continue_())
    enter_hand(first, makers="EW", tricks=4)
    first.wait_for_function("() => document.querySelector('#phone-queue.htmx-request')")
    while not held:
        first.wait_for_timeout(20)
    # The hand on its way holds the link's Web Lock, as the other tab sees it.
    lock = "cardclub-phone-sending:" + first.evaluate("location.pathname")
    held_locks = second.evaluate("navigator.locks.query().then(q => q.held.map(l => l.name))")
    assert held_locks == [lock], held_locks
    enter_hand(second, makers="NS", tricks=3)
    both = "Not sent yet: 2 hands waiting (hand 2, hand 3)"
    second.get_by_test_id("phone-queue").filter(has_text=both).wait_for()
    # The first tab hears it by the storage event, which reaches it when it will.
    first.get_by_test_id("phone-queue").filter(has_text=both).wait_for()
    assert first.get_by_test_id("phone-queue").inner_text().startswith(both)
    held[0].continue_()
    recorded_in_both(first, second, number=3, tricks="3")
    keys = [key for key, _ in posts]
    assert [status for _, status in posts] == [200, 200], posts  # never 409: key in use
    assert len(set(keys)) == 2, posts  # each hand sent once
    assert "busy" not in second.inner_text("body")
    for tab in (first, second):
        rows = tab.locator("#table-sheet tbody tr")
        assert "4" in rows.nth(1).inner_text(), rows.all_inner_texts()
    shot(second, "phone-two-tabs-1-both")

    # A hand entered in the second tab with nothing waiting goes from there at once, and
    # the first tab shows it without waiting for its poll.
    enter_hand(second, makers="NS", tricks=5)
    recorded_in_both(first, second, number=4, tricks="5")
    assert len(posts) == 3 and len({key for key, _ in posts}) == 3, posts


def test_a_hand_kept_offline_in_one_tab_is_sent_once_by_the_tab_online(tabs):
    first, second, posts = tabs
    context = first.context
    context.set_offline(True)
    enter_hand(first, makers="EW", tricks=4)
    waiting = "Not sent yet: 1 hand waiting (hand 2). No connection"
    first.get_by_test_id("phone-queue").filter(has_text=waiting).wait_for()
    # The other tab says what its phone keeps, too (once the storage event reaches it).
    second.get_by_test_id("phone-queue").filter(has_text=waiting).wait_for()
    shot(second, "phone-two-tabs-2-offline")
    # The connection returns: both tabs hear it, one sends the hand.
    context.set_offline(False)
    recorded_in_both(first, second, number=2, tricks="4")
    assert [status for _, status in posts] == [200], posts

    # Kept offline in the first tab, which is closed meanwhile: the second sends it.
    context.set_offline(True)
    enter_hand(first, makers="NS", tricks=3)
    second.get_by_test_id("phone-queue").filter(has_text="(hand 3)").wait_for()
    # Closed at once: the link's lock may be granted to the first tab as it goes. A tab
    # going away takes no lease then (phone-queue.js `leaving`); the one it once wrote made
    # the second wait out the lease's 17 s (seen in CI, half the runs on chromium 156).
    first.close()
    context.set_offline(False)
    offers_hand_without_a_poll(second, 4)
    shows_the_hand_recorded(second, number=3, tricks="3")
    assert [status for _, status in posts] == [200, 200], posts
    assert second.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(second, "phone-two-tabs-3-closed")


def test_two_tabs_taking_the_queue_over_at_once_send_its_hand_once(tabs, live_server):
    """A third tab of the link, the one sending, lets the queue go (closed: its `pagehide`)
    with a hand in it: both other tabs hear it at the same instant and each takes the queue
    over. The lease in storage is read by each before the other's write reaches it, so both
    sent the hand (the second answered 409 or replayed); the Web Lock
    (`navigator.locks`, static/js/phone-queue.js `exclusively`) lets one send it, and the
    other finds it gone from the queue. Neither tab shows a refusal; both say it was sent
    and recorded."""
    first, second, _ = tabs
    context = first.context
    sent = []
    context.on(
        "request",
        lambda request: (
            sent.append(request.headers.get("idempotency-key"))
            if request.method == "POST" and HAND.search(request.url)
            else None
        ),
    )
    # The Wi-Fi drops the hand's request (the phone still online): it waits in the queue.
    enter_hand_dropped(first, makers="EW", tricks=4, waiting="Not sent yet: 1 hand")
    second.get_by_test_id("phone-queue").filter(has_text="Not sent yet: 1 hand").wait_for()
    sent.clear()  # the dropped try is not the service's

    # The tab that sent (the first, here: its lease) is taken for a third, closed: the
    # lease removed with the hand still queued, as `letGo` does on `pagehide`.
    third = context.new_page()
    third.goto(f"{live_server.url}/static/js/phone-queue.js")
    path = first.evaluate("location.pathname")
    third.evaluate("p => localStorage.removeItem('cardclub-phone-sending:' + p)", path)
    third.close()

    said = "Kept on this phone, then sent and recorded: hand 2."
    for tab in (first, second):
        tab.get_by_test_id("phone-sent").filter(has_text=said).wait_for()
    recorded_in_both(first, second, number=2, tricks="4")
    assert len(sent) == 1, sent  # once, from one tab
    assert Hand.objects.count() == 2  # hand 1, and hand 2 once
    for tab in (first, second):
        refusals = tab.locator("[data-testid=phone-error], #phone-refused")
        assert not any(refusal.is_visible() for refusal in refusals.all())
        assert "busy" not in tab.inner_text("body")
    shot(second, "phone-two-tabs-4-at-once")
