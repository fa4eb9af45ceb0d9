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
