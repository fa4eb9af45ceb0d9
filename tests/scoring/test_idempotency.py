"""Idempotency-Key on writes: a retry gets the stored answer; a different body 422; a
retry while the first runs 409; two racing requests with one key record one hand."""

import threading

import pytest
from django.db import connection

from core.models import IdempotencyRecord
from scoring.models import Hand, Rubber
from tests.scoring.conftest import PAIRS

HAND = {"makers": "NS", "tricks": 3}


@pytest.fixture
def rubber(club, roster, secretary_api):
    response = secretary_api.post(
        f"/api/v1/clubs/{club.slug}/rubbers/",
        {"ruleset": "euchre-somerset-1888", "players": PAIRS},
    )
    return Rubber.objects.get(pk=response.json()["id"])


def post(client, rubber, body, key):
    return client.post(
        f"/api/v1/clubs/somerset/rubbers/{rubber.pk}/hands/", body, format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )  # fmt: skip


def test_a_retry_gets_the_stored_answer_and_records_nothing_more(rubber, secretary_api):
    first = post(secretary_api, rubber, HAND, "hand-1")
    again = post(secretary_api, rubber, HAND, "hand-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Hand.objects.filter(rubber=rubber).count() == 1
    other = post(secretary_api, rubber, HAND, "hand-2")
    assert other.status_code == 201
    assert Hand.objects.filter(rubber=rubber).count() == 2


def test_the_same_key_with_another_body_is_refused(rubber, secretary_api):
    post(secretary_api, rubber, HAND, "hand-1")
    response = post(secretary_api, rubber, {"makers": "EW", "tricks": 4}, "hand-1")
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "Idempotency-Key"
    assert Hand.objects.filter(rubber=rubber).count() == 1


def test_the_same_key_with_another_query_string_is_refused(rubber, secretary_api):
    """A rubber's hands/ still reads the hand's number from the query string (deprecated):
    the same key and body meaning another number is another request, refused as one with
    another body is, not answered with the first request's answer."""
    url = f"/api/v1/clubs/somerset/rubbers/{rubber.pk}/hands/"

    def send(query):
        return secretary_api.post(
            f"{url}{query}", HAND, format="json", HTTP_IDEMPOTENCY_KEY="hand-1"
        )

    first = send("?expected_number=1")
    assert first.status_code == 201
    assert send("?expected_number=1")["Idempotent-Replayed"] == "true"
    for other in ("?expected_number=2", ""):
        refused = send(other)
        assert refused.status_code == 422, other
        error = refused.json()["error"]
        assert error["code"] == "idempotency_key_reused" and error["field"] == "Idempotency-Key"
        assert "query string" in error["message"]
    assert Hand.objects.filter(rubber=rubber).count() == 1


def test_a_retry_while_the_first_is_running_gets_409(rubber, secretary_api):
    post(secretary_api, rubber, HAND, "hand-1")
    IdempotencyRecord.objects.update(state=IdempotencyRecord.State.RUNNING)
    response = post(secretary_api, rubber, HAND, "hand-1")
    assert response.status_code == 409
    assert response["Retry-After"] == "1"


def test_keys_belong_to_their_caller(rubber, secretary_api, staff_api):
    post(secretary_api, rubber, HAND, "hand-1")
    assert post(staff_api, rubber, HAND, "hand-1").status_code == 201
    assert Hand.objects.filter(rubber=rubber).count() == 2


def test_a_rejected_hand_is_stored_as_rejected(rubber, secretary_api):
    bad = post(secretary_api, rubber, {"makers": "NS", "tricks": 9}, "hand-1")
    assert bad.status_code == 400
    assert post(secretary_api, rubber, {"makers": "NS", "tricks": 9}, "hand-1").status_code == 400
    assert not Hand.objects.filter(rubber=rubber).exists()


@pytest.mark.django_db(transaction=True)
def test_racing_requests_with_one_key_record_one_hand(club, postgres):
    from rest_framework.test import APIClient

    from scoring import services
    from tests.factories import MemberFactory, UserFactory

    secretary = UserFactory()
    club.secretaries.add(secretary)
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        MemberFactory(club=club, name=name)
    rubber = services.rubber_start(club=club, ruleset="euchre-somerset-1888", players=PAIRS)
    barrier = threading.Barrier(4)
    statuses = []

    def phone():
        client = APIClient()
        client.force_authenticate(secretary)
        barrier.wait()
        statuses.append(post(client, rubber, HAND, "the-same-hand").status_code)
        connection.close()

    threads = [threading.Thread(target=phone) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert Hand.objects.filter(rubber=rubber).count() == 1
    assert set(statuses) <= {201, 409}
    assert 201 in statuses


@pytest.mark.django_db(transaction=True)
def test_the_records_writes_do_not_wait_for_the_disk(postgres):
    """The claim and the answer commit with `synchronous_commit` off (core.compiled's
    `NO_WAIT`): each for its own transaction only, and only when it wrote its row (a
    claim that found the key taken leaves the setting as it was)."""
    from django.db import transaction
    from django.http import HttpResponse
    from django.utils import timezone

    from core import idempotency

    def setting() -> str:
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            return cursor.fetchone()[0]

    scope = {"key": "k", "principal": "p", "method": "POST", "path": "/api/v1/x/"}
    with transaction.atomic():
        record = idempotency._insert_running(scope, "body", timezone.now())
        assert record is not None and setting() == "off"
    assert setting() == "on"
    with transaction.atomic():
        assert idempotency._insert_running(scope, "body", timezone.now()) is None
        assert setting() == "on"
    with transaction.atomic():
        idempotency._answer(record, HttpResponse(b"answer", status=201, content_type="text/x"))
        assert setting() == "off"
    assert setting() == "on"
    stored = IdempotencyRecord.objects.get(pk=record)
    assert (stored.state, stored.status, stored.content_type, bytes(stored.body)) == (
        IdempotencyRecord.State.DONE, 201, "text/x", b"answer",
    )  # fmt: skip


def test_answers_older_than_a_day_are_forgotten(rubber, secretary_api):
    import datetime

    from django.utils import timezone

    from club.tasks import purge_idempotency_records

    post(secretary_api, rubber, HAND, "hand-1")
    IdempotencyRecord.objects.update(created_at=timezone.now() - datetime.timedelta(days=2))
    assert purge_idempotency_records.delay().get() == 1
    assert post(secretary_api, rubber, HAND, "hand-1").status_code == 201  # a new request


@pytest.mark.parametrize("key", ["hand\x00", "hand\n1", "\x1b[2J"])
def test_a_key_with_control_characters_is_refused(rubber, secretary_api, key):
    """Guards core.idempotency: a NUL in the key was a 500 on PostgreSQL (its text cannot
    hold one); a key is printable text, refused with 400 on the field, nothing recorded."""
    response = post(secretary_api, rubber, HAND, key)
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "Idempotency-Key"
    assert not Hand.objects.filter(rubber=rubber).exists()
    assert not IdempotencyRecord.objects.exists()


@pytest.mark.parametrize(
    "path", ["/api/v1/%00/", "/t/%00/hand/", "/api/v1/" + "x" * 600 + "/"], ids=["nul", "t", "long"]
)
def test_a_path_no_record_can_hold_is_answered_by_its_view(db, secretary_api, path):
    """Guards core.idempotency: a write with a key to a path holding a NUL, or longer than
    the record's column, was a 500 on PostgreSQL; such a path names no row, so it is
    answered (404) without a record."""
    response = secretary_api.post(path, {}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert response.status_code == 404
    assert not IdempotencyRecord.objects.exists()


def test_a_login_is_never_stored_with_its_token_and_password(db, secretary):
    """A login's answer holds the caller's token and its body the password: the record
    would keep both for a day (the body's digest unsalted). A login with a key is answered
    afresh each time, and nothing is stored."""
    from rest_framework.test import APIClient

    login = {"username": secretary.username, "password": "correct horse battery"}
    answers = [
        APIClient().post("/api/v1/auth/token/", login, format="json", HTTP_IDEMPOTENCY_KEY="k")
        for _ in range(2)
    ]
    assert [a.status_code for a in answers] == [200, 200]
    # Each login issues a token of its own (club.secretary_tokens): a replay would repeat one.
    assert answers[0].json()["token"] != answers[1].json()["token"]
    assert not answers[1].has_header("Idempotent-Replayed")
    assert not IdempotencyRecord.objects.exists()


@pytest.mark.parametrize(
    ("credentials", "path", "status"),
    [
        ("", "/api/v1/clubs/somerset/rubbers/{r}/hands/", 401),  # no one
        ("Token not-a-token", "/api/v1/clubs/somerset/rubbers/{r}/hands/", 401),
        ("", "/api/v1/clubs/somerset/nothing/", 404),  # an address that names nothing
        ("", "/t/not-a-token/hand/", 404),  # a phone's link that never was one
        ("", "/api/v1/rulesets/", 405),  # a read-only address
    ],
)
def test_a_write_let_in_nowhere_leaves_no_record(rubber, credentials, path, status):
    """A write refused before anything is done (not let in, no such address or method)
    is answered afresh each time and keeps no record: a record was kept a day for each,
    so anyone, logged in or not, could have the service store a row per request (those
    are never throttled: the throttles run inside the views they never reach)."""
    from rest_framework.test import APIClient

    client = APIClient()
    if credentials:
        client.credentials(HTTP_AUTHORIZATION=credentials)
    url = path.format(r=rubber.pk)
    for key in ("k-1", "k-1", "k-2"):
        response = client.post(url, HAND, format="json", HTTP_IDEMPOTENCY_KEY=key)
        assert response.status_code == status
        assert not response.has_header("Idempotent-Replayed")
    assert not IdempotencyRecord.objects.exists()
