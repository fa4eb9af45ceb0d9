"""A body key an API endpoint does not know is refused (core.inputs.BodyInput,
docs/architecture.md "Unknown keys are refused"): 400 in the API's error shape, code
`unknown_key`, `field` the key, the message naming the keys the endpoint takes, and
nothing written. A misspelt key was ignored: `evening_ids` for a ladder's `evenings` made
a ladder with no evenings (201)."""

import ast
import inspect
import json
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from club import api as club_api
from club import api_confirm, api_evenings
from core.inputs import BodyInput
from scoring import api as scoring_api
from scoring import hand_input
from tests.conftest import rows_for_the_module
from tests.worlds import club_in_play, reloaded
from tournaments import api as tournaments_api
from tournaments.models import Tournament

WRITES = ("post", "put", "patch", "delete")
UNKNOWN = "not_a_key"


def _refused_naming(answer, field: str, *known: str) -> dict:
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert error["code"] == "unknown_key", error
    assert error["field"] == field, error
    for key in known:
        assert key in error["message"], error
    return error


def _build_world(capture_on_commit):
    from club.secretary_tokens import token_issue

    played = club_in_play(capture_on_commit)
    played.secretary.is_staff = True
    played.secretary.save()
    played.key, _ = token_issue(user=played.secretary)
    return played


# Made once for the module's tests, each test's changes rolled back to its savepoint.
_world = rows_for_the_module(_build_world)


@pytest.fixture
def world(db, _world):
    """The schema fuzz's world (tests/worlds.py): a club with an evening, its table's
    rubber and a ladder "winter"; its secretary is staff too, so that every write door
    (a club's creation among them) lets him in and reads his body. `client` is the API as
    he is, by a token of his."""
    played = reloaded(_world)
    played.client = APIClient()
    played.client.credentials(HTTP_AUTHORIZATION=f"Token {played.key}")
    return played


def test_a_ladder_with_a_misspelt_key_is_refused_and_not_made(world):
    """The example: `evening_ids` (the field is `evenings`) made a ladder counting no
    evening."""
    answer = world.client.post(
        "/api/v1/clubs/somerset/tournaments/",
        {"name": "Spring", "slug": "spring", "kind": "ladder", "evening_ids": [world.evening.pk]},
        format="json",
    )
    error = _refused_naming(answer, "evening_ids", "evenings", "name", "kind")
    assert "Unknown key 'evening_ids'" in error["message"]
    assert not Tournament.objects.filter(slug="spring").exists()


def test_a_patch_with_an_unknown_key_changes_nothing(world):
    answer = world.client.patch(
        "/api/v1/clubs/somerset/", {"name": "Renamed", "public": True}, format="json"
    )
    _refused_naming(answer, "public", "is_public", "name")
    world.club.refresh_from_db()
    assert world.club.name != "Renamed"


def test_a_key_inside_a_list_of_answers_is_named_by_its_path(world):
    """Closing an evening: the service reads the answers itself (club.closing); a key no
    answer takes is still refused, by its path, and the evening stays open."""
    answer = world.client.post(
        f"/api/v1/clubs/somerset/evenings/{world.evening.pk}/close/",
        {"rubbers": [{"table": 1, "rubber": 1, "outcom": "abandoned", "reason": "late"}]},
        format="json",
    )
    _refused_naming(answer, "rubbers[0].outcom", "outcome", "reason")
    world.evening.refresh_from_db()
    assert world.evening.status != "closed"


def _scored(body: dict):
    """The stateless score sheet's answer to BODY (anyone may post it)."""
    return APIClient().post("/api/v1/scoresheets/score", body, format="json")


def test_a_key_beside_a_scoresheet_is_named_with_the_keys_it_takes(world):
    answer = _scored({"ruleset": "euchre-somerset-1888", "hands": [], "stakes": "0.25"})
    _refused_naming(answer, "stakes", "stake", "hands", "closed")


def test_a_form_post_s_csrf_token_is_no_unknown_key(world):
    """The API reads form encodings too, and a browser's form sends its CSRF token: it is
    never refused as an unknown key (a member added by a logged-in secretary's form)."""
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(world.secretary)
    page = client.get("/api/v1/me/")
    token = page.cookies["csrftoken"].value if "csrftoken" in page.cookies else None
    if token is None:
        client.get("/accounts/login/")
        token = client.cookies["csrftoken"].value
    answer = client.post(
        "/api/v1/clubs/somerset/members/",
        {"name": "Edna", "csrfmiddlewaretoken": token},
        HTTP_X_CSRFTOKEN=token,
    )
    assert answer.status_code == 201, answer.content


def _schema(client) -> dict:
    answer = client.get("/api/schema/", {"format": "json"})
    assert answer.status_code == 200
    return json.loads(answer.content)


