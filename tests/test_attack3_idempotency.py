"""Attacks, round three: rows anyone could have the service keep.

`POST /api/v1/scoresheets/score` scores a sheet and stores nothing, and anyone may call it
(THROTTLE_SCORESHEET, 30 a minute an address). Sent with an `Idempotency-Key`, its answer
(160 kB for a Call-Ace sitting of 500 deals) was kept a day for the key (core.idempotency):
one address could have some seven gigabytes a day written to the database, and many
addresses more. A request that writes nothing needs no record: sent again, it is done
again and gives the same answer. Now it keeps none.
"""

import pytest
from django.test import Client

from core.models import IdempotencyRecord

pytestmark = pytest.mark.django_db

SITTING = {
    "ruleset": "call-ace-foster-1905",
    "players": ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus"],
    "deals": [{"maker": "Ann", "partner": "Bob", "tricks": 2}] * 500,
}


def test_a_scoresheet_scored_with_an_idempotency_key_keeps_no_record():
    caller = Client()

    def score(key: str):
        return caller.post(
            "/api/v1/scoresheets/score",
            SITTING,
            content_type="application/json",
            headers={"Idempotency-Key": key},
        )

    answers = [score(key) for key in ("sheet-1", "sheet-2", "sheet-1")]
    assert [answer.status_code for answer in answers] == [200] * 3
    assert len(answers[0].content) > 100_000
    assert answers[2].json() == answers[0].json()  # done again: the same sheet, the same score
    assert "Idempotent-Replayed" not in answers[2]
    assert not IdempotencyRecord.objects.exists()


def test_a_post_sent_to_the_login_page_keeps_no_record():
    """The directors' table page (`/secretary/tournaments/...`) takes an Idempotency-Key,
    as the phone's queue sends it; posted to by someone not logged in (a CSRF token is
    anyone's, from any form), it answers a redirect to the login page, and that answer was
    kept a day, a row for every key, with no throttle on those pages: anyone could have
    rows written without end. A redirect to log in is a refusal before anything was done,
    kept no more than a 401 or a 403."""
    caller = Client()
    for key in ("a", "b", "c"):
        answer = caller.post(
            "/secretary/tournaments/1/rounds/1/tables/1/", {}, headers={"Idempotency-Key": key}
        )
        assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")
    assert not IdempotencyRecord.objects.exists()
