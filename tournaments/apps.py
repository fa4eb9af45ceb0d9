from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Club ladders, progressive tournaments, movements and standings."""

    name = "tournaments"
    verbose_name = "Tournaments and standings"
