from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Club ladders, progressive tournaments, movements and standings."""

    name = "tournaments"
    verbose_name = "Tournaments and standings"

    def ready(self):
        from club.permissions import register_recorder
        from club.selectors import (
            register_hidden_rubbers,
            register_private_entries,
            register_rubber_places,
        )
        from scoring.signals import hand_corrected, hand_removed, rubber_changed
        from tournaments import (
            backup,
            receivers,
            signals,  # noqa: F401  (the public pages' cache invalidation)
        )
        from tournaments.rounds import directors_at_round_tables
        from tournaments.selectors import (
            guests_of_private_progressives,
            round_table_places,
            rubbers_of_private_progressives,
        )

        # The standings' outbox row, written in the transaction that changed the rubber.
        rubber_changed.connect(receivers.note_rubber_changed, dispatch_uid="standings-outbox")
        # A take-off or a correction that would reopen a round its players have moved on
        # from is refused (tournaments.corrections).
        hand_removed.connect(
            receivers.refuse_take_off_after_moving_on, dispatch_uid="round-take-off"
        )
        hand_corrected.connect(
            receivers.refuse_correction_reopening_a_round, dispatch_uid="round-correction"
        )
        backup.register()  # the tournaments' rows in a club's backup (club/backup.py)
        # A club's directors record hands at its progressives' tables, at the API's rubber
        # doors as on the tables' pages (tournaments/views_table.py).
        register_recorder(directors_at_round_tables)
        # A progressive's rubbers are as public as its standings (club.selectors).
        register_hidden_rubbers(rubbers_of_private_progressives)
        # ... and so is a guest it alone entered (club.selectors.members_hidden_from).
        register_private_entries(guests_of_private_progressives)
        # A round table's rubber is named by its tournament, round and table on the pages.
        register_rubber_places(round_table_places)
