"""The permission matrix of a public club's private play (the rows of tests/test_permissions.py
for a tournament whose public standings are off): every door to a progressive's rubbers
and hands, and to a guest whom only a private progressive shows, and the public lists of
rubbers and of the roster, for six kinds of caller."""

import re

import pytest
from rest_framework.test import APIClient

from club.models import Table
from tests.conftest import rows_for_the_module, token_client
from tests.factories import ClubFactory, UserFactory
from tests.worlds import public_club_with_private_play
from tournaments import rounds
from tournaments.services import tournament_create

NS_MARCH = {"makers": "NS", "tricks": 5}  # a march (Somerset law 2), as tests/test_permissions.py

# A public club whose ladder "winter" and progressive "spring" have their public standings
# switched off. The progressive's play (its tables' rubbers and hands) is for the club's
# secretaries, its directors and staff: to anyone else (the public, a table's link of the
# club's evening, another club's secretary) a round's rubber is no rubber at all, 404 as a
# private club's is; a write to it is refused as before anything is read (401, 403), or,
# to the table's link, as another club's rubber (404). The ladder's evening is the club's
# own and stays public, its rubbers with it; the ladder's standings and room do not.
PLAY_ROLES = ["anonymous", "table", "other", "secretary", "director", "staff"]
OFFICERS = {"secretary": 200, "director": 200, "staff": 200}
FOR_OFFICERS = {"anonymous": 404, "table": 404, "other": 404, **OFFICERS}
FOR_ALL = dict.fromkeys(PLAY_ROLES, 200)
PRIVATE_PLAY = [
    ("get", "/clubs/{s}/rubbers/{p}/", None, FOR_OFFICERS),
    ("get", "/api/v1/clubs/{s}/rubbers/{p}/", None, FOR_OFFICERS),
    ("get", "/api/v1/clubs/{s}/rubbers/{p}/hands/1/", None, FOR_OFFICERS),
    ("get", "/api/v1/clubs/{s}/rubbers/{p}/hands/1/history/", None,
     {**FOR_OFFICERS, "director": 403}),  # a hand's history is the secretary's
    ("post", "/api/v1/clubs/{s}/rubbers/{p}/hands/", NS_MARCH,
     {"anonymous": 401, "table": 404, "other": 403, "secretary": 201, "director": 201,
      "staff": 201}),
    ("post", "/api/v1/clubs/{s}/rubbers/{p}/hands/1/confirm/", {"by": "NS"},
     {"anonymous": 401, "table": 404, "other": 403, "secretary": 400, "director": 400,
      "staff": 400}),  # the club asks for no confirmation: nothing waits (400)
    ("get", "/clubs/{s}/tournaments/spring/", None, FOR_OFFICERS),
    ("get", "/clubs/{s}/tournaments/spring/standings/", None, FOR_OFFICERS),
    ("get", "/clubs/{s}/tournaments/spring/room/", None, FOR_OFFICERS),
    ("get", "/clubs/{s}/tournaments/spring/room/live/", None, FOR_OFFICERS),
    ("get", "/api/v1/clubs/{s}/tournaments/spring/", None, FOR_OFFICERS),
    ("get", "/api/v1/clubs/{s}/tournaments/spring/standings/", None, FOR_OFFICERS),
    ("get", "/api/v1/clubs/{s}/tournaments/spring/players/", None, FOR_OFFICERS),
    ("get", "/api/v1/clubs/{s}/tournaments/spring/rounds/", None, FOR_OFFICERS),
    ("get", "/clubs/{s}/tournaments/winter/", None, FOR_OFFICERS),
    ("get", "/clubs/{s}/tournaments/winter/room/", None, FOR_OFFICERS),
    ("get", "/api/v1/clubs/{s}/tournaments/winter/standings/", None, FOR_OFFICERS),
    # The ladder's evening, and its rubber, are the club's.
    ("get", "/clubs/{s}/evenings/{e}/", None, FOR_ALL),
    ("get", "/clubs/{s}/evenings/{e}/room/", None, FOR_ALL),
    ("get", "/clubs/{s}/rubbers/{r}/", None, FOR_ALL),
    ("get", "/api/v1/clubs/{s}/rubbers/{r}/", None, FOR_ALL),
    ("get", "/api/v1/clubs/{s}/evenings/{e}/hands.csv", None, FOR_ALL),
    # Gwen, a guest entered and seated at a private progressive alone, is no player to
    # those who may not see it (docs/security.md); Ann, a member who played there too,
    # is the club's.
    ("get", "/clubs/{s}/players/{g}/", None, FOR_OFFICERS),
    ("get", "/api/v1/clubs/{s}/players/{g}/", None, FOR_OFFICERS),
    ("get", "/api/v1/clubs/{s}/members/{g}/", None, FOR_OFFICERS),
    ("patch", "/api/v1/clubs/{s}/members/{g}/", {"is_guest": True},
     {"anonymous": 403, "table": 403, "other": 403, "secretary": 200, "director": 403,
      "staff": 200}),  # the roster is the secretary's: refused before he is read
    ("get", "/clubs/{s}/players/{m}/", None, FOR_ALL),
    ("get", "/api/v1/clubs/{s}/members/{m}/", None, FOR_ALL),
]  # fmt: skip
# The public lists of rubbers: the evening's rubber on each, the round's only for officers.
PLAY_LISTS = [
    "/clubs/{s}/",  # the tables in play
    "/clubs/{s}/players/{m}/",  # Ann's rubbers, at the evening and in the round
    "/api/v1/clubs/{s}/rubbers/",
    "/api/v1/clubs/{s}/players/{m}/",
]


