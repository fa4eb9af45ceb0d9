"""The director's round table and the form making a tournament past the account's rate
(config.ratelimit: the API's per-account window, THROTTLE_USER), in Debian's chromium at a
laptop's and a phone's width: the refusal said in words, how long to wait included,
nothing done; the deal kept in the page's queue to go again by itself, the form as typed.
Screenshots in artifacts/screenshots/director-throttle-*.png."""

import re

import pytest
from rest_framework.settings import api_settings

from config.throttles import UserRateThrottle
from tests.browser import enter_hand, log_in, shot
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = "document.documentElement.scrollWidth"
WAIT_WORDS = (
    r"Too many requests from your account in the last minute; wait \d+ seconds and try again\."
)


@pytest.fixture
def one_a_minute(monkeypatch):
    small = {**api_settings.DEFAULT_THROTTLE_RATES, "user": "1/min"}
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", small)


def said(locator) -> str:
    return " ".join(locator.inner_text().split())


@pytest.mark.parametrize("width", [1280, 360])
def test_past_the_rate_the_tables_deal_waits_in_the_queue_and_says_why(
    browser_page, live_server, four_deals, one_a_minute, width
):
    page = browser_page
    page.set_viewport_size({"width": width, "height": 800})
    log_in(page, live_server, "director")
    page.goto(f"{live_server.url}/secretary/tournaments/{four_deals.pk}/rounds/1/tables/1/")
    enter_hand(page, makers="NS", tricks=3)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 1 recorded.").wait_for()
    with page.expect_response(re.compile(r"/tables/1/$")) as answer:
        enter_hand(page, makers="EW", tricks=4)
    assert answer.value.status == 429
    queue = page.get_by_test_id("phone-queue")
    queue.filter(has_text="Too many requests").wait_for()
    assert re.fullmatch(
        r"Not sent yet: 1 hand waiting \(hand 2\)\. " + WAIT_WORDS + " Nothing was recorded. "
        r"What is waiting is kept on this phone and sent by itself then\.",
        said(queue),
    ), said(queue)
    rubber = four_deals.rounds.get(number=1).tables.get(number=1).rubber
    assert rubber.hands.count() == 1
    assert page.evaluate(WIDTH) <= width
    shot(page, f"director-throttle-table-{width}")


@pytest.mark.parametrize("width", [1280, 360])
def test_past_the_rate_the_new_tournament_form_comes_back_as_typed(
    browser_page, live_server, club, director, one_a_minute, width
):
    page = browser_page
    page.set_viewport_size({"width": width, "height": 800})
    log_in(page, live_server, "director")
    new = f"{live_server.url}/secretary/clubs/{club.slug}/tournaments/new/"
    for name, slug in [("Winter ladder", "winter"), ("Spring ladder", "spring")]:
        page.goto(new)
        page.fill("input[name=name]", name)
        page.fill("input[name=slug]", slug)
        with page.expect_navigation():
            page.get_by_test_id("create").click()
    refusal = page.locator("[role=alert]").first
    assert re.fullmatch(WAIT_WORDS + " No tournament was created.", said(refusal)), said(refusal)
    assert page.input_value("input[name=name]") == "Spring ladder"
    assert page.input_value("input[name=slug]") == "spring"
    assert list(Tournament.objects.values_list("slug", flat=True)) == ["winter"]
    assert page.evaluate(WIDTH) <= width
    shot(page, f"director-throttle-new-{width}")
