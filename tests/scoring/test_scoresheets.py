"""The scoresheet format: the stateless endpoint, `manage.py score_sheet`, and the
equivalence of scoring a sheet at once with recording it hand by hand."""

import io
import json
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import Rubber
from tests.scoring.conftest import NAMES, PAIRS
from tests.scoring.strategies import scoresheet

EUCHRE_SHEET = {
    "ruleset": "euchre-somerset-1888",
    "players": PAIRS,
    "stake": "0.25",
    # Law 7's ten: four double games and two for the rubber against nothing (ruling E4).
    # Games 1 and 2: a lone march (4, law 3) and three tricks (1). Game 3: two lone
    # marches, 8, leaving a lap of 3 (ruling E2), so a fourth game is played (ruling E1);
    # it opens at 3 and a march (2) wins it.
    "hands": [
        {"makers": "NS", "tricks": 5, "alone": True},
        {"makers": "NS", "tricks": 3},
        {"makers": "NS", "tricks": 5, "alone": True},
        {"makers": "NS", "tricks": 3},
        {"makers": "NS", "tricks": 5, "alone": True},
        {"makers": "NS", "tricks": 5, "alone": True},
        {"makers": "NS", "tricks": 5},
    ],
}


def test_stateless_endpoint_scores_law_7s_ten(api, db):
    response = api.post("/api/v1/scoresheets/score", EUCHRE_SHEET)
    assert response.status_code == 200, response.json()
    body = response.json()
    games = [(g["winner"], g["value"], g["lap"]) for g in body["games"]]
    assert games == [("NS", 2, 0), ("NS", 2, 0), ("NS", 2, 3), ("NS", 2, 0)]
    assert body["rubber"]["value"] == 10
    assert body["ledger"] == {"Ann": "2.50", "Cora": "2.50", "Bob": "-2.50", "Dan": "-2.50"}
    assert not Rubber.objects.exists()  # nothing stored


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"ruleset": "whist"}, "ruleset"),
        ({"hands": [{"makers": "NS", "tricks": 6}]}, "hands[0].tricks"),
        ({"stake": 0.25}, "stake"),
        ({"stake": "\u0660.\u0662\u0665"}, "stake"),  # 0.25 in Arabic-Indic digits
        ({"options": {"odd_trick_cap": 100}}, "options.odd_trick_cap"),
    ],
)
def test_stateless_endpoint_names_the_bad_field(api, db, change, field):
    response = api.post("/api/v1/scoresheets/score", {**EUCHRE_SHEET, **change})
    assert response.status_code == 400
    assert response.json()["error"]["field"] == field


def test_a_call_ace_sheet_without_names_is_read_in_words(api, db):
    """The lines a person reads say "Player 1", never the index "0" the points are keyed
    by; and a trick count in an Arabic-Indic digit is refused in the words the table's
    phone uses (tests/scoring/test_hand_input.py)."""
    sheet = {"ruleset": "call-ace-foster-1905", "players": 5,
             "deals": [{"maker": 0, "partner": 2, "tricks": 3}]}  # fmt: skip
    body = api.post("/api/v1/scoresheets/score", sheet).json()
    assert body["deals"][0]["lines"] == ["law 43: Player 1 and Player 3, three tricks: 1 each"]
    assert body["deals"][0]["points"] == {"0": 1, "1": 0, "2": 1, "3": 0, "4": 0}

    sheet["deals"][0]["tricks"] = "\u0663"
    refused = api.post("/api/v1/scoresheets/score", sheet, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"] | {"details": None} == {
        "code": "invalid", "field": "deals[0].tricks", "law": "law 43", "details": None,
        "message": "must be a whole number from 0 to 5, written in the digits 0 to 9",
    }  # fmt: skip


def test_stateless_endpoint_refuses_a_non_object(api, db):
    response = api.post("/api/v1/scoresheets/score", [1, 2], format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"


def test_score_sheet_command_prints_what_the_endpoint_answers(api, db, tmp_path):
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(EUCHRE_SHEET))
    out = io.StringIO()
    call_command("score_sheet", str(path), stdout=out)
    assert json.loads(out.getvalue()) == api.post("/api/v1/scoresheets/score", EUCHRE_SHEET).json()


def test_score_sheet_command_errors_name_field_and_law(db, tmp_path):
    path = tmp_path / "sheet.json"
    after = EUCHRE_SHEET["hands"] + [{"makers": "NS", "tricks": 3}]
    path.write_text(json.dumps({**EUCHRE_SHEET, "hands": after}))
    with pytest.raises(CommandError) as error:
        call_command("score_sheet", str(path))
    assert "hands[7]" in str(error.value)
    assert "ruling E1" in str(error.value)


def test_score_sheet_command_refuses_what_is_not_json(db, tmp_path):
    path = tmp_path / "sheet.json"
    path.write_text("{not json")
    with pytest.raises(CommandError, match="not JSON"):
        call_command("score_sheet", str(path))


def test_score_sheet_command_refuses_a_sheet_nested_too_deep(db, tmp_path):
    path = tmp_path / "sheet.json"
    path.write_text("[" * 5000 + "]" * 5000)
    with pytest.raises(CommandError, match="nests deeper than 32"):
        call_command("score_sheet", str(path))


COMPARED = ("games", "rubber", "ledger")


