"""What the standings learn from scoring's domain events (scoring/signals.py).

Connected in TournamentsConfig.ready(). The receiver runs inside the transaction that
rewrote the rubber, so the standings' outbox row commits with the hand or not at all
(docs/architecture.md, "Standings").
"""

from tournaments.services import standings_note_change


def note_rubber_changed(sender, *, rubber, member_ids, **kwargs) -> None:
    """A rubber's figures changed: mark its players dirty in every tournament it counts in."""
    standings_note_change(rubber=rubber, member_ids=member_ids)