def build_public_world(capture_on_commit):
    played = public_club_with_private_play(capture_on_commit)
    # A second private progressive, "autumn", whose round 1 seats a guest new to the club
    # beside three members: his seat is in a rubber the public may not read.
    with capture_on_commit(execute=True):
        autumn = tournament_create(
            club=played.club, name="Autumn", slug="autumn", kind="progressive",
            ruleset="euchre-somerset-1888", movement="cut", is_public=False,
        )  # fmt: skip
        for name in ["Gwen", "Ann", "Bob", "Cora"]:
            rounds.tournament_enter(tournament=autumn, name=name)
        rounds.round_seat_next(tournament_id=autumn.pk, user=played.director)
    other = UserFactory(username="other")
    ClubFactory(slug="tremont", secretaries=[other])
    staff = UserFactory(username="staff", is_staff=True)
    users = {"other": other, "secretary": played.secretary, "director": played.director,
             "staff": staff}  # fmt: skip
    ids = {
        "s": played.club.slug,
        "e": played.evening.pk,
        "r": played.rubber.pk,
        "p": played.round_rubber.pk,
        "m": played.members["Ann"].pk,
        "g": played.club.members.get(name="Gwen", is_guest=True).pk,
    }
    return played, users, ids


# Built once for the module's tests; each test's changes are undone (a savepoint).
_public_world = rows_for_the_module(build_public_world)


@pytest.fixture
def public_world(db, _public_world):
    return _public_world


def _as(role: str, users: dict, path: str, client):
    """A client for `role` at `path`: the API's by token (a table by its evening's link);
    a page's by its session (a table's link is no session: the anonymous visitor's)."""
    if path.startswith("/api/"):
        if role in users:
            return token_client(users[role])
        api = APIClient()
        if role == "table":
            table = Table.objects.get(evening__club__slug="somerset", number=1)
            api.credentials(HTTP_AUTHORIZATION=f"Table {table.token}")
        return api
    if role in users:
        client.force_login(users[role])
    return client


@pytest.mark.parametrize("role", PLAY_ROLES)
@pytest.mark.parametrize(
    ("method", "path", "body", "expected"),
    PRIVATE_PLAY,
    ids=[f"{m} {p}" for m, p, _, _ in PRIVATE_PLAY],
)
def test_private_play_matrix(public_world, client, method, path, body, expected, role):
    _, users, ids = public_world
    url = path.format(**ids)
    caller = _as(role, users, url, client)
    kwargs = {"format": "json"} if url.startswith("/api/") else {}
    response = getattr(caller, method)(url, body, **kwargs)
    assert response.status_code == expected[role], (role, url, response.content[:300])
    if response.status_code == 404:
        # The page's words, its form tokens taken out (the 404 page has the site's header,
        # a logged-in caller's log-out form with a random CSRF token: "...UEWN3...").
        page = re.sub(r'value="[^"]*"', "", response.content.decode())
        assert "EW" not in page  # nothing of the round's hand
        assert "Gwen" not in page


def _rubbers_listed(response) -> set[int]:
    """The rubbers a page links to, or an API answer lists."""

    if response["Content-Type"].startswith("application/json"):
        body = response.json()
        rows = body.get("results") or body.get("rubbers") or []
        return {row.get("id", row.get("rubber")) for row in rows}
    return {
        int(pk) for pk in re.findall(r"/clubs/somerset/rubbers/(\d+)/", response.content.decode())
    }


@pytest.mark.parametrize("role", PLAY_ROLES)
@pytest.mark.parametrize("path", PLAY_LISTS)
def test_private_play_is_left_out_of_the_public_lists(public_world, client, path, role):
    _, users, ids = public_world
    url = path.format(**ids)
    response = _as(role, users, url, client).get(url)
    assert response.status_code == 200, (role, url)
    listed = _rubbers_listed(response)
    assert ids["r"] in listed, (role, url)  # the ladder's evening stays the club's
    assert (ids["p"] in listed) == (role in OFFICERS), (role, url, listed)


# The public readers of the roster: Ann on each for everyone, Gwen only for the officers.
ROSTER_LISTS = [
    "/clubs/{s}/players/",
    "/clubs/{s}/players/?name=w",  # the find-player box's search: Gwen, and no one else
    "/api/v1/clubs/{s}/members/",
]


def _names_listed(response) -> list[str]:
    """The players a roster page links to, or the members an API answer lists."""
    if response["Content-Type"].startswith("application/json"):
        return [row["name"] for row in response.json()["results"]]
    return re.findall(r'/clubs/somerset/players/\d+/">([^<]+)<', response.content.decode())


@pytest.mark.parametrize("role", PLAY_ROLES)
@pytest.mark.parametrize("path", ROSTER_LISTS)
def test_a_guest_only_at_private_play_is_left_out_of_the_roster(public_world, client, path, role):
    _, users, ids = public_world
    url = path.format(**ids)
    response = _as(role, users, url, client).get(url)
    assert response.status_code == 200, (role, url)
    listed = _names_listed(response)
    assert ("Gwen" in listed) == (role in OFFICERS), (role, url, listed)
    if "?name=" not in url:
        assert "Ann" in listed, (role, url, listed)  # a member of the club, whatever he played
    else:  # the count says nothing of him either
        count = "1 player whose" if role in OFFICERS else "0 players whose"
        assert f"{count} name contains" in response.content.decode(), (role, url)
