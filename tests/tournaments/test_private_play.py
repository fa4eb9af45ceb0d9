"""A progressive whose standings are not public keeps its play to the club's officers: on
a public club, its rounds' rubbers are left out of the club's page, a player's record (his
figures, seasons, scorecard and rubbers) and the API, and a round's rubber is 404 to the
public, as a private club's is; its secretary, directors and staff see everything. A
ladder's evenings stay the club's, public whatever the ladder (docs/security.md).

The door by door matrix (every role, every route) is tests/test_permissions.py's."""

import datetime
import html
import re

import pytest

from tests.conftest import token_client
from tests.factories import ClubFactory, UserFactory
from tests.worlds import public_club_with_private_play
from tournaments import services

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


@pytest.fixture
def played(django_capture_on_commit_callbacks):
    return public_club_with_private_play(django_capture_on_commit_callbacks)


def _player(client, played) -> str:
    return text(client.get(f"/clubs/somerset/players/{played.members['Ann'].pk}/"))


def test_a_players_record_leaves_out_a_private_progressive_for_the_public(client, played):
    """Ann played a hand at the 1888 evening and a hand in the progressive's round 1, this
    year: the public sees the evening's alone, his figures and his seasons included."""
    this_year = datetime.date.today().year
    page = _player(client, played)
    assert "Hands 1 " in page  # the evening's hand, not the round's
    assert "Season 1888, evening by evening" in page
    assert "Seasons:" not in page  # 1888 alone: not the round's season
    assert "rubbers outside an evening" not in page
    for officer in (played.secretary, played.director):
        client.force_login(officer)
        page = _player(client, played)
        assert "Hands 2 " in page
        assert f"Seasons: {this_year} · 1888" in page
        assert f"Season {this_year}, evening by evening" in page
        assert "rubbers outside an evening" in page


def test_a_players_record_in_the_api_leaves_it_out_too(api, played):
    path = f"/api/v1/clubs/somerset/players/{played.members['Ann'].pk}/"
    other = UserFactory(username="other")
    ClubFactory(slug="tremont", secretaries=[other])
    for outsider in (api, token_client(other)):
        body = outsider.get(path).json()
        assert body["figures"]["hands"] == 1
        assert [row["rubber"] for row in body["rubbers"]] == [played.rubber.pk]
    for officer in (played.secretary, played.director):
        body = token_client(officer).get(path).json()
        assert body["figures"]["hands"] == 2
        assert {row["rubber"] for row in body["rubbers"]} == {
            played.rubber.pk,
            played.round_rubber.pk,
        }


def test_a_rounds_rubber_is_no_rubber_to_the_public(client, played):
    page = f"/clubs/somerset/rubbers/{played.round_rubber.pk}/"
    assert client.get(page).status_code == 404
    assert page not in client.get("/clubs/somerset/").content.decode()  # not in play
    client.force_login(played.director)
    assert client.get(page).status_code == 200
    assert page in client.get("/clubs/somerset/").content.decode()


def test_standings_made_public_show_the_play_and_private_hide_it_again(client, played):
    page = f"/clubs/somerset/rubbers/{played.round_rubber.pk}/"
    services.tournament_update(tournament=played.progressive, is_public=True)
    assert client.get(page).status_code == 200
    assert "Hands 2 " in _player(client, played)
    services.tournament_update(tournament=played.progressive, is_public=False)
    assert client.get(page).status_code == 404
    assert "Hands 1 " in _player(client, played)


def test_a_private_ladders_evening_stays_the_clubs(client, api, played):
    """The ladder "winter" counts the evening and its standings are not public: the
    ladder's pages are refused, the evening and its rubber are not."""
    evening = played.evening.pk
    assert client.get("/clubs/somerset/tournaments/winter/").status_code == 404
    assert "Winter" not in text(client.get("/clubs/somerset/"))
    results = client.get(f"/clubs/somerset/evenings/{evening}/")
    assert f"/clubs/somerset/rubbers/{played.rubber.pk}/" in results.content.decode()
    assert client.get(f"/clubs/somerset/rubbers/{played.rubber.pk}/").status_code == 200
    assert client.get(f"/clubs/somerset/evenings/{evening}/room/").status_code == 200
    hands = api.get(f"/api/v1/clubs/somerset/evenings/{evening}/hands.csv")
    assert hands.status_code == 200 and "Ann" in hands.content.decode()


def test_a_rounds_rubber_is_named_by_its_progressive_round_and_table(client, played):
    """On the club's page and the rubber's own, a round's rubber is "Spring, round 1,
    table 1", not its number; a rubber played for no stake says so, not "0.00 a point"."""
    client.force_login(played.secretary)
    home = text(client.get("/clubs/somerset/"))
    assert "Spring, round 1, table 1 — Euchre" in home
    assert f"Rubber {played.round_rubber.pk}" not in home
    assert "Table 1 — Euchre" in home  # the evening's table, as before
    answer = client.get(f"/clubs/somerset/rubbers/{played.round_rubber.pk}/")
    page = text(answer)
    assert "Played at Spring , round 1, table 1" in page
    assert 'href="/clubs/somerset/tournaments/spring/"' in answer.content.decode()
    assert "Stake Not played for money" in page
    evening_rubber = text(client.get(f"/clubs/somerset/rubbers/{played.rubber.pk}/"))
    assert "Played at" not in evening_rubber
    assert f"Stake {played.rubber.stake} " in evening_rubber