def _path(template: str, world) -> str:
    real = {
        "slug": "somerset",
        "tslug": "winter",
        "number": 1,
        "rubber": 1,
        "hand": 1,
        "member": world.members["Ann"].pk,
    }
    pks = {
        "members": world.members["Ann"].pk,
        "players": world.members["Ann"].pk,
        "rubbers": world.rubber.pk,
        "evenings": world.evening.pk,
    }
    for name, value in real.items():
        template = template.replace("{" + name + "}", str(value))
    for collection, pk in pks.items():  # the {pk} (or {id}) after its collection's name
        for name in ("pk", "id"):
            template = template.replace(f"/{collection}/{{{name}}}/", f"/{collection}/{pk}/")
    return template


def _writes(schema: dict, *, with_body: bool):
    """Each write of the OpenAPI schema (drf-spectacular) that takes a body (or, not
    `with_body`, that takes none): (method, its path's template, its operation)."""
    for template, operations in schema["paths"].items():
        for method in WRITES:
            operation = operations.get(method)
            if operation and ("requestBody" in operation) == with_body:
                yield method, template, operation


def _nothing_done(world) -> None:
    """The writes refused did nothing: the token still logs in, Ann is still a member."""
    from club.models import Member

    assert world.client.get("/api/v1/me/").status_code == 200
    assert Member.objects.filter(pk=world.members["Ann"].pk).exists()


def test_every_write_endpoint_with_a_body_refuses_an_unknown_key(world):
    """Walk the OpenAPI schema (drf-spectacular) as the fuzz does: every write that takes
    a body, sent an unknown key beside what it needs to be read, answers 400 naming it."""
    schema = _schema(world.client)
    walked = []
    for method, template, operation in _writes(schema, with_body=True):
        body = {UNKNOWN: 1}
        ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        properties = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]["properties"]
        if "hand" in properties:
            body["hand"] = {}  # the rubber's door reads a body without one as a bare hand
        if template.endswith("/events/"):
            body["type"] = "arrive"  # the service checks an action's keys by its type
        answer = getattr(world.client, method)(_path(template, world), body, format="json")
        error = _refused_naming(answer, UNKNOWN)
        assert "takes" in error["message"], (template, error)
        walked.append(f"{method.upper()} {template}")
    # Every door with a body was walked (the schema lists twenty-odd).
    assert len(walked) >= 20, walked
    assert "POST /api/v1/clubs/{slug}/tournaments/" in walked


def test_every_write_endpoint_without_a_body_refuses_a_body_key(world):
    """The same rule for the writes that take no body (logout, a sitting's close, a
    rubber's close, a member's removal, a table's fresh link, a progressive's leave, bye
    and its taking back, results final, a recalculation): a key sent to one is refused,
    400 `unknown_key` naming it, "this takes no body" in words, and nothing is done. It
    was ignored and the write went ahead (a logout sent a key logged out, 204), as if the
    key had been read."""
    walked = []
    for method, template, _ in _writes(_schema(world.client), with_body=False):
        answer = getattr(world.client, method)(_path(template, world), {UNKNOWN: 1}, format="json")
        error = _refused_naming(answer, UNKNOWN)
        assert "this takes no body" in error["message"], (template, error)
        walked.append(f"{method.upper()} {template}")
    for door in (
        "POST /api/v1/auth/logout/",
        "DELETE /api/v1/clubs/{slug}/members/{id}/",
        "POST /api/v1/clubs/{slug}/rubbers/{id}/close/",
        "POST /api/v1/clubs/{slug}/tournaments/{tslug}/recalculation/",
        "POST /api/v1/clubs/{slug}/tournaments/{tslug}/results-final/",
        "POST /api/v1/clubs/{slug}/tournaments/{tslug}/players/{member}/leave/",
        "POST /api/v1/clubs/{slug}/tournaments/{tslug}/players/{member}/bye/",
        "DELETE /api/v1/clubs/{slug}/tournaments/{tslug}/players/{member}/bye/",
    ):
        assert door in walked, (door, walked)
    _nothing_done(world)


