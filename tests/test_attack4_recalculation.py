"""An attacker's pass (the fourth): a club's officer flooding the service's one queue of
tasks with full recalculations of his own tournament.

The director's page (no throttle on its posts) and the API's tournament door each asked
for a full recalculation of the standings at every press of "Recalculate": a script
posting it fifty times in two seconds put fifty full recalculations in the queue every
club's standings wait in. A full recalculation already queued for the tournament, not yet
started, answers for the presses after it (`services.standings_request_full`), as a hand's
recalculation is queued once (`services.standings_schedule`)."""

import uuid

import pytest
import redis
from django.conf import settings

from config.celery import app
from tests.conftest import needs
from tournaments import services


@pytest.fixture
def queue():
    """Tasks sent to a queue of this test's own in the real broker, which no worker reads:
    they wait there, as behind a busy worker; the queue's length counts them."""
    needs(bool(settings.REDIS_URL), "needs Redis: set REDIS_URL=redis://...")
    name = f"attack4-{uuid.uuid4().hex[:8]}"
    previous = (app.conf.task_always_eager, app.conf.task_default_queue)
    app.conf.task_always_eager = False
    app.conf.task_default_queue = name
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    try:
        yield lambda: broker.llen(name)
    finally:
        app.conf.task_always_eager, app.conf.task_default_queue = previous
        broker.delete(name)


@pytest.fixture
def ladder(club):
    return services.tournament_create(club=club, name="Season", slug="season", kind="ladder")


def test_recalculate_pressed_again_and_again_queues_one_full_recalculation(
    club, secretary, ladder, client, queue, django_capture_on_commit_callbacks
):
    client.force_login(secretary)
    for _ in range(5):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                f"/secretary/tournaments/{ladder.pk}/act/", {"action": "recalculate"}
            )
        assert response.status_code == 200
    assert queue() == 1
    progress = client.get(f"/secretary/tournaments/{ladder.pk}/progress/").content.decode()
    assert "A full recalculation is asked for: waiting to start" in progress


def test_the_api_door_queues_one_too(
    club, secretary, ladder, queue, django_capture_on_commit_callbacks
):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(secretary)
    for _ in range(5):
        with django_capture_on_commit_callbacks(execute=True):
            response = api.post(
                f"/api/v1/clubs/{club.slug}/tournaments/{ladder.slug}/recalculation/"
            )
        assert response.status_code in (200, 202), response.content
    assert queue() == 1


def test_a_press_once_the_queued_one_has_started_queues_one_more(
    club, secretary, ladder, client, django_capture_on_commit_callbacks
):
    """The flag is cleared when the recalculation starts: a change after it began is
    recalculated again (here tasks run in-process, each starting as it is sent)."""
    from tournaments.models import StandingsVersion

    client.force_login(secretary)
    before = StandingsVersion.objects.filter(tournament=ladder).count()
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            client.post(f"/secretary/tournaments/{ladder.pk}/act/", {"action": "recalculate"})
    assert StandingsVersion.objects.filter(tournament=ladder).count() == before + 2
