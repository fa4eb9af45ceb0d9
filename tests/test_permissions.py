"""The permission matrix: every API endpoint and page, for anonymous users, a table's
phone, the club's secretary, another club's secretary and staff, on a private club; and
every API endpoint and the phone page for the other kinds of table link (dead: evening
closed, table broken up, expired, replaced; live: another table, another club's table).

A private club is invisible (404) to all but its secretaries and staff; a table's live
link reads only its own table's rubbers and hands, its own evening and its club's name,
and writes only its own table's hands; a dead link gets 401 (API) or 403 (phone page)
saying why; writes need the secretary (403 for those who can see but not change). A new URL must
be added here: the last test fails for any API route the matrix does not cover.
"""

import datetime

import pytest
from django.utils import timezone
from django.utils.html import escape
from rest_framework.test import APIClient

from club import evenings, services
from club.models import Club, Evening, Table
from club.selectors import ASK_FOR_NEW_CARD, DEAD_LINK, DEAD_LINK_ASK, EVENING_OVER_PRIVATE
from tests.club.closing_helpers import close_abandoning
from tests.conftest import rows_for_the_module, token_client
from tests.factories import ClubFactory, MemberFactory, TableFactory, UserFactory
from tests.routes import url_patterns
from tests.worlds import club_in_play, second_table

ROLES = ["anonymous", "table", "secretary", "other", "staff"]
NS_MARCH = {"makers": "NS", "tricks": 5}
# Closing settles the rubber in play at table 1 (club.closing).
CLOSE_ANSWERS = {"rubbers": [{"table": 1, "rubber": 1, "outcome": "abandoned", "reason": "x"}]}

