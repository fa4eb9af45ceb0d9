"""Input that used to crash a worker (issue 12, section 4): JSON nested a few thousand
levels deep, and digits of other scripts in the forms' whole numbers. Each is refused
with the field and the reason, and changes nothing."""

import pytest

from core.inputs import MAX_JSON_DEPTH, json_depth_exceeds
from tests.conftest import rows_for_the_module
from tests.factories import UserFactory
from tests.worlds import club_in_play, reloaded

DEEP = "[" * 5000 + "]" * 5000


# One world for the module's tests, each test's changes rolled back to its savepoint.
_played = rows_for_the_module(club_in_play)


@pytest.fixture
def played(db, _played):
    return reloaded(_played)


def _secretary_api(played):
    from tests.conftest import token_client

    return token_client(played.secretary)


def _paths(played) -> list[str]:
    slug, evening, rubber = played.club.slug, played.evening.pk, played.rubber.pk
    return [
        "/api/v1/scoresheets/score",
        f"/api/v1/clubs/{slug}/evenings/{evening}/events/",
        f"/api/v1/clubs/{slug}/evenings/{evening}/tables/1/hands/",
        f"/api/v1/clubs/{slug}/rubbers/{rubber}/hands/",
    ]


@pytest.mark.parametrize("where", range(4))
@pytest.mark.parametrize(
    "body",
    [DEEP, '{"hand": ' + DEEP + "}", '{"a": ' * 3000 + "1" + "}" * 3000],
    ids=["list", "in-a-field", "objects"],
)
def test_a_deeply_nested_body_is_refused_before_parsing(played, where, body):
    client = _secretary_api(played)
    version = played.evening.version
    hands = played.rubber.hand_count
    response = client.post(_paths(played)[where], body, content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    error = response.json()["error"]
    assert error["field"] == "body"
    assert str(MAX_JSON_DEPTH) in error["message"]
    played.evening.refresh_from_db()
    played.rubber.refresh_from_db()
    assert (played.evening.version, played.rubber.hand_count) == (version, hands)


def test_the_depth_scan_skips_brackets_in_strings_and_counts_nesting():
    assert not json_depth_exceeds(b'{"name": "' + b"[" * 500 + b'"}')
    assert not json_depth_exceeds(b'["\\"' + b"[" * 100 + b'"]')  # an escaped quote
    assert not json_depth_exceeds(b"[" * MAX_JSON_DEPTH + b"]" * MAX_JSON_DEPTH)
    assert json_depth_exceeds(b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1))
    assert not json_depth_exceeds(b"[[]]" * 1000)  # many, but side by side


