"""A player's record (issue #15, item 7): each evening he played with its tables,
partners, opponents, rubbers won and lost, points and money; the season's totals; found
by name from the club's page."""

import datetime
import html
import re

import pytest

from club.models import Club, Evening, Member
from tests.club.rooms import SWEEP, evening_with_a_table, record, table_one
from tests.conftest import rows_for_the_module

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def _two_evenings(capture_on_commit):
    """Two evenings of 1888: at the first, North-South sweep a rubber (worth 8 at 0.25 a
    point) and start another; the second is in 1889, a season of its own."""
    from tests.factories import ClubFactory

    first = evening_with_a_table(ClubFactory(name="Somerset Club", slug="somerset"))
    seats = table_one(first)["seats"]
    for tricks in SWEEP:
        record(first, "NS", tricks)
    return first, seats


# Made once for the module's tests, each test's changes rolled back to its savepoint.
_played = rows_for_the_module(_two_evenings)


@pytest.fixture
def club(db, _played):
    """The club of the module's evenings (tests/conftest.py's `club` would make another)."""
    first, _ = _played
    return Club.objects.get(pk=first.club_id)


@pytest.fixture
def played(db, _played):
    first, seats = _played
    return Evening.objects.get(pk=first.pk), seats


def test_each_evening_shows_tables_partners_opponents_rubbers_points_and_money(client, played):
    _, seats = played
    winner = Member.objects.get(name=seats["N"])
    page = text(client.get(f"/clubs/somerset/players/{winner.pk}/"))
    assert "Season 1888, evening by evening" in page
    # Date, evening, table 1, his partner, the two opponents, 1 rubber won, 0 lost, his
    # points (three games of 2 + 2 + 1), +2.00. The date in words, as every public page
    # says one, and the evening (untitled) named by it.
    row = re.search(
        r"21 November 1888 Somerset Club 21 November 1888 1 (.+?) (\d+) (\d+) (\d+) (\d+) (\S+)",
        page,
    )
    assert row, page
    names, rubbers, won, lost, points, money = row.groups()
    assert names.startswith(seats["S"])
    assert seats["E"] in names and seats["W"] in names
    # Money won with its plus, lost with a true minus (U+2212), as the evening's ledger
    # and the room display write it (the one `money` filter).
    assert (rubbers, won, lost, points, money) == ("1", "1", "0", "15", "+2.00")
    loser = Member.objects.get(name=seats["E"])
    page = text(client.get(f"/clubs/somerset/players/{loser.pk}/"))
    assert "Season 1888: 1 evening 1 0 1" in page
    assert "\u22122.00" in page and "-2.00" not in page


def test_season_totals_add_the_evenings_of_that_season_only(client, club, played):
    first, _ = played
    later = evening_with_a_table(club, date=datetime.date(1889, 1, 9))
    record(later, "EW", 3)
    # Four of six play each evening, so at least two played both.
    both = sorted(set(table_one(first)["playing"]) & set(table_one(later)["playing"]))[0]
    member = Member.objects.get(name=both)
    page = text(client.get(f"/clubs/somerset/players/{member.pk}/"))
    assert "Season 1889, evening by evening" in page  # the latest season first
    assert "Seasons: 1889 · 1888" in page
    card = page.split("Season 1889, evening by evening")[1].split("Rubbers Date")[0]
    assert "21 November 1888" not in card
    assert "Season 1889: 1 evening 1 0 0" in card  # a rubber begun: neither won nor lost
    old = text(client.get(f"/clubs/somerset/players/{member.pk}/?season=1888"))
    card = old.split("Season 1888, evening by evening")[1]
    assert "9 January 1889" not in card.split("Rubbers Date")[0]
    assert re.search(r"Season 1888: 1 evening 1 [01] [01] ", card)
    unknown = text(client.get(f"/clubs/somerset/players/{member.pk}/?season=1066"))
    assert "Season 1889, evening by evening" in unknown


def test_the_scorecard_prints_with_a_print_stylesheet(client, played):
    _, seats = played
    member = Member.objects.get(name=seats["N"])
    body = client.get(f"/clubs/somerset/players/{member.pk}/").content.decode()
    assert 'class="print-only scorecard-club"' in body
    assert "data-print" in body and "js/print.js" in body
    with open("static/css/site.css") as sheet:
        css = sheet.read()
    assert ".print-only { display: block; }" in css.split("/* a player's record")[1]


def test_a_player_finds_himself_from_the_clubs_page(client, played):
    home = client.get("/clubs/somerset/").content.decode()
    assert 'action="/clubs/somerset/players/"' in home
    assert 'name="name"' in home
    page = client.get("/clubs/somerset/players/", {"name": "an"})
    names = re.findall(r'<a href="/clubs/somerset/players/\d+/">([^<]+)</a>', page.content.decode())
    assert names == ["Ann", "Dan", "Frank"]
    every = client.get("/clubs/somerset/players/")
    assert "Edith" in text(every)
    nobody = text(client.get("/clubs/somerset/players/?name=Zed"))
    assert "No player's name contains “Zed”" in nobody


@pytest.mark.parametrize("season", ["²", "١٨٨٨", "9" * 5000, "-1", "1888.0"])
def test_a_season_not_written_in_ascii_digits_shows_the_latest(client, club, played, season):
    """`?season=²` passes str.isdigit() and int() refused it: a 500 on the player's public
    page (club.views.player_detail). Any season that is not one of his shows the latest."""
    _, seats = played
    south = Member.objects.get(club=club, name=seats["S"])
    response = client.get(f"/clubs/somerset/players/{south.pk}/", {"season": season})
    assert response.status_code == 200
    assert "Season 1888, evening by evening" in text(response)
