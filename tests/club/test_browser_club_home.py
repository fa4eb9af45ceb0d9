"""A club's page as the public reads it (Playwright driving Debian's chromium)."""

import pytest

from club import recording
from tests.browser import shot
from tournaments import rounds, services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [360, 1280])
def test_a_round_of_fixed_deals_in_play_says_how_many_of_its_deals(
    browser_page, live_server, club, django_capture_on_commit_callbacks, width
):
    """A progressive's round of four deals is won by the side ahead after them (ruling
    P1). Its table in play read "1 hand" on the club's page, where the room display says
    "1 of 4 deals played": the club's page says it too."""
    with django_capture_on_commit_callbacks(execute=True):
        tournament = services.tournament_create(
            club=club, name="Thanksgiving progressive", slug="thanksgiving",
            kind="progressive", ruleset="euchre-somerset-1888", movement="cut",
            deals_per_round=4,
        )  # fmt: skip
        for name in ["Ann", "Bob", "Cora", "Dan"]:
            rounds.tournament_enter(tournament=tournament, name=name)
        table = rounds.round_seat_next(tournament_id=tournament.pk).tables.get()
        recording.hand_record(rubber_id=table.rubber_id, data={"makers": "NS", "tricks": 3})
    page = browser_page
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(f"{live_server.url}/clubs/somerset/")
    line = " ".join(page.locator("ul.cards li").first.inner_text().split())
    assert line.startswith("Thanksgiving progressive, round 1, table 1")
    assert "1 of 4 deals played" in line and "1 hand" not in line
    shot(page, f"club-home-fixed-deals-{width}")
