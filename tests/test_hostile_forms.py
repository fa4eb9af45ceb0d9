"""Hostile input to every HTML form (issue 12, section 4). The API is fuzzed by schemathesis
(tests/test_schema_fuzz.py); these are the pages' forms, which it does not see: the
table's phone (entering and correcting a hand, under each rule set), every action of the
secretary's board, opening an evening on the secretary's page, and the director's
buttons. Each form is posted with its own fields, some of them replaced by hostile
values (huge strings, NUL and control characters, other scripts' digits, NaN, Infinity,
1e400, negative and very long numbers, empty values, several values for one field).

No post may answer 5xx, and a post the page refuses (it shows "Not recorded.", "Not
done.", an error, or answers 400) has written nothing: the rows of every table that an
action can add to, and the evenings' versions, are as before.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from club.models import Cut, Evening, EveningEvent, Member, Table
from scoring.models import Hand, HandCorrection, RemovedHand, Rubber
from tests.conftest import rows_for_the_module
from tests.worlds import bridge_and_call_ace_in_play, club_in_play, reloaded
from tournaments.models import Round, Tournament, TournamentPlayer
from tournaments.services import tournament_create

HOSTILE = [
    "", " ", "\x00", "Ann\x00", "\x01\x02\x1b[2J", "\u202eNS", "\ufeff", "²", "٣", "\uff13",
    "3\u0663", "NaN", "nan", "sNaN", "Infinity", "-Infinity", "1e400", "-1e400", "1e-400",
    "-1", "-0", "+3", "3.0", "0x10", "9" * 400, "0" * 60 + "1", "x" * 20_000, "[]", "{}",
    "null", "true", "on", "new", "NS", "EW", "<b>", "' OR '1'='1", "Ann 9S, Bob", "%00",
]  # fmt: skip
one_value = st.sampled_from(HOSTILE) | st.text(max_size=12)
hostile = one_value | st.lists(one_value, min_size=2, max_size=3)  # a field sent twice

FORMS = settings(
    derandomize=True,  # CI sees the same examples every run
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def snapshot() -> tuple:
    """Everything a form could write: row counts, and each evening's version and status."""
    counts = tuple(
        model.objects.count()
        for model in (
            Evening, EveningEvent, Table, Cut, Member, Rubber, Hand, HandCorrection,
            RemovedHand, Tournament, TournamentPlayer, Round,
        )
    )  # fmt: skip
    versions = tuple(Evening.objects.order_by("pk").values_list("pk", "version", "status"))
    hands = tuple(Hand.objects.order_by("pk").values_list("pk", "data"))
    return counts, versions, hands


def spoil(data, fields: dict) -> dict:
    """The form's own fields with one or more replaced by hostile values (and perhaps an
    unexpected field added)."""
    names = sorted(fields)
    chosen = data.draw(st.sets(st.sampled_from(names), min_size=1, max_size=len(names)))
    post = {name: data.draw(hostile) if name in chosen else value for name, value in fields.items()}
    if data.draw(st.booleans()):
        post[data.draw(st.sampled_from(["hand", "extra", "tricks", "table", "version"]))] = (
            data.draw(hostile)
        )
    return post


def post_and_check(client, url: str, post: dict, refused) -> None:
    before = snapshot()
    response = client.post(url, post)
    assert response.status_code < 500, (url, post)
    if refused(response):
        assert snapshot() == before, (url, post)


# --- the worlds --------------------------------------------------------------------------


def _build_world(capture_on_commit):
    """The Euchre world of tests/worlds.py, a Bridge and a Call-Ace table in play, a
    progressive tournament."""
    world = club_in_play(capture_on_commit)
    more = bridge_and_call_ace_in_play(world.club)
    world.progressive = tournament_create(
        club=world.club, name="P", slug="p", kind="progressive",
        ruleset="euchre-somerset-1888", movement="cut",
    )  # fmt: skip
    world.ladder = Tournament.objects.get(slug="winter")
    world.tables = {
        "euchre": world.table,
        "bridge": more.bridge,
        "call-ace": more.call_ace,
    }
    world.order = more.call_ace_order
    return world


# Made once for the module's tests, each test's changes rolled back to its savepoint.
_world = rows_for_the_module(_build_world)


@pytest.fixture
def played(db, _world):
    """The module's world, its rows read afresh for the test."""
    return reloaded(_world)


@pytest.fixture
def secretary_client(played, client):
    client.force_login(played.secretary)
    return client


# --- the table's phone -------------------------------------------------------------------

PHONE_FORMS = {
    "euchre": {
        "makers": "NS", "alone": "", "tricks": "3", "revokes_NS": "0", "revokes_EW": "0",
        "law90": "", "law102": "", "law50": "",
    },
    "bridge": {
        "declarer": "NS", "trump": "H", "doubles": "0", "tricks_ns": "7",
        "honours_side": "NS", "honours_held": "3", "honours_in_one_hand": "2",
        "chicane_NS": "0", "chicane_EW": "0", "revokes_NS": "0", "revokes_EW": "0",
    },
    "call-ace": {
        "maker": "Ann", "partner": "", "alone": "", "tricks": "3", "revoke": "", "void": "",
        "no_score": "",
    },
}  # fmt: skip


