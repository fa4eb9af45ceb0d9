"""The Celery app, and the base class every task of the service uses.

Tasks take ids, load the rows they need, call a service and are enqueued only
after the surrounding transaction commits (`delay_on_commit`), so a worker
never sees a row that was rolled back or not yet written. With no broker
configured (no REDIS_URL) the same tasks run eagerly in-process.
"""

import os

from celery import Celery, signals
from celery.contrib.django.task import DjangoTask
from django.db import InterfaceError, OperationalError, close_old_connections

from config import collector

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


class ClubTask(DjangoTask):
    """Base task: late acknowledgement, capped retries with back-off.

    The back-off is capped far below the broker's visibility timeout, so a
    retrying task is never also redelivered.
    Only transient database errors are retried; a bug fails loudly.
    """

    autoretry_for = (OperationalError, InterfaceError)
    retry_backoff = 2
    retry_jitter = True
    acks_late = True
    reject_on_worker_lost = True
    retry_backoff_max = 600  # seconds; below CELERY_VISIBILITY_TIMEOUT (a test holds this)
    max_retries = 5


app = Celery("cardclub", task_cls=ClubTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


# The worker keeps its database connection from task to task, as gunicorn keeps one
# from request to request (CONN_MAX_AGE), instead of Celery's default of opening a
# fresh one for every task: a recalculation of a few milliseconds otherwise pays for a
# new PostgreSQL backend each time (connecting, and the backend's catalog caches
# warmed again on its first queries). CELERY_DB_REUSE_MAX bounds the reuse; around each
# task Django's own check closes a connection that is broken or older than its age,
# as it does around each request.
@signals.task_prerun.connect
@signals.task_postrun.connect
def _database_connection_as_a_request(task=None, **kwargs) -> None:
    # An eager task runs inside its caller's request (and transaction): never there.
    if task is not None and not getattr(task.request, "is_eager", False):
        close_old_connections()


@signals.worker_process_init.connect
def _settle_the_collector(**kwargs) -> None:
    """Each of the worker's processes, once started, takes what it has made so far out
    of the garbage collector's walks, as gunicorn's workers do (config/collector.py)."""
    collector.settle()
