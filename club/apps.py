from django.apps import AppConfig


class ClubConfig(AppConfig):
    """Clubs, secretaries, members, evenings, tables, cuts and cutting in and out."""

    name = "club"
    verbose_name = "Clubs and evenings"

    def ready(self):
        from django.conf import settings
        from django.db.models.signals import pre_save

        from club import (
            confirmations,
            evening_receivers,
            schema,  # noqa: F401  (registers the OpenAPI extension)
            secretary_tokens,
        )
        from scoring import signals

        # An account's API tokens end when its password changes by any door (the admin,
        # changepassword, a reset), and outlive Django's re-hash of the same password.
        pre_save.connect(
            secretary_tokens.on_account_saving,
            sender=settings.AUTH_USER_MODEL,
            dispatch_uid="api-tokens-password",
        )

        # The evening learns of the hands changed at its tables from scoring's events.
        signals.hand_recorded.connect(
            evening_receivers.on_hand_recorded, dispatch_uid="evening-hand"
        )
        signals.hand_corrected.connect(
            evening_receivers.on_hand_corrected, dispatch_uid="evening-correction"
        )
        signals.hand_removed.connect(
            evening_receivers.on_hand_removed, dispatch_uid="evening-removal"
        )
        signals.rubber_finished.connect(
            evening_receivers.on_rubber_finished, dispatch_uid="evening-rubber-end"
        )
        # A player's page kept rendered is rendered again when what it shows changes
        # (club/player_cache.py).
        from django.db.models.signals import post_delete, post_save

        from club import player_cache
        from club.models import Club, Evening, Member, Table

        signals.rubber_changed.connect(player_cache.on_rubber_changed, dispatch_uid="player-page")
        # A rubber begun (scoring writes a rubber's later changes without Django's model
        # signals: tests/test_compiled.py).
        signals.rubber_started.connect(player_cache.on_rubber_changed, dispatch_uid="player-page")
        for model in (Club, Member, Evening, Table):
            for signal in (post_save, post_delete):
                signal.connect(player_cache.on_row_saved, sender=model, dispatch_uid="player-page")
        # The other side confirms a hand recorded at a table (a club's option).
        signals.hand_recorded.connect(
            confirmations.on_hand_recorded, dispatch_uid="confirmation-hand"
        )
        signals.hand_corrected.connect(
            confirmations.on_hand_corrected, dispatch_uid="confirmation-correction"
        )
