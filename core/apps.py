from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Plumbing: errors, locks, audit, idempotency records, workers' heartbeats."""

    name = "core"
    verbose_name = "Plumbing"
