"""Two phones at a progressive's table (`/p/<token>/`, Debian's chromium at 360 px): a deal
waiting in one phone's queue for a number the other phone has recorded since is said on
the queue's line as soon as the sheet's poll shows it, as at an evening's table
(tests/club/test_browser_phone_recorded_since.py); sent, it is refused (409), never
recorded twice; the same when the other phone's deal was the round's last (four deals a
round here), and the page has no entry form.
Screenshot in artifacts/screenshots/table-phone-recorded-since.png."""

import pytest

from club import recording
from tests.browser import PHONE, enter_hand, shot
from tests.phone_races import hands_waiting, recorded_since
from tests.tournaments.test_table_phone import at_table, hands
from tournaments.models import TournamentTable

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_deal_waiting_for_a_number_the_other_phone_recorded_is_said_at_once(
    browser_page, live_server, four_deals
):
    token = TournamentTable.objects.get(tournament=four_deals, number=1).token
    race = recorded_since(browser_page, f"{live_server.url}/p/{token}/", 1)
    first, since = race.first, race.since
    words = " ".join(since.inner_text().split())
    assert "another phone at this table recorded it since it was entered here" in words
    assert first.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(first, "table-phone-recorded-since")

    race.release()
    assert [(h["makers"], h["tricks"]) for h in hands(at_table(four_deals))] == [
        ("NS", 3),
        ("NS", 5),
    ]


def test_a_deal_waiting_for_the_round_s_last_deal_recorded_since_is_said_too(
    browser_page, live_server, four_deals
):
    """The other phone records the round's last fixed deal (four a round here): the page
    then has no entry form (the round over at this table), and the deal waiting here for
    that number is still said on the queue's line; sent, it is refused (409)."""
    table = at_table(four_deals)
    for number in (1, 2):
        recording.hand_record(
            rubber_id=table.rubber_id, data={"makers": "NS", "tricks": 3}, expected_number=number
        )
    token = TournamentTable.objects.get(tournament=four_deals, number=1).token
    race = hands_waiting(browser_page, f"{live_server.url}/p/{token}/", 3)
    second = race.second
    notice = second.get_by_test_id("phone-notice")
    enter_hand(second, makers="NS", tricks=3)
    notice.filter(has_text="Hand 3 recorded.").wait_for()
    enter_hand(second, makers="NS", tricks=3)
    second.get_by_test_id("table-state").filter(has_text="Round 1 is over at this table").wait_for()

    since = race.since
    race.poll("Hand 4 is on the sheet already")  # its poll, on its own clock (every 3 s)
    words = " ".join(since.inner_text().split())
    assert "another phone at this table recorded it since it was entered here" in words, words

    race.release()
    assert [(h["makers"], h["tricks"]) for h in hands(at_table(four_deals))] == [("NS", 3)] * 4
