"""A write that waits too long for a row another request holds gets a retryable 409, and
leaves nothing behind; the 409 says to retry, and an Idempotency-Key does not keep it."""

import threading

import pytest
from django.db import connection, transaction

from club import recording
from config.api import Conflict
from core import db
from scoring.models import Hand, HandScore, Rubber

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def rubber(club, postgres, monkeypatch):
    from scoring import services
    from tests.factories import MemberFactory

    for name in ["Ann", "Bob", "Cora", "Dan"]:
        MemberFactory(club=club, name=name)
    monkeypatch.setattr(db, "LOCK_TIMEOUT_MS", 200)
    return services.rubber_start(
        club=club, ruleset="euchre-somerset-1888",
        players={"NS": ["Ann", "Bob"], "EW": ["Cora", "Dan"]},
    )  # fmt: skip


def held_by_another_request(write):
    """Another connection does `write` and keeps its transaction open until the returned
    `release()`, then rolls it back."""
    held, release = threading.Event(), threading.Event()

    def other_request():
        with transaction.atomic():
            write()
            held.set()
            release.wait(10)
            transaction.set_rollback(True)
        connection.close()

    thread = threading.Thread(target=other_request)
    thread.start()
    assert held.wait(10)

    def done():
        release.set()
        thread.join(10)

    return done


def test_a_lock_held_too_long_becomes_a_conflict(rubber):

    release = held_by_another_request(lambda: Rubber.objects.select_for_update().get(pk=rubber.pk))
    try:
        with pytest.raises(Conflict) as error:
            recording.hand_record(rubber_id=rubber.pk, data={"makers": "NS", "tricks": 3})
        assert error.value.status_code == 409 and error.value.code == "locked"
    finally:
        release()
    rubber.refresh_from_db()
    assert rubber.hand_count == 0
    recording.hand_record(rubber_id=rubber.pk, data={"makers": "NS", "tricks": 3})


def test_a_lock_not_granted_half_way_through_the_write_is_a_conflict_too(rubber):
    """The rubber is locked and the hand scored, but its row cannot be written in time
    (another request is writing a hand of that number): a 409, not a 500, and the
    transaction is rolled back whole."""

    release = held_by_another_request(
        lambda: Hand.objects.create(rubber=rubber, number=1, data={}, points={})
    )
    try:
        with pytest.raises(Conflict) as error:
            recording.hand_record(rubber_id=rubber.pk, data={"makers": "NS", "tricks": 3})
        assert error.value.code == "locked"
    finally:
        release()
    rubber.refresh_from_db()
    assert rubber.hand_count == 0 and rubber.summary["played"] == 0
    assert not Hand.objects.exists() and not HandScore.objects.exists()


def test_a_conflict_on_a_lock_is_not_kept_for_its_idempotency_key(rubber, secretary_api):
    """The phone retries with the same key after a 409 that says to retry: the retry is
    done, not answered from a stored 409."""
    url = f"/api/v1/clubs/{rubber.club.slug}/rubbers/{rubber.pk}/hands/"
    hand = {"makers": "NS", "tricks": 3}
    release = held_by_another_request(lambda: Rubber.objects.select_for_update().get(pk=rubber.pk))
    try:
        refused = secretary_api.post(url, hand, format="json", HTTP_IDEMPOTENCY_KEY="hand-1")
    finally:
        release()
    assert refused.status_code == 409 and refused["Retry-After"] == "1"
    assert refused.json()["error"]["code"] == "locked"
    retried = secretary_api.post(url, hand, format="json", HTTP_IDEMPOTENCY_KEY="hand-1")
    assert retried.status_code == 201, retried.content
    assert "Idempotent-Replayed" not in retried
    again = secretary_api.post(url, hand, format="json", HTTP_IDEMPOTENCY_KEY="hand-1")
    assert again["Idempotent-Replayed"] == "true"
    assert Rubber.objects.get(pk=rubber.pk).hand_count == 1
