"""A reader past the public pages' rate (THROTTLE_PUBLIC, config.ratelimit.public_render),
in Debian's chromium at a phone's and a laptop's width: the page refused says in words why
and how long to wait, and leads back to the club's page; a page already put together is
still shown him. Screenshots in artifacts/screenshots/public-throttle-*.png."""

import re

import pytest
from rest_framework.settings import api_settings

from club.models import Member
from config.throttles import PublicPageThrottle
from tests.browser import shot
from tests.worlds import euchre_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def two_a_minute(monkeypatch):
    small = {**api_settings.DEFAULT_THROTTLE_RATES, "public": "2/min"}
    monkeypatch.setattr(PublicPageThrottle, "THROTTLE_RATES", small)


@pytest.mark.parametrize("width", [360, 1280])
def test_a_reader_past_the_rate_is_told_in_words_and_led_back(
    browser_page, live_server, club, redis, two_a_minute, width
):
    euchre_table(club)  # Ann, Bob, Cora and Dan at table 1 of a public club
    players = {m.name: m.pk for m in Member.objects.filter(club=club)}
    page = browser_page
    page.set_viewport_size({"width": width, "height": 800})
    for name in ("Ann", "Bob"):
        answer = page.goto(f"{live_server.url}/clubs/somerset/players/{players[name]}/")
        assert answer.status == 200
    answer = page.goto(f"{live_server.url}/clubs/somerset/players/{players['Cora']}/")
    assert answer.status == 429
    assert page.get_by_role("heading", level=1).inner_text() == "Too many pages asked for"
    said = " ".join(page.get_by_test_id("too-many").inner_text().split())
    assert re.fullmatch(
        r"This page would have to be put together afresh, and more such pages were asked "
        r"for from your address in the last minute than the club makes for one reader\. "
        r"Wait (\d+) seconds?, then load the page again\. Pages already put together for "
        r"other readers \(the standings as they stand\) are still served at once\.",
        said,
    ), said
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"public-throttle-{width}")
    page.get_by_role("link", name="Back to the club's page").click()
    page.wait_for_url(f"{live_server.url}/clubs/somerset/")
    # Ann's page, put together already, is shown him still.
    answer = page.goto(f"{live_server.url}/clubs/somerset/players/{players['Ann']}/")
    assert answer.status == 200
