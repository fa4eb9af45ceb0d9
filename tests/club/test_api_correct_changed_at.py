"""The API's correction of a hand names the version of the hand the caller saw, as the
phones do: an optional `changed_at` (the hand's own, as the API gave it: its last
correction's moment, else its recorded_at), at the rubber's door
(`.../rubbers/<id>/hands/<n>/`) and the evening's table's
(`.../evenings/<id>/tables/<t>/rubbers/<r>/hands/<n>/`), as a take-back names `recorded_at`
(tests/club/test_api_remove_recorded_at.py). With it, a hand changed since (corrected by
the other phone, taken back, taken back and entered again) is a 409 in words
(club.recording.hand_correct), nothing written (law 5, ruling E9); a malformed one is a 400
naming the field; without it, the correction is made to the hand as it is, as before."""

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from scoring.models import Hand, HandCorrection
from tests.conftest import token_client
from tests.worlds import hand_recorded, hand_shown, sheet

EW_FOUR = {"makers": "EW", "tricks": 4}
EW_FIVE = {"makers": "EW", "tricks": 5}
NS_THREE = {"makers": "NS", "tricks": 3}


def rubber_door(world, number: int) -> str:
    return reverse("api-rubber-hand", args=[world.club.slug, world.rubber.pk, number])


def table_door(world, number: int) -> str:
    return reverse("api-table-hand", args=[world.club.slug, world.evening.pk, 1, 1, number])


DOORS = [
    pytest.param(rubber_door, "world_secretary", id="rubber-secretary"),
    pytest.param(rubber_door, "world_table", id="rubber-table"),
    pytest.param(table_door, "world_table", id="table"),
]


@pytest.mark.parametrize(("door", "caller"), DOORS)
def test_the_version_seen_is_corrected_and_the_next_version_named(world, door, caller, request):
    client = request.getfixturevalue(caller)
    hand = hand_recorded(world, client, EW_FOUR)
    assert hand["changed_at"] == hand["recorded_at"] == hand_shown(world, client, 2)["changed_at"]
    body = {"hand": EW_FIVE, "changed_at": hand["changed_at"]}
    response = client.put(door(world, 2), body, format="json")
    assert response.status_code == 200, response.content
    assert sheet(world) == [("NS", 3), ("EW", 5)]
    corrected = HandCorrection.objects.get()
    assert (
        hand_shown(world, client, 2)["changed_at"] == corrected.at.isoformat() != hand["changed_at"]
    )


@pytest.mark.parametrize(("door", "caller"), DOORS)
def test_a_hand_corrected_since_is_a_conflict_in_words(world, door, caller, request):
    client = request.getfixturevalue(caller)
    hand = hand_recorded(world, client, EW_FOUR)
    # The other phone corrects hand 2 first: four tricks were five.
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Table {world.table.token}")
    first = other.put(
        table_door(world, 2), {"hand": EW_FIVE, "changed_at": hand["changed_at"]}, format="json"
    )
    assert first.status_code == 200, first.content
    at = HandCorrection.objects.get().at
    # This one, from the version before, would put N-S as makers.
    response = client.put(
        door(world, 2), {"hand": NS_THREE, "changed_at": hand["changed_at"]}, format="json"
    )
    assert response.status_code == 409, response.content
    error = response.json()["error"]
    assert error["code"] == "hand_corrected"
    assert error["field"] == "changed_at"
    lines = "; ".join(Hand.objects.get(rubber=world.rubber, number=2).lines)
    assert error["message"] == (
        f"The other phone at the table corrected hand 2 at {timezone.localtime(at):%H:%M}, "
        f"since this phone read it: it now reads {lines}. So this correction was not "
        "recorded; look again at hand 2 and correct it if it is still wrong."
    )
    assert error["details"]["hand"]["tricks"] == 5
    assert error["details"]["changed_at"] == at.isoformat()
    assert sheet(world) == [("NS", 3), ("EW", 5)]
    assert HandCorrection.objects.count() == 1


@pytest.mark.parametrize(("door", "caller"), DOORS)
def test_a_hand_taken_back_or_entered_again_is_a_conflict(world, door, caller, request):
    client = request.getfixturevalue(caller)
    hand = hand_recorded(world, client, EW_FOUR)
    remove = reverse("api-rubber-hand-remove", args=[world.club.slug, world.rubber.pk, 2])
    secretary = token_client(world.secretary)
    taken = secretary.post(remove, {"recorded_at": hand["recorded_at"]}, format="json")
    assert taken.status_code == 200, taken.content
    body = {"hand": EW_FIVE, "changed_at": hand["changed_at"]}
    gone = client.put(door(world, 2), body, format="json")
    assert gone.status_code == 409, gone.content
    assert gone.json()["error"]["code"] == "hand_taken_back"
    assert gone.json()["error"]["message"] == (
        "Hand 2 was taken back since this phone read it, so this correction was not "
        "recorded: the rubber has 1 hand now; look at the sheet as it is now."
    )
    hand_recorded(world, secretary, NS_THREE)  # hand 2 again, as it was played
    again = client.put(door(world, 2), body, format="json")
    assert again.status_code == 409, again.content
    assert again.json()["error"]["code"] == "hand_replaced"
    assert again.json()["error"]["message"].startswith("Hand 2 was taken back and entered again")
    assert sheet(world) == [("NS", 3), ("NS", 3)]
    assert not HandCorrection.objects.exists()


@pytest.mark.parametrize(("door", "caller"), DOORS)
def test_without_changed_at_the_hand_is_corrected_as_it_is(world, door, caller, request):
    client = request.getfixturevalue(caller)
    hand_recorded(world, client, EW_FOUR)
    assert client.put(door(world, 2), {"hand": EW_FIVE}, format="json").status_code == 200
    assert client.put(door(world, 2), {"hand": NS_THREE}, format="json").status_code == 200
    assert sheet(world) == [("NS", 3), ("NS", 3)]


@pytest.mark.parametrize("moment", ["yesterday", "2025-11-21T20:15:03", "", 12345])
def test_a_malformed_changed_at_is_refused_naming_the_field(world, world_table, moment):
    hand_recorded(world, world_table, EW_FOUR)
    body = {"hand": EW_FIVE, "changed_at": moment}
    response = world_table.put(table_door(world, 2), body, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["field"] == "changed_at"
    assert error["message"].startswith(
        "The changed_at (when the hand was last changed) is not a moment as the API gives one"
    )
    assert sheet(world) == [("NS", 3), ("EW", 4)]


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/clubs/{slug}/rubbers/{id}/hands/{number}/",
        "/api/v1/clubs/{slug}/evenings/{id}/tables/{number}/rubbers/{rubber}/hands/{hand}/",
    ],
)
def test_the_schema_documents_changed_at_and_its_conflicts(world_secretary, path):
    schema = world_secretary.get("/api/schema/?format=json").json()
    put = schema["paths"][path]["put"]
    ref = put["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    body = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    field = body["properties"]["changed_at"]
    assert field["format"] == "date-time"
    assert "hand_corrected" in field["description"]
    assert "changed_at" not in body.get("required", [])
    conflict = put["responses"]["409"]
    for code in ("hand_corrected", "hand_taken_back", "hand_replaced"):
        assert code in conflict["description"]
