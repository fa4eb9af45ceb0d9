from django.apps import AppConfig


class ScoringConfig(AppConfig):
    """The laws: pure rule sets (scoring.rules) and the rubbers, games and hands stored."""

    name = "scoring"
    verbose_name = "Scoring"
