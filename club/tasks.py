"""Celery tasks of the club app."""

from celery import shared_task
from django.utils import timezone

from core.models import WorkerHeartbeat


@shared_task(bind=True)
def worker_heartbeat(self) -> str:
    """Record that a worker is alive and consuming; one row per worker, so it is idempotent.

    Celery beat sends it every minute (settings.CELERY_BEAT_SCHEDULE); /healthz shows
    the latest.
    """
    worker = self.request.hostname or "eager"
    WorkerHeartbeat.objects.update_or_create(
        worker=worker, defaults={"task_id": self.request.id or "", "at": timezone.now()}
    )
    return worker


@shared_task
def purge_idempotency_records() -> int:
    """Forget stored answers to Idempotency-Keys older than a day, and refusals older
    than ten minutes (core.idempotency.purge_expired)."""
    from core.idempotency import purge_expired

    return purge_expired()
