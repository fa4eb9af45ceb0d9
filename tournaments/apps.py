from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Club ladders, progressive tournaments, movements and standings."""

    name = "tournaments"
    verbose_name = "Tournaments and standings"

    def ready(self):
        from scoring.signals import rubber_changed
        from tournaments import (
            receivers,
            signals,  # noqa: F401  (the public pages' cache invalidation)
        )

        rubber_changed.connect(receivers.note_rubber_changed, dispatch_uid="standings-outbox")
