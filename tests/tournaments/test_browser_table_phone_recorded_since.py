"""Two phones at a progressive's table (`/p/<token>/`, Debian's chromium at 360 px): a deal
waiting in one phone's queue for a number the other phone has recorded since is said on
the queue's line as soon as the sheet's poll shows it, as at an evening's table
(tests/club/test_browser_phone_recorded_since.py); sent, it is refused (409), never
recorded twice. Screenshot in artifacts/screenshots/table-phone-recorded-since.png."""

import pytest

from tests.browser import PHONE, shot
from tests.phone_races import recorded_since
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