def test_every_write_endpoint_without_a_body_refuses_an_unknown_query_key(world):
    """A write that takes no body reads no query either, but a taking back's `reason`: a
    key of the query it does not read is refused as a body's unknown key is (400
    `unknown_key`, `field` the key), and nothing is done. It was ignored and the write went
    ahead (a logout sent `?not_a_key=1` logged out, 204). Its 400 says so in the schema."""
    from club.models import Member

    schema = _schema(world.client)
    walked = []
    for template, operations in schema["paths"].items():
        for method in WRITES:
            operation = operations.get(method)
            if not operation or "requestBody" in operation:
                continue
            answer = getattr(world.client, method)(f"{_path(template, world)}?{UNKNOWN}=1")
            error = _refused_naming(answer, UNKNOWN)
            assert error["message"].startswith(f"Unknown query key '{UNKNOWN}': this takes"), (
                template,
                error,
            )
            described = operation["responses"]["400"]["description"]
            assert "unknown_key" in described, (template, described)
            walked.append(f"{method.upper()} {template}")
    assert "POST /api/v1/auth/logout/" in walked
    assert "DELETE /api/v1/clubs/{slug}/tournaments/{tslug}/end/" in walked
    # Nothing was done: the token still logs in, and Ann is still a member.
    assert world.client.get("/api/v1/me/").status_code == 200
    assert Member.objects.filter(pk=world.members["Ann"].pk).exists()
    # DRF's format override is read (it chooses the renderer): no unknown key.
    answer = world.client.post("/api/v1/auth/logout/?format=json")
    assert answer.status_code == 204, answer.content


# A body a write that takes none cannot read: of a type the API does not read, or JSON
# that is no object of keys.
_UNREAD_BODIES = [
    ("text/plain", "close it please", 415, "unsupported_media_type", 'type "text/plain"'),
    ("application/json", "[1, 2]", 400, "invalid", "a JSON array"),
    ("application/json", '"close"', 400, "invalid", "a JSON string"),
    ("application/json", "{not json", 400, "parse_error", 'sent as "application/json" cannot'),
]


@pytest.mark.parametrize(("content_type", "body", "status", "code", "said"), _UNREAD_BODIES)
def test_every_write_endpoint_without_a_body_refuses_a_body_it_cannot_read(
    world, content_type, body, status, code, said
):
    """A write that takes no body, sent one it cannot read (text/plain, or JSON that is
    not an object of keys), is refused in words, 415 or 400, and nothing is done: it was
    ignored and the write went ahead, as if what was sent had been read (a logout sent
    "close it please" as text logged out)."""
    walked = []
    for method, template, _ in _writes(_schema(world.client), with_body=False):
        answer = getattr(world.client, method)(
            _path(template, world), body, content_type=content_type
        )
        assert answer.status_code == status, (template, answer.content)
        error = answer.json()["error"]
        assert error["code"] == code, (template, error)
        assert said in error["message"], (template, error)
        assert "takes no body" in error["message"], (template, error)
        walked.append(f"{method.upper()} {template}")
    assert "POST /api/v1/auth/logout/" in walked
    assert "DELETE /api/v1/clubs/{slug}/members/{id}/" in walked
    _nothing_done(world)  # and the rubber still open
    world.rubber.refresh_from_db()
    assert not world.rubber.is_complete


def test_a_bodyless_write_sent_no_body_or_only_a_form_s_csrf_token_goes_ahead(world):
    """An empty body, or a browser form's CSRF token alone, is no body key: the write is
    done (the token logged out)."""
    answer = world.client.post("/api/v1/auth/logout/", {"csrfmiddlewaretoken": "x"})
    assert answer.status_code == 204, answer.content
    assert world.client.get("/api/v1/me/").status_code == 401


API_MODULES = (club_api, api_confirm, api_evenings, scoring_api, hand_input, tournaments_api)


@pytest.mark.parametrize("module", API_MODULES, ids=lambda m: m.__name__)
def test_every_input_serializer_of_the_api_is_a_body_input(module):
    """One way for every input: each serializer of a body (named `...Input`) derives
    from core.inputs.BodyInput, so a new one cannot forget the rule."""
    tree = ast.parse(Path(inspect.getsourcefile(module)).read_text())
    names = [
        node.name
        for node in tree.body
        if isinstance(node, ast.ClassDef) and node.name.endswith("Input")
    ]
    assert names
    for name in names:
        cls = getattr(module, name)
        if name == "HandInput":  # the forms' input object (scoring.hand_input), no serializer
            continue
        assert issubclass(cls, BodyInput), f"{module.__name__}.{name} is not a BodyInput"


@pytest.mark.parametrize(
    ("hand", "field", "words"),
    [
        (
            {"makers": "NS", "tricks": 3, "declarer": "NS"},
            "hand.declarer",
            "unknown key 'declarer': a hand of Euchre (Somerset Club laws, 1888) takes makers, "
            "alone, tricks, revokes, law90, law102 and law50 (no other key is read)",
        ),
        (
            {"hand": {"makers": "NS", "tricks": 3, "trick": 3}},
            "hand.trick",
            "unknown key 'trick': a hand of Euchre (Somerset Club laws, 1888) takes makers, "
            "alone, tricks, revokes, law90, law102 and law50 (no other key is read)",
        ),
    ],
)
def test_a_key_inside_a_hand_is_refused_naming_the_keys_a_hand_takes(world, hand, field, words):
    """Inside a hand the keys are the laws' (scoring.rules.base.check_mapping): a key a
    hand of this game does not take is refused by its path, with the keys it does take,
    in words, as a body's unknown key is; it said only "unknown key 'declarer'"."""
    hands = world.rubber.hands.count()
    answer = world.client.post(
        f"/api/v1/clubs/somerset/rubbers/{world.rubber.pk}/hands/", hand, format="json"
    )
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert (error["field"], error["message"]) == (field, words), error
    assert world.rubber.hands.count() == hands


