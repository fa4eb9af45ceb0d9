from django.apps import AppConfig


class ClubConfig(AppConfig):
    """Clubs, secretaries, members, evenings, tables, cuts and cutting in and out."""

    name = "club"
    verbose_name = "Clubs and evenings"

    def ready(self):
        from club import schema  # noqa: F401  (registers the OpenAPI extension)