# (method, path, body, {role: status}); {s} the club, {e} evening, {r} rubber, {m} member,
# {tok} the table's token. "anonymous" and "other" see nothing of a private club.
HIDDEN = {"anonymous": 404, "other": 404}
# A table's link is no one's login: of a private club it reads only its own table's
# rubbers and hands, its own evening and the club's name (TABLE_READ); nothing else.
READ = {**HIDDEN, "table": 404, "secretary": 200, "staff": 200}
TABLE_READ = {**READ, "table": 200}
SECRETARY_READ = {**HIDDEN, "table": 404, "secretary": 200, "staff": 200}
WRITE = {**HIDDEN, "table": 404}
MATRIX = [
    ("get", "/api/v1/clubs/", None, dict.fromkeys(ROLES, 200)),
    ("post", "/api/v1/clubs/", {"name": "N", "slug": "new"},
     {"anonymous": 403, "table": 403, "secretary": 403, "other": 403, "staff": 201}),
    ("get", "/api/v1/clubs/{s}/", None, TABLE_READ),
    ("patch", "/api/v1/clubs/{s}/", {"name": "Renamed"}, {**WRITE, "secretary": 200, "staff": 200}),
    ("get", "/api/v1/clubs/{s}/members/", None, READ),
    ("post", "/api/v1/clubs/{s}/members/", {"name": "Zed"}, {**WRITE, "secretary": 201, "staff": 201}),
    ("get", "/api/v1/clubs/{s}/members/{m}/", None, READ),
    ("patch", "/api/v1/clubs/{s}/members/{m}/", {"is_guest": True}, {**WRITE, "secretary": 200, "staff": 200}),
    ("delete", "/api/v1/clubs/{s}/members/{z}/", None, {**WRITE, "secretary": 204, "staff": 204}),
    # A member who has played keeps his record.
    ("delete", "/api/v1/clubs/{s}/members/{m}/", None, {**WRITE, "secretary": 400, "staff": 400}),
    ("get", "/api/v1/clubs/{s}/players/{m}/", None, READ),
    ("get", "/api/v1/rulesets/", None, dict.fromkeys(ROLES, 200)),
    ("post", "/api/v1/scoresheets/score", {"ruleset": "euchre-somerset-1888", "hands": [NS_MARCH]},
     dict.fromkeys(ROLES, 200)),
    ("post", "/api/v1/auth/token/", {"username": "secretary", "password": "correct horse battery"},
     dict.fromkeys(ROLES, 200)),
    # A logout ends the caller's own token; a table's link is no login to end.
    ("post", "/api/v1/auth/logout/", None,
     {"anonymous": 401, "table": 403, "secretary": 204, "other": 204, "staff": 204}),
    ("get", "/api/v1/me/", None, dict.fromkeys(ROLES, 200)),
    ("get", "/api/v1/clubs/{s}/rubbers/", None, TABLE_READ),
    ("post", "/api/v1/clubs/{s}/rubbers/",
     {"ruleset": "euchre-somerset-1888", "players": {"NS": ["Ann", "Bob"], "EW": ["Cora", "Dan"]}},
     {**WRITE, "secretary": 201, "staff": 201}),
    ("get", "/api/v1/clubs/{s}/rubbers/{r}/", None, TABLE_READ),
    ("post", "/api/v1/clubs/{s}/rubbers/{r}/hands/", NS_MARCH,
     {**HIDDEN, "table": 201, "secretary": 201, "staff": 201}),
    ("get", "/api/v1/clubs/{s}/rubbers/{r}/hands/1/", None, TABLE_READ),
    ("get", "/api/v1/clubs/{s}/rubbers/{r}/hands/1/history/", None, {**SECRETARY_READ, "table": 403}),
    ("put", "/api/v1/clubs/{s}/rubbers/{r}/hands/1/", {"hand": NS_MARCH},
     {**HIDDEN, "table": 200, "secretary": 200, "staff": 200}),
    ("post", "/api/v1/clubs/{s}/rubbers/{r}/hands/1/remove/", {},
     {**HIDDEN, "table": 200, "secretary": 200, "staff": 200}),
    ("post", "/api/v1/clubs/{s}/rubbers/{r}/close/", None,
     {**HIDDEN, "table": 400, "secretary": 400, "staff": 400}),  # a rubber ends when won (E1)
    # The other side's word (club/confirmations.py): the table answers for its own hands, the
    # secretary settles; this club asks for no confirmation, so nothing waits (400).
    ("post", "/api/v1/clubs/{s}/rubbers/{r}/hands/1/confirm/", {"by": "EW"},
     {**HIDDEN, "table": 400, "secretary": 400, "staff": 400}),
    ("post", "/api/v1/clubs/{s}/rubbers/{r}/hands/1/dispute/", {"by": "EW", "hand": NS_MARCH},
     {**HIDDEN, "table": 400, "secretary": 400, "staff": 400}),
    ("post", "/api/v1/clubs/{s}/rubbers/{r}/hands/1/settle/", {"reason": "Recounted"},
     {**HIDDEN, "table": 403, "secretary": 400, "staff": 400}),
    ("get", "/api/v1/clubs/{s}/tournaments/", None, READ),
    ("post", "/api/v1/clubs/{s}/tournaments/", {"name": "L", "slug": "l", "kind": "ladder"},
     {**WRITE, "secretary": 201, "staff": 201}),
    ("get", "/api/v1/clubs/{s}/tournaments/winter/", None, READ),
    ("patch", "/api/v1/clubs/{s}/tournaments/winter/", {"name": "W"},
     {**WRITE, "secretary": 200, "staff": 200}),
    ("get", "/api/v1/clubs/{s}/tournaments/winter/standings/", None, READ),
    ("get", "/api/v1/clubs/{s}/tournaments/winter/recalculation/", None, SECRETARY_READ),
    ("get", "/api/v1/clubs/{s}/tournaments/winter/players/", None, READ),
    ("post", "/api/v1/clubs/{s}/tournaments/winter/players/", {"name": "Zed"},
     {**WRITE, "secretary": 400, "staff": 400}),  # a ladder enters no players
    ("post", "/api/v1/clubs/{s}/tournaments/winter/players/{m}/leave/", None,
     {**WRITE, "secretary": 400, "staff": 400}),
    ("post", "/api/v1/clubs/{s}/tournaments/winter/players/{m}/bye/", None,
     {**WRITE, "secretary": 400, "staff": 400}),  # a ladder has no rounds to sit out
    ("delete", "/api/v1/clubs/{s}/tournaments/winter/players/{m}/bye/", None,
     {**WRITE, "secretary": 400, "staff": 400}),  # nor a bye to take back
    ("get", "/api/v1/clubs/{s}/tournaments/winter/rounds/", None, READ),
    ("post", "/api/v1/clubs/{s}/tournaments/winter/rounds/", None,
     {**WRITE, "secretary": 400, "staff": 400}),  # a ladder has no rounds
    # The tables' phone links are bearer secrets: the director's (the secretary's) alone.
    ("get", "/api/v1/clubs/{s}/tournaments/winter/tables/", None, SECRETARY_READ),
    ("post", "/api/v1/clubs/{s}/tournaments/winter/tables/1/new-link/", None,
     {**WRITE, "secretary": 404, "staff": 404}),  # a ladder seats no tables
    ("post", "/api/v1/clubs/{s}/tournaments/winter/recalculation/", None,
     {**WRITE, "secretary": 202, "staff": 202}),
    ("post", "/api/v1/clubs/{s}/tournaments/winter/end/", None,
     {**WRITE, "secretary": 400, "staff": 400}),  # a ladder has no rounds to end after
    ("post", "/api/v1/clubs/{s}/tournaments/winter/results-final/", None,
     {**WRITE, "secretary": 400, "staff": 400}),  # nor results of rounds to declare final
    ("get", "/api/v1/clubs/{s}/evenings/", None, READ),
    ("post", "/api/v1/clubs/{s}/evenings/",
     {"date": "1888-11-22", "ruleset": "bridge-elwell-1907", "stake": "0.10"},
     {**WRITE, "secretary": 201, "staff": 201}),
    ("get", "/api/v1/clubs/{s}/evenings/{e}/", None, TABLE_READ),
    ("post", "/api/v1/clubs/{s}/evenings/{e}/events/", {"type": "arrive", "player": "Edith"},
     {**WRITE, "secretary": 201, "staff": 201}),
    ("post", "/api/v1/clubs/{s}/evenings/{e}/undo/", {"reason": "x"},
     {**WRITE, "secretary": 400, "staff": 400}),  # the last entry is a hand: not undone
    ("get", "/api/v1/clubs/{s}/evenings/{e}/log/", None, SECRETARY_READ),
    ("get", "/api/v1/clubs/{s}/evenings/{e}/tables/", None, SECRETARY_READ),
    ("post", "/api/v1/clubs/{s}/evenings/{e}/tables/1/new-link/", None,
     {**WRITE, "secretary": 200, "staff": 200}),
    ("post", "/api/v1/clubs/{s}/evenings/{e}/tables/1/hands/", {"hand": NS_MARCH},
     {**HIDDEN, "table": 201, "secretary": 201, "staff": 201}),
    ("put", "/api/v1/clubs/{s}/evenings/{e}/tables/1/rubbers/1/hands/1/", {"hand": NS_MARCH},
     {**HIDDEN, "table": 200, "secretary": 200, "staff": 200}),
    ("post", "/api/v1/clubs/{s}/evenings/{e}/tables/1/rubbers/1/hands/1/remove/", {},
     {**HIDDEN, "table": 200, "secretary": 200, "staff": 200}),
    ("post", "/api/v1/clubs/{s}/evenings/{e}/tables/1/close-sitting/", None,
     {**HIDDEN, "table": 400, "secretary": 400, "staff": 400}),  # Euchre has no sittings
    ("post", "/api/v1/clubs/{s}/evenings/{e}/close/", CLOSE_ANSWERS,
     {**WRITE, "secretary": 200, "staff": 200}),
    ("post", "/api/v1/clubs/{s}/evenings/{e}/reopen/", {"reason": "x"},
     {**WRITE, "secretary": 400, "staff": 400}),  # it is open already
    ("get", "/api/v1/clubs/{s}/evenings/{e}/ledger.csv", None, READ),
    ("get", "/api/v1/clubs/{s}/evenings/{e}/hands.csv", None, READ),
]  # fmt: skip

