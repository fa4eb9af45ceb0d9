"""A worker killed (SIGKILL) in the middle of a full recalculation: nothing half-written
is left, the task is delivered again (late acknowledgement) and the standings end the
same as a clean run's."""

import signal

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connections

from tests.conftest import needs
from tests.tournaments.conftest import record, start, sweep
from tests.worker import celery_worker, wait_for
from tournaments import services
from tournaments.models import Tournament, TournamentTotal
from tournaments.selectors import standings_published
from tournaments.tasks import recalculate_standings_full

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

# Redelivery of an unacknowledged task comes after the broker's visibility timeout: short
# here, so the test need not wait an hour.
FAST = {
    "CELERY_VISIBILITY_TIMEOUT": "6",
    "CELERY_UNACKED_RESTORE_INTERVAL": "1",
    "CELERY_UNACKED_RESTORE_THROTTLE": "1",
}


def rows(tournament):
    tournament.refresh_from_db()
    return standings_published(tournament=tournament)["rows"]


def test_a_killed_worker_leaves_standings_identical_to_a_clean_run(
    club, evening, ladder, commit, postgres
):
    needs(bool(settings.REDIS_URL), "needs Redis: set REDIS_URL=redis://...")
    record(commit, start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"]), *sweep("NS"))
    record(commit, start(club, evening, ["Edith", "Bob"], ["Frank", "Ann"]), *sweep("EW"))
    services.standings_full_recalculation(tournament_id=ladder.pk)
    clean = rows(ladder)
    TournamentTotal.objects.filter(tournament=ladder).update(points=0)  # to be put right
    version = Tournament.objects.get(pk=ladder.pk).standings_version

    # Another session holds the totals table, so the recalculation stops half-way, after
    # computing the totals and before writing them.
    blocker = connections.create_connection("default")
    blocker.set_autocommit(False)
    with blocker.cursor() as cursor:
        cursor.execute("LOCK TABLE tournaments_tournamenttotal IN ACCESS EXCLUSIVE MODE")
    key = services.PROGRESS_KEY.format(ladder.pk)
    try:
        cache.delete(key)  # the clean run above left "done"; wait for this run's own steps
        with celery_worker(pool="solo", extra_env=FAST) as (process, queue, _):
            recalculate_standings_full.delay(ladder.pk)
            wait_for(
                lambda: (
                    (cache.get(key) or {}).get("state") == "running"
                    and cache.get(key)["percent"] >= 70
                ),
                timeout=30,
            )
            process.send_signal(signal.SIGKILL)
            process.wait(10)
    finally:
        blocker.rollback()
        blocker.close()
    # The killed transaction left nothing: no new version, totals as they were.
    assert Tournament.objects.get(pk=ladder.pk).standings_version == version
    assert set(
        TournamentTotal.objects.filter(tournament=ladder).values_list("points", flat=True)
    ) == {0}

    # A new worker on the same queue is handed the unacknowledged task again.
    with celery_worker(pool="solo", extra_env=FAST, queue=queue):
        wait_for(
            lambda: Tournament.objects.get(pk=ladder.pk).standings_version > version, timeout=60
        )
    assert rows(ladder) == clean
