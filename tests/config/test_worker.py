"""A real Celery worker against Redis writes to PostgreSQL, and only after commit.

Runs in CI (.ci/run sets DATABASE_URL, REDIS_URL and CARDCLUB_REQUIRE_SERVICES=1);
on a laptop without them it is skipped, never in CI.
"""

import pytest
import redis
from django.conf import settings
from django.db import transaction

from club.tasks import worker_heartbeat
from core.models import WorkerHeartbeat
from tests.conftest import needs
from tests.worker import celery_worker, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker(postgres):
    needs(bool(settings.REDIS_URL), "needs Redis: set REDIS_URL=redis://...")
    with celery_worker() as started:
        yield started


def queue_length(queue: str) -> int:
    return redis.Redis.from_url(settings.REDIS_URL).llen(queue)


def test_task_is_enqueued_only_after_commit_and_writes_to_postgres(worker):
    _, queue, _ = worker
    with transaction.atomic():
        worker_heartbeat.delay_on_commit()
        # Inside the transaction nothing has reached the broker yet.
        assert queue_length(queue) == 0
    beat = wait_for(lambda: WorkerHeartbeat.objects.filter(worker__startswith=queue).first())
    assert beat.task_id  # the worker's own task id, written by the worker process


def test_task_of_a_rolled_back_transaction_is_never_sent(worker):
    _, queue, log = worker

    class Abort(Exception):
        pass

    with pytest.raises(Abort), transaction.atomic():
        worker_heartbeat.delay_on_commit()
        raise Abort
    # A committed task sent afterwards runs; the rolled-back one never existed.
    worker_heartbeat.delay_on_commit()
    # Its task done, as the worker's log says (the row is written before the log's line,
    # which a loaded machine wrote more than a second later). A stray task of the rolled
    # back transaction would have been sent first, so taken first from the queue by the
    # one worker process: done or at least received by now, and counted below.
    wait_for(lambda: "succeeded in" in log.read_text())
    assert WorkerHeartbeat.objects.filter(worker__startswith=queue).count() == 1
    assert queue_length(queue) == 0
    assert log.read_text().count("club.tasks.worker_heartbeat[") == 2  # received, succeeded
    assert log.read_text().count("succeeded in") == 1
