"""A player's page as the public reads it (Playwright driving Debian's chromium): where his
rubbers were played, and figures that do not contradict each other."""

import re

import pytest

from club import recording
from club.models import Member
from tests.browser import shot
from tournaments import rounds, services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EIGHT = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Hugh"]


@pytest.fixture
def progressive(club, django_capture_on_commit_callbacks):
    """A public progressive, "Thanksgiving progressive", its round 1 seated, one hand
    recorded at each of its two tables: eight players with a rubber in play there."""
    with django_capture_on_commit_callbacks(execute=True):
        tournament = services.tournament_create(
            club=club, name="Thanksgiving progressive", slug="thanksgiving",
            kind="progressive", ruleset="euchre-somerset-1888", movement="rotation",
        )  # fmt: skip
        for name in EIGHT:
            rounds.tournament_enter(tournament=tournament, name=name)
        seated = rounds.round_seat_next(tournament_id=tournament.pk)
        for table in seated.tables.all():
            recording.hand_record(rubber_id=table.rubber_id, data={"makers": "NS", "tricks": 3})
    return tournament


@pytest.mark.parametrize("width", [360, 1280])
def test_a_players_page_names_the_progressive_he_played_at(
    browser_page, live_server, progressive, width
):
    """Ann's season was one progressive's round: his scorecard's row said "rubbers outside
    an evening" and his list of rubbers said nothing of where each was played, so the
    public could not tell which tournament his figures came from, and the season's line
    said "0 evenings" under it. Both name the progressive, linked to its standings, the
    list says the round and table, and the season's line counts the progressive."""
    page = browser_page
    page.set_viewport_size({"width": width, "height": 800})
    ann = Member.objects.get(club=progressive.club, name="Ann")
    page.goto(f"{live_server.url}/clubs/somerset/players/{ann.pk}/")
    scorecard = page.locator(".scorecard-table tbody tr")
    assert scorecard.count() == 1
    assert "outside an evening" not in scorecard.inner_text()
    named = scorecard.get_by_role("link", name="Thanksgiving progressive")
    assert named.get_attribute("href") == "/clubs/somerset/tournaments/thanksgiving/"
    # The season's line counts it, not "0 evenings" under a row of play.
    total = page.locator(".scorecard-table tfoot").inner_text()
    assert "0 evenings, 1 progressive" in " ".join(total.split())
    rubbers = page.locator(".every-rubber tbody tr")
    assert rubbers.count() == 1
    where = rubbers.get_by_role("link", name="Thanksgiving progressive")
    assert where.get_attribute("href") == "/clubs/somerset/tournaments/thanksgiving/"
    assert re.search(r"round 1, table [12]", rubbers.inner_text())
    shot(page, f"player-page-progressive-{width}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_players_figures_say_which_rubbers_they_count(browser_page, live_server, progressive):
    """His figures' "Rubbers" counted the rubbers finished (0: his round is in play) and
    his scorecard's "Rubbers" the rubbers played (1), on one page under one word: the
    figure says it counts the finished ones."""
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 800})
    ann = Member.objects.get(club=progressive.club, name="Ann")
    page.goto(f"{live_server.url}/clubs/somerset/players/{ann.pk}/")
    figures = dict(
        zip(
            page.locator(".figures dt").all_inner_texts(),
            page.locator(".figures dd").all_inner_texts(),
            strict=True,
        )
    )
    assert figures["Rubbers finished"] == "0"
    assert "Rubbers" not in figures
    played = page.locator(".scorecard-table tfoot td.num").first.inner_text()
    assert played == "1"  # the scorecard's rubbers played, the one in play among them
