"""One shape for a hand at every door, and what a client needs to change a hand it sent
(issue #16, items 6 and 7): the rubber's endpoint takes the table endpoint's body
`{"hand": {...}, "expected_number": n}` (the bare hand still works, deprecated); the
evening's summary names each rubber by id with its links; a table's endpoint removes the
last hand within law 5's window."""

from django.urls import reverse

from scoring.models import Hand

MARCH = {"makers": "NS", "tricks": 5}
THREE = {"makers": "EW", "tricks": 3}


def rubber_hands(world):
    return f"/api/v1/clubs/{world.club.slug}/rubbers/{world.rubber.pk}/hands/"


def test_the_rubber_endpoint_takes_the_table_endpoints_body(world, world_secretary):
    before = Hand.objects.filter(rubber=world.rubber).count()
    response = world_secretary.post(
        rubber_hands(world), {"hand": THREE, "expected_number": before + 1}, format="json"
    )
    assert response.status_code == 201, response.content
    assert Hand.objects.filter(rubber=world.rubber).count() == before + 1
    again = world_secretary.post(
        rubber_hands(world), {"hand": THREE, "expected_number": before + 1}, format="json"
    )
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "hand_already_recorded"


def test_the_bare_hand_still_works_and_is_marked_deprecated(world, world_secretary):
    before = Hand.objects.filter(rubber=world.rubber).count()
    response = world_secretary.post(rubber_hands(world), THREE, format="json")
    assert response.status_code == 201
    assert Hand.objects.filter(rubber=world.rubber).count() == before + 1
    schema = world_secretary.get("/api/schema/?format=json").json()
    post = schema["paths"]["/api/v1/clubs/{slug}/rubbers/{id}/hands/"]["post"]
    assert post["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "HandRecordInputRequest"
    )
    assert [p["deprecated"] for p in post["parameters"] if p["name"] == "expected_number"] == [True]


def test_a_bad_hand_in_the_envelope_names_its_field(world, world_secretary):
    response = world_secretary.post(rubber_hands(world), {"hand": "march"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["field"].startswith("hand")


def test_the_evenings_summary_names_each_rubber_with_its_links(world, world_secretary):
    url = f"/api/v1/clubs/{world.club.slug}/evenings/{world.evening.pk}/"
    rubbers = world_secretary.get(url).json()["rubbers"]
    [rubber] = [r for r in rubbers if r["id"] == world.rubber.pk]
    assert rubber["ordinal"] == 1
    assert rubber["links"]["rubber"].endswith(f"/rubbers/{world.rubber.pk}/")
    assert world_secretary.get(rubber["links"]["rubber"]).status_code == 200
    hand = rubber["links"]["hands"] + "1/"
    assert world_secretary.put(hand, {"hand": MARCH}, format="json").status_code == 200
    assert Hand.objects.get(rubber=world.rubber, number=1).data["tricks"] == 5
    record = rubber["links"]["record"]
    assert record.endswith(f"/evenings/{world.evening.pk}/tables/1/hands/")


def test_a_table_removes_its_last_hand_through_its_endpoint(world, world_table):
    rubber = world.rubber
    count = Hand.objects.filter(rubber=rubber).count()
    url = reverse("api-table-hand-remove", args=[world.club.slug, world.evening.pk, 1, 1, count])
    response = world_table.post(url, {}, format="json")
    assert response.status_code == 200, response.content
    assert Hand.objects.filter(rubber=rubber).count() == count - 1


def test_a_table_cannot_remove_a_hand_once_the_next_is_recorded(world, world_table):
    """Law 5: once the next hand is recorded the table may no longer change the one before;
    only the secretary, with a reason (ruling E9)."""
    rubber = world.rubber
    world_table.post(
        f"/api/v1/clubs/{world.club.slug}/evenings/{world.evening.pk}/tables/1/hands/",
        {"hand": THREE},
        format="json",
    )
    count = Hand.objects.filter(rubber=rubber).count()
    url = reverse(
        "api-table-hand-remove", args=[world.club.slug, world.evening.pk, 1, 1, count - 1]
    )
    response = world_table.post(url, {}, format="json")
    assert response.status_code == 400
    assert Hand.objects.filter(rubber=rubber).count() == count