def test_a_body_at_the_limit_still_reaches_the_laws(played):
    body = '{"ruleset": "euchre-somerset-1888", "options": ' + "[" * 20 + "]" * 20 + "}"
    response = _secretary_api(played).post(
        "/api/v1/scoresheets/score", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "options"


# --- whole numbers in the HTML forms -----------------------------------------------------


HOSTILE_NUMBERS = ["²", "٣", "\uff13", "three", "1.0", "9" * 40]


@pytest.mark.parametrize("value", HOSTILE_NUMBERS)
@pytest.mark.parametrize("name", ["tricks", "correct"])
def test_the_phone_refuses_what_is_not_written_in_digits(played, client, name, value):
    post = {"makers": "NS", "tricks": "3", name: value}
    version = played.evening.version
    response = client.post(f"/t/{played.table.token}/hand/", post)
    assert response.status_code == 400  # the phone's part of the page, showing the error
    assert b"Not recorded." in response.content
    assert f"hand.{name}".encode() in response.content or name.encode() in response.content
    # The field in words: the laws refuse a trick count, the page a hand's number.
    words = {"tricks": "The tricks taken by the makers:", "correct": "The hand to correct:"}
    assert words[name].encode() in response.content
    played.evening.refresh_from_db()
    assert played.evening.version == version
    assert played.rubber.hands.count() == 1


@pytest.mark.parametrize("value", HOSTILE_NUMBERS)
@pytest.mark.parametrize(
    "post",
    [
        {"type": "arrive", "player": "Edith", "version": "٣"},
        {"type": "leave", "player": "Ann", "table": "٣"},
        {"type": "close_sitting", "table": "²"},
        {"type": "close", "version": "²"},
    ],
    ids=["version", "table", "close_sitting", "close"],
)
def test_the_board_refuses_what_is_not_written_in_digits(played, client, post, value):
    post = {k: (value if v in {"٣", "²"} else v) for k, v in post.items()}
    client.force_login(played.secretary)
    version = played.evening.version
    response = client.post(f"/secretary/evenings/{played.evening.pk}/action/", post)
    assert response.status_code == 200
    assert b"Not done." in response.content
    played.evening.refresh_from_db()
    assert played.evening.version == version
    assert played.evening.status == "open"


@pytest.mark.parametrize(
    ("post", "field"),
    [
        ({"stake": "NaN"}, "stake"),
        ({"stake": "sNaN"}, "stake"),
        ({"stake": "Infinity"}, "stake"),
        ({"stake": "-Infinity"}, "stake"),
        ({"stake": "1e400"}, "stake"),
        ({"stake": "1e-400"}, "stake"),
        ({"stake": "-0.25"}, "stake"),
        ({"club": "abc"}, "club"),
        ({"club": "٣"}, "club"),
        ({"club": "9" * 40}, "club"),
        ({"date": "1888-13-45"}, "date"),
    ],
)
def test_opening_an_evening_refuses_what_is_no_amount_or_club(played, client, post, field):
    client.force_login(played.secretary)
    before = played.club.evenings.count()
    form = {"club": str(played.club.pk), "ruleset": "euchre-somerset-1888", "stake": "0.25"}
    response = client.post("/secretary/", {**form, **post})
    assert response.status_code == 400
    assert f'data-field="{field}"'.encode() in response.content  # for scripts, not shown
    assert f"[{field}]".encode() not in response.content  # a key is no word for people
    assert played.club.evenings.count() == before


def test_opening_an_evening_in_another_club_is_refused(played, client):
    client.force_login(UserFactory(username="stranger"))
    response = client.post(
        "/secretary/", {"club": str(played.club.pk), "ruleset": "euchre-somerset-1888"}
    )
    assert response.status_code == 400
    assert played.club.evenings.count() == 1


# --- a NUL where PostgreSQL's text cannot hold one (core.inputs.search_text) ---------------

# Every door that put a query parameter or a piece of the path into a query as text: a NUL
# in it was a 500 on PostgreSQL ("text fields cannot contain NUL"); SQLite let it through.
NUL_DOORS = [
    ("/clubs/{s}/players/?name=%00", 200),
    ("/clubs/{s}/players/?name=Ann%00", 200),
    ("/clubs/{s}/tournaments/winter/?player=%00", 200),
    ("/clubs/{s}/tournaments/winter/standings/?player=An%00n", 200),
    ("/api/v1/clubs/{s}/rubbers/?status=%00", 400),
    ("/api/v1/clubs/{s}/tournaments/winter/standings/?player=%00", 400),
    ("/t/%00/", 404),
    ("/t/{tok}%00/", 404),
    ("/t/" + "x" * 100 + "/", 404),
]


@pytest.mark.parametrize(("path", "expected"), NUL_DOORS, ids=[p for p, _ in NUL_DOORS])
@pytest.mark.parametrize("who", ["public", "secretary"])
def test_a_nul_in_a_query_or_a_path_is_no_500(played, client, path, expected, who):
    """Guards core.inputs.search_text (the players' and the standings' search boxes),
    club.selectors.table_by_link (a phone link that cannot be one is asked of no database)
    and the rubbers' `?status=` (only a status a rubber can have is asked for; any other is
    refused, naming the field)."""
    played.club.is_public = True
    played.club.save()
    if who == "secretary":
        client.force_login(played.secretary)
    url = path.format(s=played.club.slug, tok=played.table.token)
    response = client.get(url)
    assert response.status_code == expected, (url, response.content[:300])
    if "?status=" in url:
        assert response.json()["error"]["field"] == "status"


def test_a_search_with_a_nul_finds_as_without_it(played, client):
    """The search box drops the NUL a name can never hold (core.inputs.search_text)."""
    played.club.is_public = True
    played.club.save()
    page = client.get(f"/clubs/{played.club.slug}/players/?name=An%00n").content.decode()
    assert "Ann" in page and "Bob" not in page


def test_a_table_token_header_with_a_nul_is_refused_as_unknown(played, api):
    """The API's `Table` authentication asks club.selectors.table_by_link too: a token that
    cannot be one is refused as unknown, not a 500 (PostgreSQL). A header holding a NUL is
    refused before it is read (config/headers.py: 400 naming it), so the authentication
    is asked directly too."""
    from rest_framework.exceptions import AuthenticationFailed

    from club.auth import TableTokenAuthentication

    api.credentials(HTTP_AUTHORIZATION=f"Table {played.table.token}\x00")
    response = api.get(f"/api/v1/clubs/{played.club.slug}/rubbers/")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "Authorization"
    with pytest.raises(AuthenticationFailed, match="Unknown table token"):
        TableTokenAuthentication().authenticate_token(f"{played.table.token}\x00")
