"""A progressive's round of fixed deals decided, as the public meets it on a phone (360 px,
Debian's chromium): its rubber's page and its players' pages say the round is finished and
who won it, though its rubber stays in play while the deals decide the round (ruling P1).
Screenshots in artifacts/screenshots/round-finished-*.png."""

import pytest
from django.urls import reverse

from club.models import Member
from tests.browser import PHONE, settled, shot, words
from tests.tournaments.test_level_rounds import deal
from tests.tournaments.test_progressive import seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = "document.documentElement.scrollWidth"


def test_a_decided_round_reads_finished_on_its_rubber_and_its_players_pages(
    browser_page, live_server, club, make, commit
):
    """Ruling P1: round 1 of two deals, N-S ahead 2 to 0 at table 1 and round 2 seated. The
    rubber's page said "Status: In play" above "Round to ... 2 points to 0", and the
    player's page "Rubbers finished 0, won 0" with round 1 "In progress"; now the round
    reads finished, won by N-S, and the round in play still reads in progress."""
    tournament = make("rotation", deals=2)
    first = seat(tournament)
    for table in first.tables.all():
        for _ in range(2):
            deal(commit, table, {"makers": "NS", "tricks": 3})
    seat(tournament)
    table = first.tables.get(number=1)
    north, _south = table.rubber.players["NS"]
    east, _west = table.rubber.players["EW"]

    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}{reverse('rubber-detail', args=[club.slug, table.rubber_id])}")
    settled(page)
    status = words(page.get_by_test_id("rubber-status"))
    assert status.startswith(f"Finished: the round to {north} & ")
    assert status.endswith("(N-S) (ruling P1)")
    assert "play" not in status.lower()
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "round-finished-1-rubber")

    for name, result in ((north, "won the round"), (east, "lost the round")):
        member = Member.objects.get(club=club, name=name)
        page.goto(f"{live_server.url}{reverse('player-detail', args=[club.slug, member.pk])}")
        settled(page)
        assert words(page.get_by_test_id("rounds-finished")) == "Progressive rounds finished 1"
        won = "1" if result == "won the round" else "0"
        assert words(page.get_by_test_id("rounds-won")) == f"Progressive rounds won {won}"
        rows = page.locator("section.every-rubber tbody tr")
        assert rows.count() == 2
        newest, oldest = words(rows.nth(0)), words(rows.nth(1))
        assert "round 2" in newest and "In progress" in newest  # round 2, not yet played
        assert "round 1" in oldest and f"Round finished {result}" in oldest
        assert "In progress" not in oldest
        assert page.evaluate(WIDTH) <= PHONE["width"]
        shot(page, f"round-finished-2-{'winner' if won == '1' else 'loser'}")


def test_a_rounds_sheet_is_headed_by_its_round_and_table(
    browser_page, live_server, club, make, commit
):
    """A round table's rubber is at no evening's table: its page was headed "Rubber 8", its
    database number (scoring.views.rubber_number); now by its round and table, as the
    tournament's pages name it, and the tab by its tournament too."""
    tournament = make("rotation", deals=1)
    first = seat(tournament)
    for table in first.tables.all():
        deal(commit, table, {"makers": "NS", "tricks": 3})
    second = seat(tournament)
    rubber = second.tables.get(number=2).rubber

    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}{reverse('rubber-detail', args=[club.slug, rubber.pk])}")
    settled(page)
    assert words(page.locator("h1")) == "Round 2, table 2: Euchre (Somerset Club laws, 1888)"
    assert page.title() == f"Round 2, table 2 · {tournament.name} · {club.name}"
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "round-finished-3-heading")
