"""Moments on the public pages in the site's time zone (settings.TIME_ZONE), the zone
named as people name it, the same way on every page (core.moments): the standings' "Worked
out", also in the crowd's cached copy (tournaments/pagecache.py), a rubber's end and a
hand's correction; never UTC read off an ISO string when the club plays in London."""

import datetime
import html
import re

import pytest

from core.moments import moment_words
from tests.tournaments.conftest import hand, record, start, sweep
from tournaments.models import StandingsVersion

SUMMER = datetime.datetime(2026, 7, 1, 3, 4, tzinfo=datetime.UTC)
WINTER = datetime.datetime(2026, 12, 1, 23, 40, tzinfo=datetime.UTC)


def words(response) -> str:
    assert response.status_code == 200
    text = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(html.unescape(text).split())


@pytest.fixture
def london(settings):
    settings.TIME_ZONE = "Europe/London"


@pytest.mark.parametrize(
    ("zone", "moment", "said"),
    [
        ("Europe/London", SUMMER, "at 04:04 BST on 1 July 2026"),
        ("Europe/London", WINTER, "at 23:40 GMT on 1 December 2026"),
        ("Asia/Dubai", WINTER, "at 03:40 UTC+04 on 2 December 2026"),  # the tz database: "+04"
        ("UTC", SUMMER, "at 03:04 UTC on 1 July 2026"),
    ],
)
def test_a_moment_in_words_in_the_sites_zone(settings, zone, moment, said):
    settings.TIME_ZONE = zone
    assert moment_words(moment) == said
    assert moment_words(moment.isoformat()) == said  # as the standings keep it


def test_the_standings_say_when_they_were_worked_out_in_the_clubs_zone(
    london, client, club, evening, ladder, commit
):
    record(commit, start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"]), hand("NS", 3))
    StandingsVersion.objects.filter(tournament=ladder).update(created_at=SUMMER)
    said = "Worked out at 04:04 BST on 1 July 2026."
    first = words(client.get("/clubs/somerset/tournaments/winter/"))
    assert said in first and "UTC" not in first
    # The crowd's copy, kept rendered, says the same; so does the polled fragment.
    assert said in words(client.get("/clubs/somerset/tournaments/winter/"))
    assert said in words(client.get("/clubs/somerset/tournaments/winter/standings/"))


def test_a_rubbers_end_and_its_corrections_are_in_the_clubs_zone(
    london, client, club, evening, roster, commit
):
    rubber = start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"])
    record(commit, rubber, *sweep("NS"))
    rubber.refresh_from_db()
    type(rubber).objects.filter(pk=rubber.pk).update(completed_at=WINTER)
    page = words(client.get(f"/clubs/somerset/rubbers/{rubber.pk}/"))
    assert "Finished at 23:40 GMT on 1 December 2026" in page
    from scoring.models import HandCorrection

    corrected = rubber.hands.get(number=1)
    HandCorrection.objects.create(
        hand=corrected, kind="referee", law="law 5", reason="miscounted",
        previous_data=corrected.data, previous_points=corrected.points, data=corrected.data,
    )  # fmt: skip
    HandCorrection.objects.filter(hand=corrected).update(at=SUMMER)  # made on creation
    corrected.correction_count = 1
    corrected.save(update_fields=["correction_count"])
    page = words(client.get(f"/clubs/somerset/rubbers/{rubber.pk}/"))
    assert ", at 04:04 BST on 1 July 2026 (law 5, ruling E9)" in page


def test_the_clubs_tables_in_play_say_when_they_were_read(london, client, club, monkeypatch):
    # The club's page does not follow play by itself: it said "2 of 4 deals played" of a
    # table long finished, with nothing saying when. It says when it was read, in the
    # site's zone.
    from django.utils import timezone

    monkeypatch.setattr(timezone, "now", lambda: WINTER)
    page = words(client.get(f"/clubs/{club.slug}/"))
    assert "As they stood at 23:40 GMT on 1 December 2026: reload the page for the latest" in page
