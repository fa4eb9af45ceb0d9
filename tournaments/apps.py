from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Club ladders, progressive tournaments, movements and standings."""

    name = "tournaments"
    verbose_name = "Tournaments and standings"

    def ready(self):
        from scoring.signals import rubber_changed
        from tournaments import (
            backup,
            receivers,
            signals,  # noqa: F401  (the public pages' cache invalidation)
        )

        # The standings' outbox row, written in the transaction that changed the rubber.
        rubber_changed.connect(receivers.note_rubber_changed, dispatch_uid="standings-outbox")
        backup.register()  # the tournaments' rows in a club's backup (club/backup.py)
