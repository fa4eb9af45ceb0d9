"""A table's phone never shows an older state than it has shown, in Debian's chromium at a
phone's width: the sheet's poll sent before a hand's answer but answered after it (a slow
network, nobody typing) is dropped (static/js/phone-queue.js, `fresher`), so the sheet
keeps the hand just recorded and the form offers the next number; the next poll, sent
after the answer, is the one that counts. The same script serves a progressive's table
(tests/tournaments/test_browser_table_phone_stale_poll.py).
Screenshot in artifacts/screenshots/phone-stale-poll.png."""

import pytest

from tests.browser import PHONE, enter_hand, open_phone, shot
from tests.phone_races import hold_a_poll, shows_the_hand_recorded
from tests.worlds import club_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def played(django_capture_on_commit_callbacks):
    """Table 1 of a Euchre evening; hand 1 (N-S, three tricks) is recorded. The club asks
    the other side to confirm each hand recorded from a phone (club/confirmations.py)."""
    played = club_in_play(django_capture_on_commit_callbacks)
    played.club.confirm_hands = True
    played.club.save(update_fields=["confirm_hands"])
    return played


def test_a_poll_answered_after_a_hand_does_not_bring_back_the_table_before_it(
    browser_page, live_server, played
):
    path = f"/t/{played.table.token}/"
    page = open_phone(browser_page, f"{live_server.url}{path}")
    # A poll leaves with hand 2 not yet entered; its answer (the sheet of hand 1 alone,
    # the form for hand 2, no hand waiting for the other side's word) is slow to come back.
    release = hold_a_poll(page, path)
    enter_hand(page, makers="EW", tricks=4)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    shows_the_hand_recorded(page, number=2, tricks="4")
    confirm = page.get_by_test_id("confirm-hand-2")
    assert "North-South may confirm it or dispute it" in " ".join(confirm.inner_text().split())
    # It comes back after hand 2's answer: dropped, older than what the page shows. The
    # hand stays on the sheet, the form offers hand 3, and N-S are still asked for their
    # word on hand 2 (the old answer's part for the other side's word was swapped in).
    release()
    shows_the_hand_recorded(page, number=2, tricks="4")
    assert confirm.is_visible()
    assert page.get_by_test_id("confirm-2-NS").is_visible()
    assert "Hand 2 recorded." in page.get_by_test_id("phone-notice").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "phone-stale-poll")
