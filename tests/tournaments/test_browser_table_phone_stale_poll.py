"""A progressive's table phone (`/p/<token>/`, Debian's chromium at 360 px) never shows an
older state than it has shown: the sheet's poll sent before a deal's answer but answered
after it is dropped, as at an evening's table (the same static/js/phone-queue.js;
tests/club/test_browser_phone_stale_poll.py, where the old answer's part for the other
side's word showed it). The sheet keeps the deal just recorded, the form offers the next."""

import pytest

from tests.browser import enter_hand, open_phone
from tests.phone_races import hold_a_poll, shows_the_hand_recorded
from tournaments.models import TournamentTable

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_poll_answered_after_a_deal_does_not_bring_back_the_table_before_it(
    browser_page, live_server, four_deals
):
    path = f"/p/{TournamentTable.objects.get(tournament=four_deals, number=1).token}/"
    page = open_phone(browser_page, f"{live_server.url}{path}")
    release = hold_a_poll(page, path)  # sent with nothing recorded, slow to come back
    enter_hand(page, makers="EW", tricks=4)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 1 recorded.").wait_for()
    shows_the_hand_recorded(page, number=1, tricks="4")
    release()
    shows_the_hand_recorded(page, number=1, tricks="4")
    assert "Hand 1 recorded." in page.get_by_test_id("phone-notice").inner_text()
