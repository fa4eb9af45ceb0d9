"""A table's phone reloaded (or reopened by the browser) while the Wi-Fi is down, in
Debian's chromium at a phone's width: the phone's service worker (static/js/phone-worker.js,
served at /t/phone-worker.js) answers with the copy of the table's page it kept, which says
it is a copy and when it was kept, and the hands waiting in the phone's queue are listed as
before; chromium's own "No internet" page, which told the player nothing of them, is not
shown. Back online, the hand goes once. On a Wi-Fi that hangs rather than fails, the copy
answers after the worker's few seconds' wait, saying the connection did not answer. A link
renewed meanwhile shows its dead page, and
no copy is kept of it nor served for another link (docs/architecture.md, "The phone at the
table"). Screenshots in artifacts/screenshots/phone-offline-reload-*.png."""

import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from club import services
from club.models import Table
from scoring.models import Hand
from tests.browser import (
    NETWORK_WAIT_S,
    PHONE,
    HungNetwork,
    answered_again,
    back_online,
    copy_kept,
    cut_network,
    enter_hand_offline,
    kept_at,
    kept_with_hand_waiting,
    open_phone,
    reload_offline,
    reload_unanswered,
    shot,
    wait_until_kept,
    words,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_phone_reloaded_offline_shows_its_page_and_the_hand_waiting(
    browser_page, live_server, played
):
    path = f"/t/{played.table.token}/"
    page = open_phone(browser_page, f"{live_server.url}{path}")
    wait_until_kept(page, path)
    enter_hand_offline(page, makers="EW", tricks=5, waiting="Not sent yet: 1 hand")
    # Reloaded with no network: the kept page, not chromium's error page.
    reload_offline(page, waiting="Not sent yet: 1 hand")
    assert page.get_by_role("heading", name=re.compile("Table 1")).count() >= 1
    assert "No connection" in words(page.get_by_test_id("phone-queue"))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "phone-offline-reload-1-kept-360")
    page.set_viewport_size({"width": 1280, "height": 900})
    shot(page, "phone-offline-reload-2-kept-1280")
    page.set_viewport_size(PHONE)

    # The network returns: the hand goes by itself, once; the page is live again. The hand
    # the copy sent as it loaded is held by Playwright's emulation, neither sent nor failed,
    # until the queue's own limit (15 s) gives it up and sends it again: hence the wait.
    back_online(page)
    hands = Hand.objects.filter(rubber=played.rubber).order_by("number")
    assert [(hand.number, hand.data["makers"], hand.tricks) for hand in hands] == [
        (1, "NS", 3),
        (2, "EW", 5),
    ]
    shot(page, "phone-offline-reload-3-sent")


def test_a_link_renewed_while_offline_shows_its_dead_page_not_the_copy(
    browser_page, live_server, played
):
    path = f"/t/{played.table.token}/"
    page = open_phone(browser_page, f"{live_server.url}{path}")
    wait_until_kept(page, path)
    # The worker's scope is the table links' path, no wider (the secretary's pages are not in it).
    scope = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.scope)")
    assert scope == f"{live_server.url}/t/"
    cut_network(page.context, cut=True)
    page.reload()
    page.get_by_test_id("phone-kept").wait_for()

    # The secretary gives the table a fresh card while the phone is offline.
    services.table_renew_link(table_id=played.table.pk)
    cut_network(page.context, cut=False)
    page.get_by_test_id("dead-link").wait_for(timeout=10_000)
    assert page.get_by_test_id("phone-kept").count() == 0
    assert not copy_kept(page, path)  # the dead link's page replaced the copy, not kept
    shot(page, "phone-offline-reload-4-dead")

    # Offline again, neither the dead link nor the new card's link is answered by a copy
    # (the browser's own error page: nothing was kept): the old table's page is never shown
    # for another link.
    cut_network(page.context, cut=True)
    with pytest.raises(PlaywrightError, match="net::ERR_"):
        page.reload()
    fresh = Table.objects.get(pk=played.table.pk).token
    with pytest.raises(PlaywrightError, match="net::ERR_"):
        page.goto(f"{live_server.url}/t/{fresh}/")


def test_a_phone_reloaded_on_a_wifi_that_hangs_shows_its_page_in_seconds(
    browser_page, live_server, played
):
    """The club's Wi-Fi hangs rather than fails: chromium waited a minute or more on the
    reload, on a white page. The worker waits a few seconds (NETWORK_WAIT_MS), then answers
    with its copy, saying the connection did not answer; the load it gave up waiting for,
    answered at last, brings the page up to date (the copy's line put away, which the hand
    sent meanwhile did not do), and the hand waiting goes once."""
    path = f"/t/{played.table.token}/"
    page = browser_page
    posts, first_kept = kept_with_hand_waiting(
        page,
        f"{live_server.url}{path}",
        path,
        makers="EW",
        tricks=5,
        waiting="Not sent yet: 1 hand",
    )

    # Reloaded while every request hangs: the copy, in seconds, the service's page unanswered.
    hung = reload_unanswered(page, waiting="Not sent yet: 1 hand")
    assert hung.holds_page(path)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "phone-offline-reload-5-unanswered-360")

    answered_again(page, hung)
    said = "Kept on this phone, then sent and recorded: hand 2."
    assert words(page.get_by_test_id("phone-sent")) == said
    assert len(posts) == 1, posts
    hands = Hand.objects.filter(rubber=played.rubber).order_by("number")
    assert [(hand.number, hand.data["makers"], hand.tricks) for hand in hands] == [
        (1, "NS", 3),
        (2, "EW", 5),
    ]
    assert kept_at(page, path) > first_kept  # the page's late answer kept for the next time
    shot(page, "phone-offline-reload-6-answered")

    # A link with no copy kept (another table's, unknown here) is never answered by one:
    # past the worker's wait it still waits for the service, as without the worker.
    hung = HungNetwork(page.context)
    with pytest.raises(PlaywrightTimeout):
        page.goto(f"{live_server.url}/t/no-such-card/", timeout=(NETWORK_WAIT_S + 2) * 1000)
    assert hung.holds_page("/t/no-such-card/")
    hung.release()
    page.wait_for_url(re.compile(r"/t/no-such-card/$"))
    page.wait_for_load_state()
    assert page.get_by_test_id("phone-kept").count() == 0
    assert "Table 1" not in words(page.locator("body"))
