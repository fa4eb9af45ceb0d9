"""Two phones at a progressive's table (`/p/<token>/`, Debian's chromium at 360 px): a deal
waiting in one phone's queue for a number the other phone has recorded since is said on
the queue's line as soon as the sheet's poll shows it, as at an evening's table
(tests/club/test_browser_phone_recorded_since.py); sent, it is refused (409), never
recorded twice; the same when the other phone's deal was the round's last (four deals a
round here), and the page has no entry form.
Screenshot in artifacts/screenshots/table-phone-recorded-since.png."""

import contextlib

import pytest
from playwright.sync_api import Error as PlaywrightError

from club import recording
from tests.browser import PHONE, enter_hand, open_two_phones, shot
from tests.club.test_browser_phone_recorded_since import two_hands_waiting
from tests.tournaments.test_table_phone import at_table, hands
from tournaments import rounds
from tournaments.models import TournamentTable

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def four_deals(make, director):
    """A rotation progressive of four deals a round, round 1 seated, nothing recorded."""
    tournament = make("rotation", deals=4)
    rounds.round_seat_next(tournament_id=tournament.pk, user=director)
    return tournament


def test_a_deal_waiting_for_a_number_the_other_phone_recorded_is_said_at_once(
    browser_page, live_server, four_deals
):
    token = TournamentTable.objects.get(tournament=four_deals, number=1).token
    first, second = open_two_phones(browser_page, f"{live_server.url}/p/{token}/", clock=True)
    held, statuses = two_hands_waiting(first, (1, 2))

    notice = second.get_by_test_id("phone-notice")
    enter_hand(second, makers="NS", tricks=3)
    notice.filter(has_text="Hand 1 recorded.").wait_for()
    enter_hand(second, makers="NS", tricks=5)
    notice.filter(has_text="Hand 2 recorded.").wait_for()

    queue = first.get_by_test_id("phone-queue")
    since = first.get_by_test_id("recorded-since")
    first.clock.run_for(3_000)  # its poll, on its own clock (every 3 s)
    since.filter(has_text="Hand 2 is on the sheet already").wait_for()
    words = " ".join(since.inner_text().split())
    assert "another phone at this table recorded it since it was entered here" in words
    assert first.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(first, "table-phone-recorded-since")

    with contextlib.suppress(PlaywrightError):  # given up already, it goes again itself
        held[0].continue_()
    queue.wait_for(state="hidden")
    assert statuses == [409, 409], statuses
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
    first, second = open_two_phones(browser_page, f"{live_server.url}/p/{token}/", clock=True)
    held, statuses = two_hands_waiting(first, (3, 4))
    notice = second.get_by_test_id("phone-notice")
    enter_hand(second, makers="NS", tricks=3)
    notice.filter(has_text="Hand 3 recorded.").wait_for()
    enter_hand(second, makers="NS", tricks=3)
    second.get_by_test_id("table-state").filter(has_text="Round 1 is over at this table").wait_for()

    since = first.get_by_test_id("recorded-since")
    first.clock.run_for(3_000)  # its poll, on its own clock (every 3 s)
    since.filter(has_text="Hand 4 is on the sheet already").wait_for()
    words = " ".join(since.inner_text().split())
    assert "another phone at this table recorded it since it was entered here" in words, words

    with contextlib.suppress(PlaywrightError):  # given up already, it goes again itself
        held[0].continue_()
    first.get_by_test_id("phone-queue").wait_for(state="hidden")
    assert statuses == [409, 409], statuses
    assert [(h["makers"], h["tricks"]) for h in hands(at_table(four_deals))] == [("NS", 3)] * 4
