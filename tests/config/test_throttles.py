"""The API's rates (config/throttles.py): anonymous callers at THROTTLE_ANON, a table's
phone per its table's link, anyone else per address; logged-in callers per account at
THROTTLE_USER. The table's phone's posts to its pages are counted by the same throttles
in the same windows (config/ratelimit.py); pages read are not counted."""

import threading

import pytest
from django.core.cache import cache, caches
from django.test import Client, override_settings
from rest_framework.settings import api_settings
from rest_framework.test import APIClient

from config.throttles import AnonRateThrottle, _link_ident, rate_log
from core import redisops
from scoring.models import Hand
from tests.conftest import LOCAL_CACHE as LOCAL
from tests.conftest import REDIS_DOWN as DOWN
from tests.worlds import club_in_play


def statuses(client, n: int, **extra) -> list[int]:
    return [client.get("/api/v1/clubs/", **extra).status_code for _ in range(n)]


def counted(key: str) -> int:
    """The requests a throttle's window holds under `key` (DRF's cache key): with Redis
    the sorted set `rate_log` keeps, else DRF's own list in the cache."""
    backend = redisops.redis_cache()
    if backend is None:
        return len(cache.get(key) or [])
    client = backend.client
    return client.get_client().zcard(client.make_key(f"rate:{key}"))


def test_an_anonymous_caller_is_counted_once_per_address_at_the_anonymous_rate(club, rates):
    assert statuses(APIClient(), 4) == [200, 200, 200, 429]
    # Counted by the anonymous throttle alone: no second count for the same address.
    assert counted("throttle_anon_127.0.0.1") == 3  # the refused fourth is not counted
    assert counted("throttle_user_127.0.0.1") == 0
    # Another address has its own count.
    assert statuses(APIClient(REMOTE_ADDR="10.0.0.9"), 1) == [200]


def test_a_logged_in_caller_is_counted_per_account_at_the_user_rate(club, secretary_api, rates):
    assert statuses(secretary_api, 6) == [200] * 5 + [429]
    assert counted("throttle_anon_127.0.0.1") == 0
    assert counted("throttle_user_127.0.0.1") == 0  # per account, not per address


def test_with_redis_down_a_rate_lets_the_request_through():
    with override_settings(CACHES=DOWN):
        answer = rate_log("r", now=1000.0, window=60, limit=1)
        assert answer.allowed and answer.count == 0


def test_the_window_holds_limit_requests_and_forgets_them_as_they_age(redis):
    def at(now):
        return rate_log("rate:test", now=now, window=60, limit=3)

    assert [at(t).allowed for t in (1000.0, 1010.0, 1020.0)] == [True, True, True]
    refused = at(1030.0)
    # Refused, not counted, and the oldest named: DRF's `wait` is worked out from it.
    assert (refused.allowed, refused.count, refused.oldest) == (False, 3, 1000.0)
    assert at(1059.9).allowed is False
    # At 1060 the request of 1000 has left the window (DRF drops one `<= now - duration`).
    assert at(1060.0).allowed is True
    assert at(1060.5).allowed is False


