"""A refusal's stored answer is kept minutes, not a day (core.idempotency).

A table's link (its phone's page, `/t/<token>/`, or the API with `Authorization: Table`)
could have each refusal it was answered (a page of some 11 kB) kept a day for every
Idempotency-Key it sent, up to THROTTLE_ANON (600) a minute: some 9 GB a day from one
link. A refusal changed nothing, and the request sent again is refused again by its view,
so its record is kept only for a phone's retry after an answer lost on the way (the
queue's next try, a few seconds on; a phone back in reach): REFUSALS_KEPT_FOR, ten
minutes, after which the purge (Celery beat, every five minutes) deletes it. A recorded
hand's answer is kept the day, as before."""

import datetime

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from club.tasks import purge_idempotency_records
from core.idempotency import KEEP_FOR, REFUSALS_KEPT_FOR
from core.models import IdempotencyRecord
from scoring.models import Hand

pytestmark = pytest.mark.django_db

# Hand 1 is recorded at `played`'s table: a second hand 1 is refused (409), one of six
# tricks too (400, law 2); hand 2 is recorded.
ALREADY = {"makers": "EW", "tricks": "3", "expected_number": "1"}
TOO_MANY_TRICKS = {"makers": "NS", "tricks": "6", "expected_number": "2"}
HAND_2 = {"makers": "NS", "tricks": "3", "expected_number": "2"}


def sent(phone: Client, token: str, form: dict, key: str):
    """A form sent from the table's phone as its queue sends it (htmx, with its key)."""
    return phone.post(f"/t/{token}/hand/", form, HTTP_HX_REQUEST="true", HTTP_IDEMPOTENCY_KEY=key)


def aged(key: str, by: datetime.timedelta) -> None:
    IdempotencyRecord.objects.filter(key=key).update(created_at=timezone.now() - by)


def kept() -> set[str]:
    return set(IdempotencyRecord.objects.values_list("key", flat=True))


def test_a_refusal_is_answered_again_from_its_record_for_ten_minutes_then_purged(played):
    phone, token = Client(), played.table.token
    answers = {
        key: sent(phone, token, form, key)
        for key, form in [("again", ALREADY), ("six", TOO_MANY_TRICKS), ("two", HAND_2)]
    }
    assert {key: a.status_code for key, a in answers.items()} == {
        "again": 409, "six": 400, "two": 200,
    }  # fmt: skip
    # A retry soon after (its answer lost on the way) is answered from the record.
    for key, form in [("again", ALREADY), ("six", TOO_MANY_TRICKS)]:
        retried = sent(phone, token, form, key)
        assert retried["Idempotent-Replayed"] == "true"
        assert (retried.status_code, retried.content) == (
            answers[key].status_code, answers[key].content,
        )  # fmt: skip
    # Within the ten minutes the purge keeps them; after, it forgets the refusals only.
    for key in ("again", "six", "two"):
        aged(key, REFUSALS_KEPT_FOR - datetime.timedelta(seconds=30))
    assert purge_idempotency_records.delay().get() == 0
    assert kept() == {"again", "six", "two"}
    for key in ("again", "six", "two"):
        aged(key, REFUSALS_KEPT_FOR + datetime.timedelta(seconds=30))
    assert purge_idempotency_records.delay().get() == 2
    assert kept() == {"two"}
    replayed = sent(phone, token, HAND_2, "two")
    assert replayed["Idempotent-Replayed"] == "true" and replayed.content == answers["two"].content
    # A refusal sent again after its record is gone is judged afresh: refused again.
    again = sent(phone, token, ALREADY, "again")
    assert again.status_code == 409 and not again.has_header("Idempotent-Replayed")
    assert Hand.objects.filter(rubber=played.rubber).count() == 2
    # The recorded hand's answer is kept the day.
    aged("two", KEEP_FOR - datetime.timedelta(minutes=1))
    purge_idempotency_records.delay().get()
    assert "two" in kept()
    aged("two", KEEP_FOR + datetime.timedelta(minutes=1))
    purge_idempotency_records.delay().get()
    assert "two" not in kept()


def test_a_refusal_at_the_api_by_a_tables_link_is_purged_after_ten_minutes(played):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Table {played.table.token}")
    url = f"/api/v1/clubs/somerset/rubbers/{played.rubber.pk}/hands/"
    refused = api.post(
        url, {"makers": "NS", "tricks": 6}, format="json", HTTP_IDEMPOTENCY_KEY="api-six"
    )
    assert refused.status_code == 400
    assert kept() == {"api-six"}
    aged("api-six", REFUSALS_KEPT_FOR + datetime.timedelta(seconds=30))
    assert purge_idempotency_records.delay().get() == 1
    assert not kept()


def test_the_purge_runs_often_enough_that_a_refusal_is_gone_within_a_quarter_hour():
    """The beat's schedule: a refusal lives REFUSALS_KEPT_FOR and at most one period more."""
    schedule = settings.CELERY_BEAT_SCHEDULE["idempotency-purge"]["schedule"]
    period = datetime.timedelta(seconds=schedule)
    assert REFUSALS_KEPT_FOR + period <= datetime.timedelta(minutes=15)