def _record_by_hand(client, sheet) -> dict:
    created = client.post(
        "/api/v1/clubs/somerset/rubbers/",
        {"ruleset": sheet["ruleset"], "players": sheet["players"], "stake": sheet["stake"]},
    )
    assert created.status_code == 201, created.json()
    rubber_id = created.json()["id"]
    key = "deals" if sheet["ruleset"] == "call-ace-foster-1905" else "hands"
    for hand in sheet[key]:
        response = client.post(f"/api/v1/clubs/somerset/rubbers/{rubber_id}/hands/", hand)
        assert response.status_code == 201, response.json()
        _rows_agree(rubber_id)
    if key == "deals":
        assert client.post(f"/api/v1/clubs/somerset/rubbers/{rubber_id}/close/").status_code == 200
        _rows_agree(rubber_id)
    return client.get(f"/api/v1/clubs/somerset/rubbers/{rubber_id}/").json()


def _rows_agree(rubber_id: int) -> None:
    """The rows written beside the rubber's summary agree with it after every hand, the
    ones a hand leaves alone (the games while it ends none, the money while the rubber
    goes on) included."""
    rubber = Rubber.objects.get(pk=rubber_id)
    games = [game.detail for game in rubber.games.order_by("number")]
    assert games == rubber.summary.get("games", [])
    assert rubber.hand_scores.count() == rubber.hand_count * rubber.seats.count()
    # Settled once complete; a Call-Ace sitting closed before any deal settles nothing
    # (ruling C5, scoring.rules.call_ace.UNPLAYED_SITTING).
    settles = rubber.status == Rubber.Status.COMPLETE and rubber.hand_count > 0
    assert rubber.settlements.exists() == settles


def _same(stored: dict, at_once: dict, key: str) -> None:
    assert [h["points"] for h in stored[key]] == [h["points"] for h in at_once[key]]
    assert [h["lines"] for h in stored[key]] == [h["lines"] for h in at_once[key]]
    for part in COMPARED:
        if part == "ledger" and at_once[part] is not None:
            assert {k: Decimal(v) for k, v in stored[part].items()} == {
                k: Decimal(v) for k, v in at_once[part].items()
            }
            assert sum(Decimal(v) for v in stored[part].values()) == 0
        else:
            assert stored[part] == at_once[part], part


sheets = st.one_of(
    scoresheet("euchre-somerset-1888", PAIRS),
    scoresheet("bridge-elwell-1907", PAIRS, max_hands=12),
    st.integers(4, 7).flatmap(
        lambda n: scoresheet("call-ace-foster-1905", NAMES[:n], max_hands=12)
    ),
)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(sheet=sheets)
def test_recorded_hand_by_hand_equals_scored_at_once(roster, secretary_api, api, sheet):
    key = "deals" if sheet["ruleset"] == "call-ace-foster-1905" else "hands"
    at_once = api.post("/api/v1/scoresheets/score", sheet)
    assert at_once.status_code == 200, at_once.json()
    _same(_record_by_hand(secretary_api, sheet), at_once.json(), key)


def test_a_sitting_closed_before_any_deal_settles_nothing_stored_or_scored(
    roster, secretary_api, api
):
    """A Call-Ace sitting ended before any deal was played settles nothing (ruling C5):
    the stored sitting has no settlement and the sheet scored at once no money either,
    where it gave 0.00 for each player (the property test above once drew such a sheet)."""
    sheet = {"ruleset": "call-ace-foster-1905", "players": NAMES[:4], "stake": "1.00", "deals": []}
    at_once = api.post("/api/v1/scoresheets/score", sheet)
    assert at_once.status_code == 200, at_once.json()
    assert at_once.json()["ledger"] == {}
    stored = _record_by_hand(secretary_api, sheet)
    assert stored["status"] == Rubber.Status.COMPLETE and stored["ledger"] == {}
    _same(stored, at_once.json(), "deals")


# --- the anonymous endpoint's bounds (issue 12, section 6) ---------------------------------


@pytest.mark.parametrize(
    ("ruleset", "key", "hand"),
    [
        ("euchre-somerset-1888", "hands", {"makers": "NS", "tricks": 3}),
        ("bridge-elwell-1907", "hands",
         {"declarer": "NS", "trump": "S", "tricks": {"NS": 6, "EW": 7}}),
        ("call-ace-foster-1905", "deals", {"maker": "0", "tricks": 3}),
    ],
)  # fmt: skip
def test_a_sheet_past_the_documented_number_of_hands_is_refused(api, db, ruleset, key, hand):
    from scoring.sheet import MAX_SHEET_HANDS

    sheet = {"ruleset": ruleset, key: [hand] * (MAX_SHEET_HANDS + 1)}
    if key == "deals":
        sheet["players"] = 4
    response = api.post("/api/v1/scoresheets/score", sheet, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["field"] == key
    assert str(MAX_SHEET_HANDS) in error["message"]
    schema = api.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/scoresheets/score"]["post"]
    assert str(MAX_SHEET_HANDS) in operation["description"]


def test_the_scoresheet_endpoint_has_its_own_rate(api, db, monkeypatch):
    from rest_framework.throttling import SimpleRateThrottle

    # DRF reads the rates (THROTTLE_SCORESHEET) once, into the class: lower this one.
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "scoresheet": "3/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    # A caller cannot pass for another by writing X-Forwarded-For himself: the address
    # is the connection's (TRUSTED_PROXY_COUNT 0, config/clientaddr.py).
    answers = [
        api.post(
            "/api/v1/scoresheets/score", EUCHRE_SHEET, format="json",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{n}",
        ).status_code
        for n in range(4)
    ]  # fmt: skip
    assert answers == [200, 200, 200, 429]
    assert api.get("/api/v1/rulesets/").status_code == 200  # the general rate elsewhere
