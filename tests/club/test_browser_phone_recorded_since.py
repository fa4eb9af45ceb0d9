"""Two phones at one table, in Debian's chromium at a phone's width: a hand waiting in one
phone's queue for a number the other phone has recorded since is said on the queue's line
as soon as the sheet's poll shows it, so the players can look at the sheet before it goes;
it is still sent as it is, and refused then (409, hand 3 already recorded), never
recorded twice. A hand already sent once, its answer not back, may be the one the sheet
shows: the line says so rather than blame the other phone. The same when the other
phone's hand ended the rubber, and the page has no entry form to read the table from.
Screenshot in artifacts/screenshots/phone-recorded-since.png."""

import pytest

from club import recording
from tests.browser import PHONE, enter_hand, refusal_shown, shot
from tests.phone_races import hands_waiting, recorded_since
from tests.worlds import sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_hand_waiting_for_a_number_the_other_phone_recorded_is_said_at_once(
    browser_page, live_server, played
):
    # The first phone's hand 2 hangs (a slow service), its hand 3 waits behind it; the
    # other phone records hands 2 and 3 meanwhile, and the first phone's line says so.
    race = recorded_since(browser_page, f"{live_server.url}/t/{played.table.token}/", 2)
    first, queue, since = race.first, race.queue, race.since
    words = " ".join(since.inner_text().split())
    assert (
        "Hand 3 is on the sheet already: another phone at this table recorded it since it "
        "was entered here. Look at the sheet before it goes: the hand 3 waiting here is "
        "refused when it is sent, not recorded twice" in words
    ), words
    # Hand 2 went out once: the sheet's hand 2 may be its own, its answer lost.
    assert (
        "Hand 2 is on the sheet already: recorded by this phone, if its answer was lost on "
        "the way, or by another phone at this table." in words
    ), words
    assert "Not sent yet: 2 hands waiting (hand 2, hand 3)" in queue.inner_text()
    assert first.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(first, "phone-recorded-since")

    # Both hands are refused as recorded already, said in words, nothing recorded twice.
    race.release()
    # Hand 2, refused while hand 3 waited, is listed; hand 3's refusal is the answer shown.
    refused = first.get_by_test_id("refused-hand")
    assert refused.count() == 1
    assert "Hand 2 (" in refused.inner_text() and "was not recorded" in refused.inner_text()
    assert "Hand 3 is already recorded at this table" in refusal_shown(first), refusal_shown(first)
    assert since.count() == 0
    assert sheet(played) == [("NS", 3), ("NS", 3), ("NS", 5)]


def test_a_hand_waiting_for_the_number_that_ended_the_rubber_is_said_too(
    browser_page, live_server, played
):
    """The other phone's hand ends the rubber: the page then has no entry form (the rubber
    is over, law 15), and the hand waiting here for that number is still said on the
    queue's line; sent, it is refused (409), never recorded."""
    # N-S have won the first two games (ruling E1), and the third is played all the same
    # (law 1): they begin it with their lap of one (ruling E2).
    for number in range(2, 7):
        recording.hand_record(
            evening_id=played.evening.pk,
            table_number=1,
            data={"makers": "NS", "tricks": 5},
            expected_number=number,
        )
    race = hands_waiting(browser_page, f"{live_server.url}/t/{played.table.token}/", 7)
    first, second = race.first, race.second
    # The other phone records hands 7 and 8, marches: N-S win the third game, the rubber
    # is over.
    notice = second.get_by_test_id("phone-notice")
    enter_hand(second, makers="NS", tricks=5)
    notice.filter(has_text="Hand 7 recorded.").wait_for()
    enter_hand(second, makers="NS", tricks=5)
    second.get_by_text("The rubber is over.").wait_for()

    since = race.since
    race.poll("Hand 8 is on the sheet already")  # its poll, on its own clock (every 3 s)
    words = " ".join(since.inner_text().split())
    assert (
        "Hand 8 is on the sheet already: another phone at this table recorded it since it "
        "was entered here. Look at the sheet before it goes" in words
    ), words
    assert "Hand 7 is on the sheet already: recorded by this phone" in words, words
    assert first.get_by_test_id("phone-queue").is_visible()

    race.release()
    played.rubber.refresh_from_db()
    assert played.rubber.status == "complete"
    assert sheet(played) == [("NS", 3)] + [("NS", 5)] * 7
