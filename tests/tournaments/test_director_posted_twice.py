"""The director's "fresh link" for a progressive's table posted twice (a double tap, Back
then resubmit) renews the link once: the form sends the link as the page showed it
(club.services.phone_link_version), and a link renewed since is refused in words, the card
just printed left working."""

import html

import pytest

from club.services import phone_link_version
from tournaments.models import TournamentTable

pytestmark = pytest.mark.django_db


def link(tournament, number=1) -> TournamentTable:
    return TournamentTable.objects.get(tournament=tournament, number=number)


def words_of(response) -> str:
    return " ".join(html.unescape(response.content.decode()).split())


def test_the_directors_fresh_link_posted_twice_renews_once(directing, round_one):
    page = words_of(directing.get(f"/secretary/tournaments/{round_one.pk}/"))
    seen = phone_link_version(link(round_one))
    assert f'name="table" value="1"><input type="hidden" name="link" value="{seen}">' in page
    form = {"action": "new_link", "table": "1", "link": seen}
    url = f"/secretary/tournaments/{round_one.pk}/act/"
    first = directing.post(url, form)
    assert "Table 1 has a fresh link: print its new card" in words_of(first)
    renewed = link(round_one)
    other = link(round_one, 2).token
    again = directing.post(url, form)
    assert again.status_code == 400
    words = words_of(again)
    assert "Table 1's link was renewed already at " in words and "print its card" in words
    assert "Table 1 has a fresh link" not in words
    assert (link(round_one).token, link(round_one).replaced_token) == (
        renewed.token,
        renewed.replaced_token,
    )
    assert f"/p/{renewed.token}/" in words  # the page as it is now
    assert link(round_one, 2).token == other