SECRETARY_PAGE = {"anonymous": 302, "table": 302, "secretary": 200, "other": 404, "staff": 200}
PAGES = [
    ("/", dict.fromkeys(ROLES, 200)),
    ("/clubs/{s}/", {**READ, "table": 404}),
    ("/clubs/{s}/evenings/{e}/", {**READ, "table": 404}),
    ("/clubs/{s}/players/{m}/", {**READ, "table": 404}),
    ("/clubs/{s}/players/", {**READ, "table": 404}),
    ("/clubs/{s}/evenings/{e}/room/", {**READ, "table": 404}),
    ("/clubs/{s}/evenings/{e}/room/live/", {**READ, "table": 404}),
    ("/clubs/{s}/tournaments/winter/room/", {**READ, "table": 404}),
    ("/clubs/{s}/tournaments/winter/room/live/", {**READ, "table": 404}),
    ("/clubs/{s}/rubbers/{r}/", {**READ, "table": 404}),
    ("/clubs/{s}/tournaments/winter/", {**READ, "table": 404}),
    ("/clubs/{s}/tournaments/winter/standings/", {**READ, "table": 404}),
    ("/secretary/", {"anonymous": 302, "table": 302, "secretary": 200, "other": 200, "staff": 200}),
    ("/secretary/evenings/{e}/", {"anonymous": 302, "table": 302, "secretary": 200, "other": 404,
                                  "staff": 200}),
    ("/secretary/evenings/{e}/board/", {"anonymous": 302, "table": 302, "secretary": 200,
                                        "other": 404, "staff": 200}),
    ("/secretary/evenings/{e}/sheet/", {"anonymous": 302, "table": 302, "secretary": 200,
                                        "other": 404, "staff": 200}),
    ("/secretary/evenings/{e}/table-cards/", {"anonymous": 302, "table": 302, "secretary": 200,
                                              "other": 404, "staff": 200}),
    ("/secretary/evenings/{e}/tables/1/qr.svg", {"anonymous": 302, "table": 302, "secretary": 200,
                                                 "other": 404, "staff": 200}),
    ("/secretary/tournaments/{t}/", SECRETARY_PAGE),
    ("/secretary/tournaments/{t}/progress/", SECRETARY_PAGE),
    ("/secretary/clubs/{s}/tournaments/new/", SECRETARY_PAGE),
    ("/secretary/clubs/{s}/people/", SECRETARY_PAGE),
    ("/t/{tok}/", dict.fromkeys(ROLES, 200)),  # the table's link is its own key
    ("/t/not-a-token/", dict.fromkeys(ROLES, 404)),
]  # fmt: skip


