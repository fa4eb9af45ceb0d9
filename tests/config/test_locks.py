"""A write that waits too long for a row another request holds gets a retryable 409."""

import threading

import pytest
from django.db import connection, transaction

from config import db
from config.api import Conflict
from scoring.models import Rubber

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_lock_held_too_long_becomes_a_conflict(club, postgres, monkeypatch):
    from scoring import services
    from tests.factories import MemberFactory

    for name in ["Ann", "Bob", "Cora", "Dan"]:
        MemberFactory(club=club, name=name)
    rubber = services.rubber_start(
        club=club, ruleset="euchre-somerset-1888",
        players={"NS": ["Ann", "Bob"], "EW": ["Cora", "Dan"]},
    )  # fmt: skip
    monkeypatch.setattr(db, "LOCK_TIMEOUT_MS", 200)
    held, release = threading.Event(), threading.Event()

    def other_request():
        with transaction.atomic():
            Rubber.objects.select_for_update().get(pk=rubber.pk)
            held.set()
            release.wait(10)
        connection.close()

    thread = threading.Thread(target=other_request)
    thread.start()
    held.wait(10)
    try:
        with pytest.raises(Conflict) as error:
            services.rubber_record_hand(rubber_id=rubber.pk, data={"makers": "NS", "tricks": 3})
        assert error.value.status_code == 409 and error.value.code == "locked"
    finally:
        release.set()
        thread.join(10)
    rubber.refresh_from_db()
    assert rubber.hand_count == 0
    services.rubber_record_hand(rubber_id=rubber.pk, data={"makers": "NS", "tricks": 3})
