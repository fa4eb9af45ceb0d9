"""Undoing the last action of an evening from the secretary's board (docs/evening-log.md).

The log is never rewritten: an undo is a new event, `{"type": "undo", "undoes": seq}`,
naming the entry it reverses. Its effect is that of replaying the log without that
entry: the engine's state is the log's board actions replayed from the start, the undone
one (and every undo) left out, and the rows the action made are taken away again: the
table it formed (with its phone link), the rubber or sitting it began (no hand has been
played in it: nothing has happened since) and the record of its cut (the cards stay in
the log's entry, ruling T10). A player an arrival added to the roster stays on it.

Only the last entry of the log can be undone, and only a board action (an arrival, a
cut, a claim, a table formed or broken up ...). Refused with a message that says why:
a hand recorded, corrected or taken off since (a hand is corrected or removed with a
reason instead, law 5, ruling E9), the evening closed, an action that settled or
abandoned a rubber (its figures cannot be taken back), an undo undone.
"""

from django.db import transaction
from django.db.models import ProtectedError

from club.evenings import (
    SECRETARY_EVENTS,
    _check_open,
    _lock_evening,
    _log,
    _reseat,
    evening_state,
)
from club.formation import engine
from club.models import Cut, Evening, EveningEvent, Table
from club.rubber_locks import lock_in_play
from core.audit import audit_context
from core.db import conflict_on_lock_failure
from core.errors import UserError
from core.text import clean_reason
from scoring.models import Rubber

HAND_EVENTS = {"hand", "correction", "hand_removed"}


def undone_seqs(events) -> set[int]:
    """The entries of a log (EveningEvents, in any order) that an undo has reversed."""
    return {
        event.data["undoes"]
        for event in events
        if event.type == "undo" and isinstance(event.data.get("undoes"), int)
    }


def why_not_undone(evening: Evening, last: EveningEvent | None) -> str | None:
    """Why the evening's last entry cannot be undone, in the secretary's words, or None
    when it can (what the rows it made allow is checked again when undoing)."""
    if evening.status == Evening.Status.CLOSED:
        return "The evening is closed; a secretary must reopen it (with a reason) first."
    if last is None:
        return "Nothing has been done this evening yet."
    if last.type == "undo":
        return "The last action has been undone already; only the last action can be undone."
    if last.type in HAND_EVENTS or (last.automatic and last.type == "rubber_end"):
        table = last.data.get("table")
        return (
            f"A hand has been recorded or changed at table {table} since; a hand is not "
            "undone: correct it or take it off, with a reason, on its rubber's page "
            "(law 5, ruling E9)."
        )
    if last.type == "reopen":
        return "Reopening the evening is not undone: close it again."
    if last.type == "close_sitting":
        return "A sitting that has ended and settled (ruling C5) cannot be undone."
    if last.type not in SECRETARY_EVENTS:
        return "The last entry of the log is not a board action and cannot be undone."
    return None


def last_entry(evening: Evening) -> EveningEvent | None:
    """The evening's last log entry (the one an undo would reverse)."""
    return evening.events.order_by("-seq").first()


@conflict_on_lock_failure(what="evening")
@transaction.atomic
def evening_undo(
    *,
    evening_id: int,
    user=None,
    reason: str = "",
    expected_version: int | None = None,
    undoes: int | None = None,
) -> EveningEvent:
    """Undo the evening's last entry, a board action, by logging an `undo` event.

    `expected_version` is the version the secretary's board showed (a 409 if the evening
    has moved on: he would undo something he has not seen); `undoes`, when given, must
    name the last entry (a replayed log says which entry its undo reversed). The reason,
    optional, is kept in the log and shown in the evening's history.
    """
    reason = clean_reason(reason)
    held = lock_in_play(evening_id)  # the rubbers first, then the evening
    evening = _lock_evening(evening_id, expected_version)
    _check_open(evening)
    last = last_entry(evening)
    refusal = why_not_undone(evening, last)
    if refusal:
        raise UserError(refusal, field="type", code="cannot_undo")
    if undoes is not None and undoes != last.seq:
        raise UserError(
            f"The undo names entry {undoes}, but the last entry of the log is {last.seq}.",
            field="undoes",
        )
    events = list(evening.events.order_by("seq"))
    skipped = undone_seqs(events) | {last.seq}
    before = engine.replay(
        evening.ruleset,
        [e.data for e in events if e.type in SECRETARY_EVENTS and e.seq not in skipped],
    )
    # The decisions of the entries kept are those already given, word for word: the log's
    # JSON may hold a cut's cards in another order than they were named in.
    before.decisions = tuple(evening_state(evening).decisions[: len(before.decisions)])
    with audit_context(reason=reason or f"undo of entry {last.seq}"):
        _take_back_rows(evening, last, before, held)
        data = {"type": "undo", "undoes": last.seq, "action": last.type}
        if reason:
            data["reason"] = reason
        logged = _log(evening, data, [], user=user)
        evening.state = before.to_dict()
        evening.save(update_fields=["state", "version"])
    return logged


def _take_back_rows(evening: Evening, last: EveningEvent, before, held: set[int]) -> None:
    """Remove the rows the undone action made; refuse if it settled or abandoned a rubber."""
    # Whatever the action did to rubbers it did after its entry was written (_apply logs,
    # then syncs the tables), and nothing has happened since: so these are its doing.
    ended = Rubber.objects.filter(evening=evening, completed_at__gte=last.created_at).exclude(
        status=Rubber.Status.IN_PROGRESS
    )
    for rubber in ended.select_related("table"):
        where = f" at table {rubber.table.number}" if rubber.table_id else ""
        raise UserError(
            f"This action ended the rubber{where} (abandoned or settled, laws 15 and 21, "
            "ruling C5): its figures stand, so it cannot be undone.",
            field="type",
            code="cannot_undo",
        )
    # A rubber it began is in play, so it was locked with the others before the evening.
    begun = Rubber.objects.filter(evening=evening, created_at__gte=last.created_at)
    for rubber in begun.order_by("pk"):
        if rubber.hand_count or rubber.hands.exists():
            raise UserError(
                "A hand has been played in the rubber this action began; correct or take "
                "off the hand instead (law 5, ruling E9).",
                field="type",
                code="cannot_undo",
            )
        try:
            rubber.delete()
        except ProtectedError as exc:
            raise UserError(
                "The rubber this action began belongs to a tournament's round; it cannot "
                "be undone.",
                field="type",
                code="cannot_undo",
            ) from exc
    standing = {table.number for table in before.tables}
    formed = {table.number for table in evening_state(evening).tables} - standing
    if formed:
        Table.objects.filter(evening=evening, number__in=formed, rubbers__isnull=True).delete()
    Cut.objects.filter(event=last).delete()
    if last.type == "dealer_choice":
        # Ruling T12: the rubber takes back the sides the cut gave it before the choice.
        table = before.table(last.data.get("table"))
        if table is not None and table.seats:
            _reseat(evening, table, held)


def logged_action(undo: EveningEvent) -> dict:
    """The entry an undo event reversed, as it was logged."""
    return undo.evening.events.get(seq=undo.data["undoes"]).data
