"""The API's rates (config/throttles.py): anonymous callers, a table's phone among them,
per address at THROTTLE_ANON; logged-in callers per account at THROTTLE_USER."""

import pytest
from django.core.cache import cache
from rest_framework.settings import api_settings
from rest_framework.test import APIClient

from config.throttles import AnonRateThrottle, UserRateThrottle


@pytest.fixture
def rates(monkeypatch):
    """Rates small enough to reach in a test (DRF reads them when the classes are made)."""
    small = {**api_settings.DEFAULT_THROTTLE_RATES, "anon": "3/min", "user": "5/min"}
    for throttle in (AnonRateThrottle, UserRateThrottle):
        monkeypatch.setattr(throttle, "THROTTLE_RATES", small)


def statuses(client, n: int, **extra) -> list[int]:
    return [client.get("/api/v1/clubs/", **extra).status_code for _ in range(n)]


def test_an_anonymous_caller_is_counted_once_per_address_at_the_anonymous_rate(club, rates):
    assert statuses(APIClient(), 4) == [200, 200, 200, 429]
    # Counted by the anonymous throttle alone: no second count for the same address.
    assert cache.get("throttle_anon_127.0.0.1") is not None
    assert cache.get("throttle_user_127.0.0.1") is None
    # Another address has its own count.
    assert statuses(APIClient(REMOTE_ADDR="10.0.0.9"), 1) == [200]


def test_a_logged_in_caller_is_counted_per_account_at_the_user_rate(club, secretary_api, rates):
    assert statuses(secretary_api, 6) == [200] * 5 + [429]
    assert cache.get("throttle_anon_127.0.0.1") is None
