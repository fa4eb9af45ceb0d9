"""What the standings learn from scoring's domain events (scoring/signals.py).

Connected in TournamentsConfig.ready(). The receiver runs inside the transaction that
rewrote the rubber, so the standings' outbox row commits with the hand or not at all
(docs/architecture.md, "Standings").
"""

from tournaments.corrections import reopening_refusal
from tournaments.models import RoundTable
from tournaments.services import standings_note_change


def note_rubber_changed(sender, *, rubber, member_ids, **kwargs) -> None:
    """A rubber's figures changed: mark its players dirty in every tournament it counts in."""
    standings_note_change(rubber=rubber, member_ids=member_ids)


def refuse_take_off_after_moving_on(sender, *, rubber, number, won_before=None, **kwargs) -> None:
    """The last deal of a round's table was taken off (any door: the rubber's page, the
    API): refused, rolling it back, when it decided a round its players have moved on
    from (tournaments.corrections.reopening_refusal, ruling E9)."""
    _keep_decided(rubber, number=number, won_before=won_before, correction=False)


def refuse_correction_reopening_a_round(
    sender, *, rubber, number, won_before=None, **kwargs
) -> None:
    """A deal of a round's table was corrected (any door): refused, rolling it back, when
    it leaves undecided a round its players have moved on from (ruling E9)."""
    _keep_decided(rubber, number=number, won_before=won_before, correction=True)


def _keep_decided(rubber, *, number: int, won_before: str | None, correction: bool) -> None:
    if won_before is None or rubber.evening_id is not None:
        return  # undecided, or an evening's rubber: nothing has moved on from a round
    table = RoundTable.objects.select_related("round").filter(rubber=rubber).first()
    if table is None:
        return  # not a progressive's rubber
    table.rubber = rubber  # as changed, under its lock
    refusal = reopening_refusal(table, number=number, won=won_before, correction=correction)
    if refusal is not None:
        raise refusal