def test_requests_at_the_same_moment_are_never_let_through_past_the_limit(redis):
    # DRF's read-then-write let two requests at once both see room for one.
    allowed = []

    def ask():
        answer = rate_log("rate:race", now=2000.0, window=60, limit=5)
        allowed.append(answer.allowed)

    threads = [threading.Thread(target=ask) for _ in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert allowed.count(True) == 5


@pytest.fixture
def two_a_minute(monkeypatch):
    small = {**api_settings.DEFAULT_THROTTLE_RATES, "anon": "2/min"}
    monkeypatch.setattr(AnonRateThrottle, "THROTTLE_RATES", small)


def test_a_refused_caller_is_told_how_long_to_wait(club, redis, two_a_minute):
    client = APIClient(REMOTE_ADDR="10.0.0.7")
    answers = [client.get("/api/v1/clubs/") for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    # DRF's rule: the window's length less the oldest request's age (just now: ~60 s).
    assert 55 <= int(answers[2]["Retry-After"]) <= 60


def test_without_redis_the_api_throttles_as_drf_does(club, two_a_minute):
    with override_settings(CACHES=LOCAL):
        client = APIClient(REMOTE_ADDR="10.0.0.8")
        assert [client.get("/api/v1/clubs/").status_code for _ in range(3)] == [200, 200, 429]
        assert len(caches["default"].get("throttle_anon_10.0.0.8")) == 2  # DRF's list


# --- the table's phone's posts --------------------------------------------------------------


@pytest.fixture
def played(db, django_capture_on_commit_callbacks):
    """Table 1 of a Euchre evening with hand 1 recorded (tests/worlds.py)."""
    return club_in_play(django_capture_on_commit_callbacks)


def hand(number: int) -> dict:
    return {"makers": "NS", "tricks": "3", "expected_number": str(number)}


def test_the_phones_posts_are_counted_as_the_apis_requests(played, rates):
    url = f"/t/{played.table.token}/hand/"
    phone = Client(REMOTE_ADDR="10.0.0.5")
    answers = [phone.post(url, hand(number)) for number in (2, 3, 4, 5)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    refused = answers[3]
    # Said in words, with how long to wait (DRF's rule: the window less the oldest's age).
    wait = int(refused["Retry-After"])
    assert 55 <= wait <= 60
    page = refused.content.decode()
    assert f"Too many requests from this table; wait {wait} seconds and try again." in page
    assert f'href="/t/{played.table.token}/"' in page  # back to the table's page
    assert Hand.objects.filter(rubber=played.rubber).count() == 4  # the fourth not recorded
    # One window per table link for both doors: the API with the table's link is refused
    # too, from any address; the same address without the link is not.
    table_api = APIClient(REMOTE_ADDR="10.0.0.9", HTTP_AUTHORIZATION=f"Table {played.table.token}")
    assert table_api.get("/api/v1/me/").status_code == 429
    assert Client(REMOTE_ADDR="10.0.0.6").post(url, hand(5)).status_code == 429
    assert APIClient(REMOTE_ADDR="10.0.0.5").get("/api/v1/clubs/").status_code == 200
    # Reading is never counted: the page and its polls still answer.
    assert {phone.get(f"/t/{played.table.token}/").status_code for _ in range(5)} == {200}


@pytest.mark.parametrize("keyed", [False, True], ids=["no key", "Idempotency-Key"])
def test_a_logged_in_caller_posting_at_the_table_is_counted_per_account(played, rates, keyed):
    """With an Idempotency-Key the rate is asked before the record is claimed, and again
    by the page: the post is counted once, not twice (config.throttles `_counted_once`)."""
    client = Client(REMOTE_ADDR="10.0.0.5")
    client.force_login(played.secretary)
    url = f"/t/{played.table.token}/hand/"
    statuses = [
        client.post(
            url, {"tricks": "x"}, **({"HTTP_IDEMPOTENCY_KEY": f"k{i}"} if keyed else {})
        ).status_code
        for i in range(6)
    ]
    assert statuses == [400] * 5 + [429]  # the user rate (5), not the anonymous one (3)


def test_a_throttled_post_is_not_kept_for_its_idempotency_key(played, rates):
    """The phone sends a refused hand again with the same key: once the wait is over it
    is recorded, not answered 429 again from the key's record."""
    url = f"/t/{played.table.token}/hand/"
    phone = Client(REMOTE_ADDR="10.0.0.5")
    for number in (2, 3, 4):
        phone.post(url, hand(number), HTTP_IDEMPOTENCY_KEY=f"hand-{number}")
    refused = phone.post(url, hand(5), HTTP_IDEMPOTENCY_KEY="hand-5")
    assert refused.status_code == 429
    cache.clear()  # the minute is over
    again = phone.post(url, hand(5), HTTP_IDEMPOTENCY_KEY="hand-5")
    assert again.status_code == 200 and "Hand 5 recorded." in again.content.decode()
    assert Hand.objects.filter(rubber=played.rubber).count() == 5


def test_a_throttled_write_claims_no_idempotency_record(played, rates):
    """The idempotency record was claimed (a committed insert) before the view's throttle
    refused the write, then deleted: two writes for every throttled request, the flood
    the throttle is there to stop. The rate is asked first (core.idempotency,
    config.ratelimit.write_refused); the request is counted once, not twice."""
    from core.models import IdempotencyRecord

    url = f"/t/{played.table.token}/hand/"
    phone = Client(REMOTE_ADDR="10.0.0.5")
    for number in (2, 3, 4):
        assert phone.post(url, hand(number), HTTP_IDEMPOTENCY_KEY=f"h{number}").status_code == 200
    assert counted(f"throttle_anon_{_link_ident(played.table.token)}") == 3  # once each
    assert IdempotencyRecord.objects.count() == 3
    claims = []

    def watch(execute, sql, params, many, context):
        if "idempotency" in sql.lower():
            claims.append(sql)
        return execute(sql, params, many, context)

    from django.db import connection

    with connection.execute_wrapper(watch):
        refused = [phone.post(url, hand(5), HTTP_IDEMPOTENCY_KEY=f"flood-{i}") for i in range(5)]
    assert {r.status_code for r in refused} == {429}
    assert "Too many requests from this table; wait" in refused[0].content.decode()
    assert claims == []  # no record claimed, none deleted
    assert IdempotencyRecord.objects.count() == 3
    # The API's writes with the table's link alike.
    api = APIClient(REMOTE_ADDR="10.0.0.8", HTTP_AUTHORIZATION=f"Table {played.table.token}")
    with connection.execute_wrapper(watch):
        answer = api.post(
            f"/api/v1/clubs/somerset/rubbers/{played.rubber.pk}/hands/",
            {"makers": "NS", "tricks": 3}, format="json", HTTP_IDEMPOTENCY_KEY="api-flood",
        )  # fmt: skip
    assert answer.status_code == 429 and claims == []
    assert answer.json()["error"]["code"] == "throttled"
