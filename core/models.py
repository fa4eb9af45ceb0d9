"""Operational rows, no club's records: the workers' heartbeats and the idempotency
records. Their tables were made by club's migrations and keep their names."""

from django.db import models


class WorkerHeartbeat(models.Model):
    """The last time a Celery worker ran the heartbeat task; /healthz reports it."""

    worker = models.CharField(max_length=200, unique=True)
    task_id = models.CharField(max_length=64)
    at = models.DateTimeField()

    class Meta:
        ordering = ["-at"]
        get_latest_by = "at"
        db_table = "club_workerheartbeat"  # made by club's migrations; kept

    def __str__(self):
        return f"{self.worker} at {self.at:%Y-%m-%d %H:%M:%S}"


class IdempotencyRecord(models.Model):
    """A write request made with an Idempotency-Key, and the answer it got.

    A retry with the same key, body and query string gets the stored answer; the same
    key with a different body or query string gets 422; a retry while the first is still
    running gets 409 (core.idempotency, after the IETF Idempotency-Key draft).
    """

    class State(models.TextChoices):
        RUNNING = "running", "Running"
        DONE = "done", "Done"

    key = models.CharField(max_length=255)
    principal = models.CharField(max_length=64)  # a hash of who asked (token, session)
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=500)
    fingerprint = models.CharField(max_length=64)  # a hash of the body and query string
    state = models.CharField(max_length=8, choices=State.choices, default=State.RUNNING)
    status = models.PositiveSmallIntegerField(null=True, blank=True)
    content_type = models.CharField(max_length=100, blank=True)
    body = models.BinaryField(blank=True, default=b"")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint("key", "principal", "method", "path", name="idempotency_once"),
        ]
        indexes = [models.Index(fields=["created_at"], name="club_idempo_created_608d57_idx")]
        db_table = "club_idempotencyrecord"  # made by club's migrations; kept

    def __str__(self):
        return f"{self.method} {self.path} [{self.key}] {self.state}"