def _refused_at_the_table(response) -> bool:
    return b"Not recorded." in response.content


@FORMS
@given(data=st.data(), game=st.sampled_from(sorted(PHONE_FORMS)), correct=st.booleans())
def test_the_phone_forms_survive_hostile_values(played, client, data, game, correct):
    table = played.tables[game]
    fields = dict(PHONE_FORMS[game])
    if game == "call-ace":
        fields["maker"] = played.order[0]
    if correct:  # the correction form: the same fields and the hand's number
        fields["correct"] = str(Rubber.objects.filter(table=table).get().hand_count)
    post_and_check(client, f"/t/{table.token}/hand/", spoil(data, fields), _refused_at_the_table)


# --- the secretary's board ---------------------------------------------------------------

BOARD_FORMS = [
    {"type": "reopen", "reason": "a mistake"},
    {"type": "cut", "version": None, "card-Ann": "JS", "card-Bob": "AS", "enter": "1"},
    {"type": "cut", "version": None, "draw": "1"},
    {"type": "deal_jack", "version": None, "table": "1", "throws": "Ann 9S, Bob JD"},
    {"type": "form_table", "version": None},
    {"type": "arrive", "player": "Edith"},
    {"type": "claim", "player": "Edith", "table": "1", "version": None},
    {"type": "withdraw", "player": "Edith", "table": "", "version": None},
    {"type": "depart", "player": "Edith", "table": "", "version": None},
    {"type": "leave", "table": "1", "version": None, "player": "Ann"},
    {"type": "change_table", "version": None, "player": "Ann", "table": "new"},
    {"type": "substitute", "table": "1", "version": None, "player": "Ann",
     "substitute": "Edith", "consent": ["Bob", "Cora"]},
    {"type": "close_sitting", "table": "1"},
    {"type": "break_up", "table": "1", "version": None},
    {"type": "close", "version": None},
]  # fmt: skip


def _refused_on_the_board(response) -> bool:
    return b"Not done." in response.content


@FORMS
@given(
    data=st.data(),
    form=st.sampled_from(range(len(BOARD_FORMS))),
    game=st.sampled_from(["euchre", "bridge", "call-ace"]),
)
def test_every_board_action_survives_hostile_values(played, secretary_client, data, form, game):
    evening = played.tables[game].evening
    evening.refresh_from_db()
    fields = {
        name: str(evening.version) if value is None else value
        for name, value in BOARD_FORMS[form].items()
    }
    post_and_check(
        secretary_client,
        f"/secretary/evenings/{evening.pk}/action/",
        spoil(data, fields),
        _refused_on_the_board,
    )


# --- the secretary's page and the director's ---------------------------------------------


@FORMS
@given(data=st.data())
def test_opening_an_evening_survives_hostile_values(played, secretary_client, data):
    fields = {
        "club": str(played.club.pk), "title": "Tuesday", "date": "1888-11-21",
        "ruleset": "euchre-somerset-1888", "stake": "0.25",
    }  # fmt: skip
    post_and_check(
        secretary_client, "/secretary/", spoil(data, fields), lambda r: r.status_code == 400
    )


def _refused_by_the_director(response) -> bool:
    return b'class="alert error"' in response.content


@FORMS
@given(
    data=st.data(),
    form=st.sampled_from(
        [("progressive", {"action": "enter", "name": "Zed"}),
         ("progressive", {"action": "seat"}),
         ("ladder", {"action": "recalculate"})]
    ),
)  # fmt: skip
def test_the_director_buttons_survive_hostile_values(played, secretary_client, data, form):
    which, fields = form
    tournament = getattr(played, which)
    post_and_check(
        secretary_client,
        f"/secretary/tournaments/{tournament.pk}/act/",
        spoil(data, fields),
        _refused_by_the_director,
    )


# A member's name with a NUL, or longer than the column, once reached the database and
# crashed there; core/text.py's rules refuse it at every door.
@pytest.mark.parametrize("name", ["Ann\x00", "x" * 20_000], ids=["nul", "huge"])
@pytest.mark.parametrize("where", ["arrive", "enter"])
def test_a_hostile_member_name_is_refused(played, secretary_client, name, where):
    if where == "arrive":
        url = f"/secretary/evenings/{played.evening.pk}/action/"
        post = {"type": "arrive", "player": name}
    else:
        url = f"/secretary/tournaments/{played.progressive.pk}/act/"
        post = {"action": "enter", "name": name}
    before = snapshot()
    assert secretary_client.post(url, post).status_code < 500
    assert snapshot() == before
