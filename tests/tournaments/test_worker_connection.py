"""A real worker keeps its database connection from task to task (config/celery.py):
Celery's Django fixup would otherwise open a new PostgreSQL backend for every
recalculation, which cost more than the recalculation itself."""

import pytest
from django.conf import settings
from django.db import connection

from club import recording
from scoring import services as scoring
from tests.conftest import needs
from tests.factories import EveningFactory, MemberFactory
from tests.worker import celery_worker, wait_for
from tournaments import services
from tournaments.models import Tournament

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _worker_backends() -> set[tuple[int, object]]:
    """The other sessions on the test database: (process id, when it began)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, backend_start FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return set(cursor.fetchall())


def test_the_worker_keeps_one_connection_across_recalculations(club, postgres):
    needs(bool(settings.REDIS_URL), "needs Redis: set REDIS_URL=redis://...")
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        MemberFactory(club=club, name=name)
    evening = EveningFactory(club=club)
    ladder = services.tournament_create(
        club=club, name="Ladder", slug="ladder", kind="ladder", evening_ids=[evening.pk]
    )
    rubber = scoring.rubber_start(
        club=club, evening=evening, ruleset="euchre-somerset-1888",
        players={"NS": ["Ann", "Bob"], "EW": ["Cora", "Dan"]},
    )  # fmt: skip
    seen = []
    with celery_worker(concurrency=1):
        wait_for(lambda: Tournament.objects.get(pk=ladder.pk).standings_version >= 1)
        for tricks in (3, 4, 3):
            before = Tournament.objects.get(pk=ladder.pk).standings_version
            recording.hand_record(rubber_id=rubber.pk, data={"makers": "NS", "tricks": tricks})
            wait_for(lambda b=before: Tournament.objects.get(pk=ladder.pk).standings_version > b)
            seen.append(wait_for(_worker_backends))
    # The same backend (same process, begun at the same moment) after each recalculation:
    # none was closed at a task's end and opened again for the next.
    assert seen[0] == seen[1] == seen[2], seen
