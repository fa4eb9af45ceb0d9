from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Plumbing: errors, locks, audit, idempotency records, workers' heartbeats."""

    name = "core"
    verbose_name = "Plumbing"

    def ready(self):
        from core.logs import hide_links_in_logs

        # Django has set logging up from settings.LOGGING before any app is ready; so has
        # gunicorn before it loads the service (core/logs.py).
        hide_links_in_logs()
