"""Audit history by database triggers: every change to a hand is recorded with who, when
and why, bulk changes too, and a secretary can read a hand's history (PostgreSQL)."""

import pytest

from scoring.models import Hand, HandHistory, Rubber
from tests.scoring.conftest import PAIRS


@pytest.fixture
def rubber(club, roster, secretary_api, postgres):
    response = secretary_api.post(
        "/api/v1/clubs/somerset/rubbers/", {"ruleset": "euchre-somerset-1888", "players": PAIRS}
    )
    return Rubber.objects.get(pk=response.json()["id"])


def hands_url(rubber):
    return f"/api/v1/clubs/somerset/rubbers/{rubber.pk}/hands/"


def test_a_correction_is_recorded_with_who_and_why(rubber, secretary_api, api):
    secretary_api.post(hands_url(rubber), {"makers": "NS", "tricks": 3})
    secretary_api.post(hands_url(rubber), {"makers": "NS", "tricks": 3})
    secretary_api.put(
        f"{hands_url(rubber)}1/",
        {"hand": {"makers": "NS", "tricks": 5}, "reason": "it was a march"},
    )
    body = secretary_api.get(f"{hands_url(rubber)}1/history/").json()
    changes = [(h["change"], h["hand"]["tricks"], h["by"], h["reason"]) for h in body["history"]]
    assert changes[0] == ("insert", 3, "secretary", None)
    assert ("update", 5, "secretary", "it was a march") in changes
    assert body["corrections"][0]["reason"] == "it was a march"
    assert api.get(f"{hands_url(rubber)}1/history/").status_code == 401


def test_a_bulk_change_cannot_bypass_the_history(rubber, secretary_api):
    secretary_api.post(hands_url(rubber), {"makers": "NS", "tricks": 3})
    Hand.objects.filter(rubber=rubber).update(tricks=4)  # no save(), no signal
    Hand.objects.filter(rubber=rubber).delete()
    labels = list(
        HandHistory.objects.filter(rubber_id=rubber.pk)
        .order_by("pgh_id")
        .values_list("pgh_label", "tricks")
    )
    assert labels == [("insert", 3), ("update", 4), ("delete", 4)]
