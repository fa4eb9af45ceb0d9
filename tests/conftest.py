"""Fixtures for the usual actors: clubs, secretaries, API clients, a real worker.

Tests that need PostgreSQL or a real Celery worker skip on a laptop's SQLite run;
under `.ci/run` (CARDCLUB_REQUIRE_SERVICES=1) such a skip is turned into a failure,
so CI can never pass by not running them.
"""

import os

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import ClubFactory, UserFactory

REQUIRE_SERVICES = os.environ.get("CARDCLUB_REQUIRE_SERVICES") == "1"


def needs(condition: bool, reason: str):
    """Skip when a service is missing, except in CI, where that is an error."""
    if condition:
        return
    if REQUIRE_SERVICES:
        pytest.fail(f"CI requires this test to run, but: {reason}")
    pytest.skip(reason)


@pytest.fixture
def postgres(settings):
    """Require PostgreSQL (locks, constraints PostgreSQL alone enforces)."""
    needs(settings.IS_POSTGRES, "needs PostgreSQL: set DATABASE_URL=postgres://...")


@pytest.fixture(autouse=True)
def _eager_celery_and_fresh_cache(settings):
    """Run tasks in-process unless a test starts a real worker; start each test with an
    empty cache so throttles and cached pages do not leak between tests."""
    from django.core.cache import cache

    from config.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    cache.clear()
    yield
    app.conf.task_always_eager = previous


@pytest.fixture
def api():
    """An anonymous API client."""
    return APIClient()


@pytest.fixture
def club(db):
    return ClubFactory(name="Somerset Club", slug="somerset")


@pytest.fixture
def other_club(db):
    return ClubFactory(name="Tremont Club", slug="tremont")


@pytest.fixture
def secretary(club):
    user = UserFactory(username="secretary")
    club.secretaries.add(user)
    return user


@pytest.fixture
def other_secretary(other_club):
    user = UserFactory(username="other-secretary")
    other_club.secretaries.add(user)
    return user


@pytest.fixture
def staff(db):
    return UserFactory(username="staff", is_staff=True)


def token_client(user) -> APIClient:
    """An API client authenticated by the user's token, as a secretary's script would be."""
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def secretary_api(secretary):
    return token_client(secretary)


@pytest.fixture
def other_secretary_api(other_secretary):
    return token_client(other_secretary)


@pytest.fixture
def staff_api(staff):
    return token_client(staff)