def build_world(capture_on_commit):
    played = club_in_play(capture_on_commit)
    club, secretary, members, evening = (
        played.club,
        played.secretary,
        played.members,
        played.evening,
    )
    other = UserFactory(username="other")
    ClubFactory(slug="tremont", secretaries=[other])
    staff = UserFactory(username="staff", is_staff=True)
    table = evening.tables.get(number=1)
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Table {table.token}")
    clients = {
        "anonymous": APIClient(),
        "table": phone,
        "secretary": token_client(secretary),
        "other": token_client(other),
        "staff": token_client(staff),
    }
    ids = {
        "s": club.slug,
        "e": evening.pk,
        "r": evening.rubbers.get().pk,
        "m": members["Ann"].pk,
        "z": MemberFactory(club=club, name="Zoe").pk,
        "tok": table.token,
        "t": club.tournaments.get(slug="winter").pk,
    }
    return clients, ids, {"secretary": secretary, "other": other, "staff": staff}


# Built once for the module's 255 tests; each test's changes are undone (a savepoint).
_world = rows_for_the_module(build_world)


@pytest.fixture
def world(db, _world):
    return _world


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    ("method", "path", "body", "expected"), MATRIX, ids=[f"{m} {p}" for m, p, _, _ in MATRIX]
)
def test_api_matrix(world, method, path, body, expected, role):
    clients, ids, _ = world
    if role == "table" and path == "/api/v1/auth/token/":
        pytest.skip("the login endpoint ignores the caller's credentials")
    client = clients[role]
    url = path.format(**ids)
    response = getattr(client, method)(url, body, format="json")
    assert response.status_code == expected[role], (role, url, response.content[:300])
    if response.status_code == 404 and url.startswith("/api/"):
        assert "Ann" not in response.content.decode()


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("path", "expected"), PAGES, ids=[p for p, _ in PAGES])
def test_page_matrix(world, client, path, expected, role):
    _, ids, users = world
    if role in users:
        client.force_login(users[role])
    response = client.get(path.format(**ids))
    assert response.status_code == expected[role], (role, path)


