"""With Redis down, recording still succeeds, /healthz says so, and the recalculation
happens when Redis returns (the outbox sweep)."""

import time

import pytest
from django.core.cache import caches

from config.celery import app
from tests.conftest import needs
from tests.tournaments.conftest import hand, start
from tournaments import services
from tournaments.models import StandingsDirty

DOWN = "redis://127.0.0.1:1/0"  # nothing listens there


@pytest.fixture
def redis_down(settings):
    """The broker and the cache both point at a Redis that is not there."""
    needs(bool(settings.REDIS_URL), "needs Redis: set REDIS_URL=redis://...")
    previous = (app.conf.broker_url, app.conf.task_always_eager)
    settings.REDIS_URL = DOWN
    settings.CACHES = {
        "default": {**settings.CACHES["default"], "LOCATION": DOWN},
    }
    caches._settings = None  # Django re-reads CACHES for new connections
    app.conf.broker_url = DOWN
    app.conf.task_always_eager = False
    app._pool = None  # a new producer pool, for the dead broker
    yield
    app.conf.broker_url, app.conf.task_always_eager = previous
    app._pool = None


def test_recording_survives_a_dead_broker_and_the_sweep_catches_up(
    club, evening, ladder, commit, secretary_api, redis_down, client, settings
):
    rubber = start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"])
    began = time.monotonic()
    response = secretary_api.post(
        f"/api/v1/clubs/somerset/rubbers/{rubber.pk}/hands/", hand("NS", 3), format="json"
    )
    assert response.status_code == 201
    assert time.monotonic() - began < 5  # the request does not hang on the broker
    health = client.get("/healthz").json()
    assert health["broker"]["ok"] is False and health["status"] == "degraded"
    # The change waits in the outbox...
    assert StandingsDirty.objects.filter(tournament=ladder).exists()
    # ...and Redis returns: the periodic sweep sends the recalculation.
    settings.REDIS_URL = settings.CELERY_BROKER_URL
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": settings.REDIS_URL}}
    caches._settings = None
    app.conf.broker_url = settings.CELERY_BROKER_URL
    app.conf.task_always_eager = True
    assert services.standings_sweep() == [ladder.pk]
    assert not StandingsDirty.objects.filter(tournament=ladder).exists()
    ladder.refresh_from_db()
    assert ladder.standings_version >= 2
