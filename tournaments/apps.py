from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Club ladders, progressive tournaments, movements and standings."""

    name = "tournaments"
    verbose_name = "Tournaments and standings"

    def ready(self):
        from tournaments import signals  # noqa: F401  (the public pages' cache invalidation)