# The other kinds of table link, each tried on every route: four dead links (refused with
# 401 and a code saying why, whatever the route), the live link of another table of the
# same evening (none of table 1's rubbers and hands) and of another club's table (no more
# than the anonymous public).
DEAD = {
    "closed": "evening_closed",
    "broken_up": "table_broken_up",
    "expired": "link_expired",
    "replaced": "link_replaced",
}
OTHER_TABLE = {
    ("get", "/api/v1/clubs/{s}/rubbers/{r}/"): 404,
    ("post", "/api/v1/clubs/{s}/rubbers/{r}/hands/"): 404,
    ("get", "/api/v1/clubs/{s}/rubbers/{r}/hands/1/"): 404,
    ("get", "/api/v1/clubs/{s}/rubbers/{r}/hands/1/history/"): 404,
    ("put", "/api/v1/clubs/{s}/rubbers/{r}/hands/1/"): 404,
    ("post", "/api/v1/clubs/{s}/rubbers/{r}/hands/1/remove/"): 404,
    ("post", "/api/v1/clubs/{s}/rubbers/{r}/close/"): 404,
    ("post", "/api/v1/clubs/{s}/rubbers/{r}/hands/1/confirm/"): 404,
    ("post", "/api/v1/clubs/{s}/rubbers/{r}/hands/1/dispute/"): 404,
    ("post", "/api/v1/clubs/{s}/rubbers/{r}/hands/1/settle/"): 404,
    ("post", "/api/v1/clubs/{s}/evenings/{e}/tables/1/hands/"): 403,
    ("put", "/api/v1/clubs/{s}/evenings/{e}/tables/1/rubbers/1/hands/1/"): 403,
    ("post", "/api/v1/clubs/{s}/evenings/{e}/tables/1/rubbers/1/hands/1/remove/"): 403,
    ("post", "/api/v1/clubs/{s}/evenings/{e}/tables/1/close-sitting/"): 403,
}
TABLE_KINDS = [*DEAD, "other_table", "other_club"]
# What a dead link's page asks of the players, by its reason: a new card only where there
# can be one (this world's club is private: a closed evening's results are its secretary's).
DEAD_ASK = {
    "closed": EVENING_OVER_PRIVATE,
    "broken_up": DEAD_LINK_ASK["table_broken_up"],
    "expired": ASK_FOR_NEW_CARD,
    "replaced": ASK_FOR_NEW_CARD,
}


def table_link_of_kind(kind: str, evening) -> str:
    """A table link of the kind, made as it happens: the evening closed, the table broken
    up, the link past its hours or replaced by a fresh one, another table, another club."""
    table = evening.tables.get(number=1)
    if kind == "closed":
        close_abandoning(evening.pk)
    elif kind == "broken_up":
        table = second_table(evening)
        evenings.evening_act(evening_id=evening.pk, event={"type": "break_up", "table": 2})
    elif kind == "expired":  # the evening was in 1888: a link lives its hours from its issue
        issued = timezone.now() - datetime.timedelta(hours=6, seconds=1)
        Table.objects.filter(pk=table.pk).update(link_issued_at=issued)
    elif kind == "replaced":
        services.table_renew_link(table_id=table.pk)
    elif kind == "other_table":
        table = second_table(evening)
    elif kind == "other_club":
        # Numbered 7, so "Table 1" on the page could only be the world's own table.
        table = TableFactory(number=7, evening__club=ClubFactory(slug="boston", is_public=False))
    return table.token


@pytest.mark.parametrize("kind", TABLE_KINDS)
def test_api_matrix_for_other_table_links(world, kind):
    _, ids, _ = world
    ids = {**ids, "tok": table_link_of_kind(kind, Evening.objects.get(pk=ids["e"]))}
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Table {ids['tok']}")
    for method, path, body, expected in MATRIX:
        if path == "/api/v1/auth/token/":
            continue  # the login endpoint ignores the caller's credentials
        if kind in DEAD:
            want = 401
        elif path == "/api/v1/auth/logout/":
            want = expected["table"]  # any live table link: no login to end
        elif kind == "other_club":
            want = expected["anonymous"]
        else:
            want = OTHER_TABLE.get((method, path), expected["table"])
        url = path.format(**ids)
        response = getattr(phone, method)(url, body, format="json")
        assert response.status_code == want, (kind, method, url, response.content[:300])
        if kind in DEAD:
            error = response.json()["error"]
            assert error["code"] == DEAD[kind]
            assert DEAD_ASK[kind] in error["message"]
        if response.status_code == 404:
            assert "Ann" not in response.content.decode()


@pytest.mark.parametrize("kind", TABLE_KINDS)
def test_phone_page_matrix_for_other_table_links(world, client, kind):
    _, ids, _ = world
    token = table_link_of_kind(kind, Evening.objects.get(pk=ids["e"]))
    page = client.get(f"/t/{token}/")
    post = client.post(f"/t/{token}/hand/", {"makers": "NS", "tricks": "5"})
    if kind in DEAD:
        for response in (page, post):
            assert response.status_code == 403, kind
            assert escape(DEAD_LINK[DEAD[kind]]) in response.content.decode()
            assert escape(DEAD_ASK[kind]) in response.content.decode()
    else:  # a live link: its own table's page, whatever others it is not
        assert page.status_code == 200
        assert "Table 1" not in page.content.decode()


def test_a_table_token_touches_only_its_own_tables_hands(world):
    clients, ids, _ = world
    response = clients["table"].post(
        f"/api/v1/clubs/{ids['s']}/evenings/{ids['e']}/tables/2/hands/",
        {"hand": NS_MARCH},
        format="json",
    )
    assert response.status_code == 403


