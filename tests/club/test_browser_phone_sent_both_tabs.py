"""A table's link open in two tabs of one phone (its card scanned twice), in Debian's
chromium at a phone's width: a hand kept on the phone while the network was gone, then
sent and recorded, is said so in both tabs ("Kept on this phone, then sent and recorded:
hand 2."), not only in the tab that happened to send it; the player looking at the other
tab otherwise saw the hand vanish from the queue with no word of it
(static/js/phone-queue.js, `showDelivered`). Screenshots in
artifacts/screenshots/phone-sent-both-tabs-*.png."""

import pytest

from scoring.models import Hand
from tests.browser import enter_hand, open_phone, shot
from tests.club.test_browser_phone_offline_reload import cut_network, wait_until_kept, words

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SENT = "Kept on this phone, then sent and recorded: hand 2."


def test_a_hand_kept_then_sent_is_said_sent_in_both_tabs(browser_page, live_server, played):
    path = f"/t/{played.table.token}/"
    first = open_phone(browser_page, f"{live_server.url}{path}")
    wait_until_kept(first, path)
    second = open_phone(first.context.new_page(), f"{live_server.url}{path}")

    cut_network(first.context, cut=True)
    enter_hand(first, makers="EW", tricks=4)
    for tab in (first, second):
        tab.get_by_test_id("phone-queue").filter(has_text="Not sent yet: 1 hand").wait_for()

    cut_network(first.context, cut=False)
    for tab in (first, second):
        tab.get_by_test_id("phone-sent").filter(has_text=SENT).wait_for(timeout=20_000)
        assert words(tab.get_by_test_id("phone-sent")) == SENT
        assert tab.get_by_test_id("phone-queue").is_hidden()
    assert Hand.objects.filter(rubber=played.rubber).count() == 2
    shot(second, "phone-sent-both-tabs-1-other-tab")

    # The next hand queued in either tab puts the line away in both.
    enter_hand(second, makers="NS", tricks=3)
    for tab in (first, second):
        tab.get_by_test_id("phone-sent").wait_for(state="hidden")