# A Bridge hand's honours and a Call-Ace deal, each with a key they do not take: the body
# and the key's path.
HONOURS_ACES = (
    {"ruleset": "bridge-elwell-1907", "hands": [
        {"declarer": "NS", "trump": "S", "tricks": {"NS": 8, "EW": 5},
         "honours": {"side": "NS", "held": 4, "in_one_hand": 0, "aces": 1}}]},
    "hands[0].honours.aces",
)  # fmt: skip
DEAL_CALLED = (
    {"ruleset": "call-ace-foster-1905", "players": 5, "deals": [
        {"maker": "0", "tricks": 3, "called": "AS"}]},
    "deals[0].called",
)  # fmt: skip


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        (
            {"ruleset": "bridge-elwell-1907", "hands": [
                {"declarer": "NS", "trump": "S", "tricks": 8, "trumps": "S"}]},
            "hands[0].trumps",
            "unknown key 'trumps': a hand of Bridge (Elwell's laws, revised 1907) takes "
            "declarer, trump, doubles, tricks, honours, chicane and revokes (no other key is "
            "read)",
        ),
        (
            *HONOURS_ACES,
            "unknown key 'aces': a hand's honours takes side, held and in_one_hand (no other "
            "key is read)",
        ),
        (
            *DEAL_CALLED,
            "unknown key 'called': a deal of Call-Ace Euchre (Foster, 1905) takes maker, "
            "partner, alone, tricks, revoke, void, no_score and wrong_cards (no other key is "
            "read)",
        ),
    ],
)  # fmt: skip
def test_every_game_names_the_keys_its_hand_takes(body, field, words):
    """The same in Bridge's hands and their honours and in Call-Ace's deals, on the
    stateless score sheet (scoring.rules.base.check_mapping)."""
    answer = _scored(body)
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert (error["field"], error["message"]) == (field, words), error


# A hand's key a hand does not take, at every door that takes a hand: the rubber's hands
# (a hand recorded, a hand corrected) and the evening table's (the same), each with a
# body that is otherwise a legal hand of Euchre (N-S make, three tricks).
_HAND_DOORS = [
    ("post", "/api/v1/clubs/somerset/rubbers/{rubber}/hands/", {}),
    ("put", "/api/v1/clubs/somerset/rubbers/{rubber}/hands/1/", {}),
    ("post", "/api/v1/clubs/somerset/evenings/{evening}/tables/1/hands/", {}),
    (
        "put",
        "/api/v1/clubs/somerset/evenings/{evening}/tables/1/rubbers/1/hands/1/",
        {"reason": "a miscount"},
    ),
]


@pytest.mark.parametrize(("method", "url", "extra"), _HAND_DOORS)
def test_a_hand_s_unknown_key_is_refused_as_unknown_key_at_every_door(world, method, url, extra):
    """A key a hand does not take is an unknown key, as a body's is (core.inputs
    .BodyInput): code `unknown_key`, `field` its path inside the hand (`hand.trickz`);
    it was refused with code `invalid`, so a script telling a misspelt key from a bad
    value could not (law 2: the hand is refused, and nothing is written)."""
    hands = list(world.rubber.hands.values_list("number", "data"))
    body = {"hand": {"makers": "NS", "tricks": 3, "trickz": 3}, **extra}
    address = url.format(rubber=world.rubber.pk, evening=world.evening.pk)
    answer = getattr(world.client, method)(address, body, format="json")
    error = _refused_naming(answer, "hand.trickz", "makers", "tricks")
    assert error["message"].startswith("unknown key 'trickz': a hand of Euchre"), error
    assert list(world.rubber.hands.values_list("number", "data")) == hands


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (
            {"ruleset": "euchre-somerset-1888", "hands": [{"makers": "NS", "tricks": 3},
                                                          {"makers": "EW", "trickz": 3}]},
            "hands[1].trickz",
        ),
        HONOURS_ACES,
        DEAL_CALLED,
    ],
)  # fmt: skip
def test_a_scoresheet_s_hand_s_unknown_key_is_refused_as_unknown_key(body, field):
    """The same on the stateless score sheet, in its hands and deals and a Bridge hand's
    honours: code `unknown_key` (it was `invalid`), `field` the key's path."""
    answer = _scored(body)
    _refused_naming(answer, field)