def test_a_table_link_confirms_only_its_own_tables_hands(world):
    """With the club asking for the other side's word (club/confirmations.py): table 2's
    link neither sees (private club: 404) nor answers for table 1's hand; table 1's does."""
    clients, ids, _ = world
    evening = Evening.objects.select_related("club").get(pk=ids["e"])
    evening.club.confirm_hands = True
    evening.club.save()
    hands = f"/api/v1/clubs/{ids['s']}/rubbers/{ids['r']}/hands/"
    assert clients["table"].post(hands, NS_MARCH, format="json").status_code == 201
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Table {second_table(evening).token}")
    for action, body in [("confirm", {"by": "EW"}), ("dispute", {"by": "EW", "hand": NS_MARCH})]:
        response = other.post(f"{hands}2/{action}/", body, format="json")
        assert response.status_code == 404, response.content
    assert other.post(f"{hands}2/settle/", {"reason": "x"}, format="json").status_code == 404
    own = clients["table"].post(f"{hands}2/confirm/", {"by": "EW"}, format="json")
    assert own.status_code == 200 and own.json()["state"] == "confirmed"


# A tournament director of the private club who is not its secretary: he sees the club
# and runs its tournaments, and may change nothing else (issue #16).
DIRECTOR = [
    ("get", "/secretary/", None, 200),
    ("get", "/secretary/tournaments/{t}/", None, 200),
    ("get", "/secretary/clubs/{s}/tournaments/new/", None, 200),
    ("get", "/secretary/clubs/{s}/people/", None, 403),
    ("get", "/secretary/evenings/{e}/", None, 404),
    ("get", "/api/v1/clubs/{s}/", None, 200),
    ("post", "/api/v1/clubs/{s}/tournaments/", {"name": "L", "slug": "l", "kind": "ladder"}, 201),
    ("patch", "/api/v1/clubs/{s}/tournaments/winter/", {"name": "W"}, 200),
    ("get", "/api/v1/clubs/{s}/tournaments/winter/recalculation/", None, 200),
    ("post", "/api/v1/clubs/{s}/tournaments/winter/recalculation/", None, 202),
    ("post", "/api/v1/clubs/{s}/tournaments/winter/end/", None, 400),  # a ladder: in words
    ("post", "/api/v1/clubs/{s}/tournaments/winter/results-final/", None, 400),
    ("patch", "/api/v1/clubs/{s}/", {"name": "Renamed"}, 403),
    ("post", "/api/v1/clubs/{s}/members/", {"name": "Zed"}, 403),
    ("post", "/api/v1/clubs/{s}/evenings/{e}/events/", {"type": "arrive", "player": "Edith"}, 403),
    ("post", "/api/v1/clubs/{s}/evenings/{e}/undo/", {}, 403),
    ("post", "/api/v1/clubs/{s}/rubbers/{r}/hands/", NS_MARCH, 403),
    ("post", "/api/v1/clubs/{s}/rubbers/{r}/hands/1/confirm/", {"by": "EW"}, 403),
    ("post", "/api/v1/clubs/{s}/rubbers/{r}/hands/1/settle/", {"reason": "Recounted"}, 403),
]


@pytest.mark.parametrize(
    ("method", "path", "body", "expected"), DIRECTOR, ids=[f"{m} {p}" for m, p, _, _ in DIRECTOR]
)
def test_director_matrix(world, client, method, path, body, expected):
    _, ids, _ = world
    director = UserFactory(username="director")
    Club.objects.get(slug=ids["s"]).directors.add(director)
    url = path.format(**ids)
    if url.startswith("/api/"):
        response = getattr(token_client(director), method)(url, body, format="json")
    else:
        client.force_login(director)
        response = getattr(client, method)(url)
    assert response.status_code == expected, (url, response.content[:300])


def test_the_matrix_covers_every_api_route():
    covered = {path for _, path, _, _ in MATRIX}
    routes = set(url_patterns())
    api = {r for r in routes if r.startswith("api/v1/")}
    shapes = {_shape(p.lstrip("/")) for p in covered}
    missing = sorted(r for r in api if _shape(r) not in shapes)
    assert missing == []


def _shape(path: str) -> str:
    """A route with its parameters blanked, so "<int:pk>" and "{e}" compare equal."""
    import re

    return re.sub(r"<[^>]+>|\{[^}]+\}|winter|\b1\b", "*", path)
