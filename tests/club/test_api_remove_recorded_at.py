"""The API's removal of a hand names the very hand the caller saw, as the phones do: an
optional `recorded_at` (the hand's own, as the API gave it) beside the number, at the
rubber's door (`.../rubbers/<id>/hands/<n>/remove/`) and the evening's table's
(`.../evenings/<id>/tables/<t>/rubbers/<r>/hands/<n>/remove/`). With it, a hand that is not
the one seen is a 409 in words (club.recording.hand_remove: `hand_not_last`,
`hand_taken_back`, `hand_replaced`), nothing taken off (law 5, ruling E9); a malformed one
is a 400 naming the field; without it, the number alone, as before (a 400 for a hand not
the last: tests/club/test_api_hand_shape.py)."""

import datetime

import pytest
from django.urls import reverse

from scoring.models import Hand, RemovedHand
from tests.conftest import token_client
from tests.worlds import hand_recorded, hand_shown, sheet

EW_FOUR = {"makers": "EW", "tricks": 4}
NS_THREE = {"makers": "NS", "tricks": 3}


def rubber_door(world, number: int) -> str:
    return reverse("api-rubber-hand-remove", args=[world.club.slug, world.rubber.pk, number])


def table_door(world, number: int) -> str:
    return reverse("api-table-hand-remove", args=[world.club.slug, world.evening.pk, 1, 1, number])


DOORS = [
    pytest.param(rubber_door, "world_secretary", id="rubber-secretary"),
    pytest.param(rubber_door, "world_table", id="rubber-table"),
    pytest.param(table_door, "world_table", id="table"),
]


@pytest.mark.parametrize(("door", "caller"), DOORS)
def test_the_hand_seen_is_taken_off(world, door, caller, request):
    client = request.getfixturevalue(caller)
    hand = hand_recorded(world, client, EW_FOUR)
    assert hand["recorded_at"] == hand_shown(world, client, 2)["recorded_at"]
    response = client.post(
        door(world, 2), {"recorded_at": hand["recorded_at"], "reason": "twice"}, format="json"
    )
    assert response.status_code == 200, response.content
    assert sheet(world) == [("NS", 3)]
    assert RemovedHand.objects.get().data["makers"] == "EW"


@pytest.mark.parametrize(("door", "caller"), DOORS)
def test_a_hand_recorded_since_is_a_conflict_in_words(world, door, caller, request):
    client = request.getfixturevalue(caller)
    second = hand_recorded(world, client, EW_FOUR)
    # Another phone (or the secretary) records hand 3 before the take-back of hand 2 arrives.
    hand_recorded(world, token_client(world.secretary), NS_THREE)
    response = client.post(door(world, 2), {"recorded_at": second["recorded_at"]}, format="json")
    assert response.status_code == 409, response.content
    error = response.json()["error"]
    assert error["code"] == "hand_not_last"
    assert error["field"] == "number"
    assert error["law"] == "law 5, ruling E9"
    assert error["message"].startswith(
        "Hand 2 was not taken back: hand 3 has been recorded at this table since"
    )
    assert sheet(world) == [("NS", 3), ("EW", 4), ("NS", 3)]
    assert not RemovedHand.objects.exists()


@pytest.mark.parametrize(("door", "caller"), DOORS)
def test_a_second_removal_of_the_hand_seen_takes_off_nothing_more(world, door, caller, request):
    """Sent again without its Idempotency-Key (a script's retry): without recorded_at the
    number alone would name whatever hand is last; with it, the hand is gone already."""
    client = request.getfixturevalue(caller)
    second = hand_recorded(world, client, EW_FOUR)
    body = {"recorded_at": second["recorded_at"]}
    assert client.post(door(world, 2), body, format="json").status_code == 200
    again = client.post(door(world, 2), body, format="json")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "hand_taken_back"
    assert again.json()["error"]["message"] == (
        "Hand 2 was taken back already: the rubber has 1 hand now, so nothing more was taken back."
    )
    assert sheet(world) == [("NS", 3)]


@pytest.mark.parametrize(("door", "caller"), DOORS)
def test_a_hand_taken_back_and_entered_again_is_not_the_one_seen(world, door, caller, request):
    client = request.getfixturevalue(caller)
    second = hand_recorded(world, client, EW_FOUR)
    body = {"recorded_at": second["recorded_at"]}
    assert client.post(door(world, 2), body, format="json").status_code == 200
    hand_recorded(world, client, NS_THREE)  # hand 2 again, as it was played
    response = client.post(door(world, 2), body, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "hand_replaced"
    assert sheet(world) == [("NS", 3), ("NS", 3)]
    assert RemovedHand.objects.count() == 1


@pytest.mark.parametrize(
    "moment",
    [
        "yesterday",
        "2025-11-21T20:15:03",  # no offset: which moment is it?
        "2025-11-21",
        "",
        12345,
        "2025-13-40T25:61:00+00:00",
    ],
)
@pytest.mark.parametrize(("door", "caller"), DOORS)
def test_a_malformed_recorded_at_is_refused_naming_the_field(world, door, caller, moment, request):
    client = request.getfixturevalue(caller)
    hand_recorded(world, client, EW_FOUR)
    response = client.post(door(world, 2), {"recorded_at": moment}, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["field"] == "recorded_at"
    assert error["message"] == (
        "The recorded_at (when the hand was recorded) is not a moment as the API gives one: "
        "ISO 8601 with its offset, e.g. 2025-11-21T20:15:03.123456+00:00. Send it as the "
        "API's answer gave it."
    )
    assert sheet(world) == [("NS", 3), ("EW", 4)]
    assert not RemovedHand.objects.exists()


def test_the_same_moment_in_another_offset_is_the_same_hand(world, world_table):
    """A moment is a moment: the API's UTC, given in another offset, names the same hand."""
    hand = hand_recorded(world, world_table, EW_FOUR)
    moment = Hand.objects.get(rubber=world.rubber, number=2).recorded_at
    elsewhere = moment.astimezone(datetime.timezone(datetime.timedelta(hours=-5))).isoformat()
    assert elsewhere != hand["recorded_at"]
    response = world_table.post(table_door(world, 2), {"recorded_at": elsewhere}, format="json")
    assert response.status_code == 200, response.content
    assert sheet(world) == [("NS", 3)]


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/clubs/{slug}/rubbers/{id}/hands/{number}/remove/",
        "/api/v1/clubs/{slug}/evenings/{id}/tables/{number}/rubbers/{rubber}/hands/{hand}/remove/",
    ],
)
def test_the_schema_documents_recorded_at_and_its_conflicts(world_secretary, path):
    schema = world_secretary.get("/api/schema/?format=json").json()
    post = schema["paths"][path]["post"]
    ref = post["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    body = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    field = body["properties"]["recorded_at"]
    assert field["format"] == "date-time"
    assert "hand_not_last" in field["description"]
    assert "recorded_at" not in body.get("required", [])
    conflict = post["responses"]["409"]
    assert conflict["content"]["application/json"]["schema"]["$ref"] == (
        "#/components/schemas/Error"
    )
    for code in ("hand_not_last", "hand_taken_back", "hand_replaced"):
        assert code in conflict["description"]
