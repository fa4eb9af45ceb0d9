"""Audit history by database triggers: every change to a hand is recorded with who, when
and why, bulk changes too, and a secretary can read a hand's history (PostgreSQL)."""

import itertools

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


def test_a_hand_writes_the_history_of_its_own_rows_not_of_the_counters_it_moves(club, postgres):
    """A hand's evening and rubber mostly only count it (the evening's version, the
    rubber's summary and hand count): those moves write no history row of their own
    (core.audit's `counters`), the hand's own history keeps the change. A hand that
    changes the rubber's result (its winner, its status) is recorded, the counters with
    it."""
    from club.models import EveningHistory
    from scoring.models import RubberHistory
    from tests.club.rooms import SWEEP, evening_with_a_table, record

    evening = evening_with_a_table(club)
    versions = EveningHistory.objects.filter(pgh_obj=evening).count()
    for tricks in SWEEP[:-1]:
        record(evening, tricks=tricks)
    assert EveningHistory.objects.filter(pgh_obj=evening).count() == versions
    record(evening, tricks=SWEEP[-1])  # wins the rubber: the table cuts in and out (law 15)
    assert EveningHistory.objects.filter(pgh_obj=evening).count() == versions + 1
    rubber = Rubber.objects.get(evening=evening)
    assert rubber.status == Rubber.Status.COMPLETE and rubber.hand_count == len(SWEEP)
    assert HandHistory.objects.filter(rubber_id=rubber.pk).count() == len(SWEEP)

    result = ("status", "winner", "value", "completed_at")
    rows = list(RubberHistory.objects.filter(pgh_obj=rubber).order_by("pgh_id").values())
    assert rows[0]["pgh_label"] == "insert"
    assert 1 <= len(rows) - 1 < len(SWEEP)  # not one a hand
    for before, after in itertools.pairwise(rows):
        assert any(before[key] != after[key] for key in result), after
    last = rows[-1]
    assert (last["status"], last["hand_count"]) == (Rubber.Status.COMPLETE, len(SWEEP))
    assert last["summary"] == rubber.summary
