"""The board's buttons past the rate (config.ratelimit: the API's per-account window), in
Debian's chromium at a laptop's and a phone's width: the refusal is shown on the board in
words, how long to wait included, nothing done, and the name being typed is kept to be
sent again. Screenshots in artifacts/screenshots/board-throttle-*.png."""

import re

import pytest
from rest_framework.settings import api_settings

from club.models import Evening
from config.throttles import UserRateThrottle
from tests.browser import settled, shot
from tests.club.test_browser_board_live import open_board, open_evening

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def three_a_minute(monkeypatch):
    small = {**api_settings.DEFAULT_THROTTLE_RATES, "user": "3/min"}
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", small)


def arrive(page, name: str) -> int:
    settled(page)
    page.fill("#arrive-player", name)
    with page.expect_response(re.compile(r"/action/$")) as answer:
        page.locator("#arrive-form button").first.click()
    settled(page)
    return answer.value.status


@pytest.mark.parametrize("width", [1280, 360])
def test_past_the_rate_the_board_says_so_and_keeps_what_was_typed(
    browser_page, live_server, club, secretary, three_a_minute, width
):
    evening = open_evening(club)
    page = browser_page
    page.set_viewport_size({"width": width, "height": 900})
    open_board(page, live_server, evening)
    assert [arrive(page, name) for name in ("Ann", "Bob", "Cora")] == [200, 200, 200]
    assert arrive(page, "Dan") == 429
    refusal = page.get_by_test_id("refusal")
    refusal.wait_for()
    assert re.fullmatch(
        r"Not done\. Too many requests from your account in the last minute; wait \d+ "
        r"seconds and try again\.",
        " ".join(refusal.inner_text().split()),
    ), refusal.inner_text()
    assert page.input_value("#arrive-player") == "Dan"  # kept, to be sent again
    assert Evening.objects.get(pk=evening.pk).state["present"] == ["Ann", "Bob", "Cora"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"board-throttle-{width}")
