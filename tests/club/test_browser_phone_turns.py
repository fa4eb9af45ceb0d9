"""Two phones at one table recording the hands in turn, in Debian's chromium at a phone's
width: a phone left idle while the other records, takes back or corrects a hand follows
the table by itself, its form offering the next hand, its heading the next dealer and its
correction form the hand as corrected, so the hand entered on it next is recorded, not
refused as one recorded already; a phone whose player has a panel open, or is shown a
refusal, is left as it is (static/js/phone-queue.js, the poll's swap).
Screenshots in artifacts/screenshots/phone-turns-*.png."""

import pytest

from scoring.models import Hand
from tests.browser import PHONE, TABLE_POLL_MS, enter_hand, fill_hand, open_two_phones, polled, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def next_hand(page) -> str:
    return page.locator("form.hand[data-kind=record] .form-title").inner_text()


def test_a_phone_left_idle_follows_the_hands_the_other_phone_records(
    browser_page, live_server, played
):
    url = f"{live_server.url}/t/{played.table.token}/"
    first, second = open_two_phones(browser_page, url, clock=True)
    assert "Cora deals hand 2" in first.inner_text("#table-live")

    enter_hand(second, makers="EW", tricks=3)
    second.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    # The first phone, untouched, follows by its poll: hand 3, dealt by Bob (law 28).
    first.clock.run_for(TABLE_POLL_MS)
    first.locator("form.hand[data-kind=record] .form-title", has_text="Hand 3").wait_for()
    assert "Bob deals hand 3" in first.inner_text("#table-live")
    assert first.get_by_test_id("last-hand").locator("> summary").inner_text() == "Correct hand 2"
    assert first.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(first, "phone-turns-1-followed")

    # Hand 3 entered on the first phone is recorded as hand 3, no refusal.
    enter_hand(first, makers="NS", tricks=5)
    first.get_by_test_id("phone-notice").filter(has_text="Hand 3 recorded.").wait_for()
    assert first.get_by_test_id("phone-error").count() == 0
    second.clock.run_for(TABLE_POLL_MS)
    second.locator("form.hand[data-kind=record] .form-title", has_text="Hand 4").wait_for()

    # The second phone takes hand 3 back (entered on the wrong table, say): the first
    # offers hand 3 again.
    second.get_by_test_id("take-back").locator("> summary").click()
    second.get_by_role("button", name="Yes, take back hand 3").click()
    second.get_by_test_id("phone-notice").wait_for()
    first.clock.run_for(TABLE_POLL_MS)
    first.locator("form.hand[data-kind=record] .form-title", has_text="Hand 3").wait_for()
    recorded = Hand.objects.filter(rubber=played.rubber).order_by("number")
    assert [(h.data["makers"], h.data["tricks"]) for h in recorded] == [("NS", 3), ("EW", 3)]


def test_a_phone_with_its_correction_open_is_left_as_it_is(browser_page, live_server, played):
    url = f"{live_server.url}/t/{played.table.token}/"
    first, second = open_two_phones(browser_page, url, clock=True)
    first.get_by_test_id("last-hand").locator("> summary").click()  # reading hand 1
    before = first.inner_text("#table-sheet")

    enter_hand(second, makers="EW", tricks=3)
    second.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    # Its next poll, on its own clock, answered and swapped in.
    polled(first, f"/t/{played.table.token}/", run_for=TABLE_POLL_MS)
    # The panel the player opened stays open and says what it said; the sheet follows.
    assert first.get_by_test_id("last-hand").get_attribute("open") is not None
    assert first.get_by_test_id("last-hand").locator("> summary").inner_text() == "Correct hand 1"
    assert first.inner_text("#table-sheet") != before


def test_a_refusal_shown_stays_while_the_other_phone_records(browser_page, live_server, played):
    url = f"{live_server.url}/t/{played.table.token}/"
    first, second = open_two_phones(browser_page, url, clock=True)
    # Law 102 ticked without a lone hand: refused at once, the form back as it was sent.
    form = fill_hand(first, makers="NS", tricks=4)
    form.locator("details.irregular summary").click()
    form.locator("input[name=law102]").check()
    form.get_by_test_id("record-hand").click()
    first.get_by_test_id("phone-error").filter(has_text="law 102").wait_for()

    enter_hand(second, makers="EW", tricks=3)
    second.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    # Its next poll, on its own clock, answered and swapped in.
    polled(first, f"/t/{played.table.token}/", run_for=TABLE_POLL_MS)
    # The refusal and the hand as it was sent are still there to put right.
    assert "law 102" in first.get_by_test_id("phone-error").inner_text()
    form = first.locator("form.hand[data-kind=record]")
    assert form.locator("input[name=makers][value=NS]").is_checked()
    assert form.locator("input[name=tricks]").input_value() == "4"
    assert form.locator("input[name=law102]").is_checked()


def test_a_phone_left_idle_follows_the_other_phones_correction(browser_page, live_server, played):
    url = f"{live_server.url}/t/{played.table.token}/"
    first, second = open_two_phones(browser_page, url, clock=True)

    # The second phone corrects hand 1: N-S took five tricks, not three (law 5).
    second.get_by_test_id("last-hand").locator("> summary").click()
    second.locator("form[data-kind=correct] input[name=tricks]").fill("5")
    second.get_by_test_id("correct-hand").click()
    second.get_by_test_id("phone-notice").filter(has_text="Hand 1 corrected.").wait_for()

    # The first phone, untouched, offers hand 1 to correct as it now stands: a correction
    # made on it changes the hand as corrected, never the hand as it was.
    tricks = first.locator("form[data-kind=correct] input[name=tricks]")
    first.clock.run_for(TABLE_POLL_MS)  # its poll's interval, on its own clock
    first.wait_for_function(
        "document.querySelector('form[data-kind=correct] input[name=tricks]').value === '5'"
    )
    assert first.get_by_test_id("last-hand").locator("> summary").inner_text() == (
        "Correct hand 1 (corrected already)"
    )
    first.get_by_test_id("last-hand").locator("> summary").click()
    first.locator("form[data-kind=correct] input[name=makers][value=EW]").check()
    assert tricks.input_value() == "5"
    first.get_by_test_id("correct-hand").click()
    first.get_by_test_id("phone-notice").filter(has_text="Hand 1 corrected.").wait_for()
    recorded = Hand.objects.get(rubber=played.rubber, number=1)
    assert (recorded.data["makers"], recorded.data["tricks"]) == ("EW", 5)
