"""A player's page names his places in the club's tournaments, each linked to its
standings (a reader who came from a ladder finds his way back), and never a private
tournament's to the public (its standings are for the club's officers alone)."""

import pytest

from club.models import Member
from tests.tournaments.conftest import record, start, sweep

pytestmark = pytest.mark.django_db


def test_the_player_page_names_his_place_in_a_public_ladder_not_a_private_one(
    client, club, ladder, evening, commit
):
    record(commit, start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"]), *sweep("NS"))
    ann = Member.objects.get(club=club, name="Ann")
    page = client.get(f"/clubs/somerset/players/{ann.pk}/").content.decode()
    assert "In the club&#x27;s tournaments" in page or "In the club's tournaments" in page
    assert 'href="/clubs/somerset/tournaments/winter/">Winter ladder</a>: placed =1 of' in page

    ladder.is_public = False
    ladder.save(update_fields=["is_public"])
    page = client.get(f"/clubs/somerset/players/{ann.pk}/").content.decode()
    assert "Winter ladder" not in page and "tournaments/winter/" not in page


def test_a_rubber_at_an_evening_is_dated_by_its_evening(client, club, evening, roster, commit):
    """The rubbers' list dated a rubber by the day it was keyed in (today), where the
    evening it was played at, on the same page's scorecard, said 21 November 1888: an
    evening entered afterwards contradicted itself."""
    import datetime
    import re

    record(commit, start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"]), *sweep("NS"))
    ann = Member.objects.get(club=club, name="Ann")
    page = client.get(f"/clubs/somerset/players/{ann.pk}/").content.decode()
    rubbers = page[page.index("<h2", page.index("scorecard-h") + 20) :]
    first = re.search(r"<tbody>\s*<tr><td>([^<]*)</td>", rubbers).group(1)
    assert first == f"{evening.date.day} {evening.date:%B %Y}", first
    assert first != f"{datetime.date.today().day} {datetime.date.today():%B %Y}"
