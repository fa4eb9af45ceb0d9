"""A progressive's table's phone (`/p/<token>/`, Debian's chromium at 360 px) reloaded while
the Wi-Fi is down: it uses the same queue and the same service worker (served at
/p/phone-worker.js, its scope the progressive's links) as an evening's table's phone, so the
reload shows the kept copy of the table's page, saying it is one, and the deal waiting;
back online, the deal is recorded once; on a Wi-Fi that hangs rather than fails, the copy
answers in seconds (docs/architecture.md, "A reload with no network").
Screenshots in artifacts/screenshots/table-phone-offline-reload-*.png."""

import pytest

from scoring.models import Hand
from tests.browser import (
    PHONE,
    answered_again,
    back_online,
    enter_hand_offline,
    kept_with_hand_waiting,
    open_phone,
    reload_offline,
    reload_unanswered,
    shot,
    wait_until_kept,
    words,
)
from tests.tournaments.test_table_phone import at_table
from tournaments import rounds
from tournaments.models import TournamentTable

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def seated(make, director):
    """A rotation progressive of two deals a round, its round 1 seated: (it, table 1's
    link's path)."""
    tournament = make("rotation", deals=2)
    rounds.round_seat_next(tournament_id=tournament.pk, user=director)
    token = TournamentTable.objects.get(tournament=tournament, number=1).token
    return tournament, f"/p/{token}/"


def test_a_progressives_phone_reloaded_offline_shows_its_page_and_the_deal_waiting(
    browser_page, live_server, seated
):
    tournament, path = seated
    page = open_phone(browser_page, f"{live_server.url}{path}")
    wait_until_kept(page, path)
    scope = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.scope)")
    assert scope == f"{live_server.url}/p/"
    enter_hand_offline(page, makers="EW", tricks=4, waiting="Not sent yet: 1")
    reload_offline(page, waiting="Not sent yet: 1")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "table-phone-offline-reload-1-kept")

    # Back online: the deal goes by itself, once (tests.browser.back_online).
    back_online(page)
    deals = Hand.objects.filter(rubber_id=at_table(tournament).rubber_id)
    assert [(deal.number, deal.data["makers"], deal.tricks) for deal in deals] == [(1, "EW", 4)]
    shot(page, "table-phone-offline-reload-2-sent")


def test_a_progressives_phone_reloaded_on_a_wifi_that_hangs_shows_its_page_in_seconds(
    browser_page, live_server, seated
):
    tournament, path = seated
    page = browser_page
    posts, _ = kept_with_hand_waiting(
        page, f"{live_server.url}{path}", path, makers="EW", tricks=4, waiting="Not sent yet: 1"
    )
    # Every request hangs: the copy in seconds, saying the connection did not answer
    # (tests.browser.reload_unanswered); answered again, the deal goes once.
    hung = reload_unanswered(page, waiting="Not sent yet: 1")
    assert hung.holds_page(path)
    shot(page, "table-phone-offline-reload-3-unanswered")
    answered_again(page, hung)
    assert words(page.get_by_test_id("phone-sent")).startswith("Kept on this phone, then sent")
    assert len(posts) == 1, posts
    deals = Hand.objects.filter(rubber_id=at_table(tournament).rubber_id)
    assert [(deal.number, deal.data["makers"], deal.tricks) for deal in deals] == [(1, "EW", 4)]
