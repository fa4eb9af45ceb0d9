"""Public pages: standings that poll with ETags, cached by version; club, evening and
player pages; private clubs and tournaments stay invisible."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.conftest import hand, record, start, sweep
from tournaments import services

FRAGMENT = "/clubs/somerset/tournaments/winter/standings/"


def test_standings_page_shows_ranked_players(client, club, evening, ladder, commit):
    record(commit, start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"]), *sweep("NS"))
    page = client.get("/clubs/somerset/tournaments/winter/").content.decode()
    assert "Winter ladder" in page
    assert page.index("Ann") < page.index("Bob")  # winners first
    assert "=1" in page  # partners tie
    assert 'hx-trigger="every 2s"' in page


def test_fragment_answers_304_until_a_hand_changes_the_version(
    client, club, evening, ladder, commit
):
    rubber = start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"])
    record(commit, rubber, hand("NS", 3))
    first = client.get(FRAGMENT)
    etag = first["ETag"]
    assert first.status_code == 200
    assert client.get(FRAGMENT, headers={"If-None-Match": etag}).status_code == 304
    record(commit, rubber, hand("NS", 5))
    changed = client.get(FRAGMENT, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    assert ">3<" in changed.content.decode().replace(" ", "")  # Ann's points: 1 + 2


def test_a_version_is_read_from_the_database_once(client, club, evening, ladder, commit):
    record(commit, start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"]), hand("NS", 3))
    client.get(FRAGMENT)
    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            assert client.get(FRAGMENT).status_code == 200
    sql = " ".join(q["sql"] for q in queries.captured_queries)
    assert "standingsversion" not in sql
    assert len(queries.captured_queries) <= 3 * 2  # club and tournament look-ups only


def test_private_tournament_and_private_club_are_invisible(client, club, ladder, secretary):
    services.tournament_update(tournament=ladder, is_public=False)
    assert client.get("/clubs/somerset/tournaments/winter/").status_code == 404
    assert client.get(FRAGMENT).status_code == 404
    assert "Winter ladder" not in client.get("/clubs/somerset/").content.decode()
    client.force_login(secretary)
    assert client.get("/clubs/somerset/tournaments/winter/").status_code == 200
    client.logout()
    services.tournament_update(tournament=ladder, is_public=True)
    club.is_public = False
    club.save()
    assert client.get("/clubs/somerset/tournaments/winter/").status_code == 404


def test_club_evening_and_player_pages(client, club, evening, ladder, commit, roster):
    finished = start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"])
    record(commit, finished, *sweep("NS"))  # three double games and two: worth 8 (E4)
    start(club, evening, ["Edith", "Frank"], ["Bob", "Dan"])
    home = client.get("/clubs/somerset/").content.decode()
    assert "Winter ladder" in home
    assert "Tables in play" in home and "0 hands" in home
    results = client.get(f"/clubs/somerset/evenings/{evening.pk}/").content.decode()
    assert "2.00 USD" in results  # Ann: value 8 x stake 0.25 (ruling M1)
    assert "-2.00 USD" in results
    player = client.get(f"/clubs/somerset/players/{roster['Ann'].pk}/").content.decode()
    assert "won 8" in player


@pytest.mark.parametrize(
    "path",
    ["/clubs/somerset/", "/clubs/somerset/tournaments/winter/", FRAGMENT],
)
def test_public_pages_have_bounded_queries(
    client, club, evening, ladder, commit, path, django_assert_max_num_queries
):
    for _ in range(3):
        record(commit, start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"]), *sweep("NS"))
    with django_assert_max_num_queries(8):
        assert client.get(path).status_code == 200


def test_a_players_record_in_the_api(api, club, evening, ladder, commit, roster):
    record(commit, start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"]), *sweep("NS"))
    body = api.get(f"/api/v1/clubs/somerset/players/{roster['Ann'].pk}/").json()
    assert body["figures"]["rubbers_won"] == 1 and body["figures"]["stake_won"] == "2.00"
    assert body["rubbers"][0]["won"] is True and body["rubbers"][0]["value"] == 8
