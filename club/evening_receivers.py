"""What the evening learns from scoring: the receivers of scoring's signals
(scoring/signals.py), connected in ClubConfig.ready().

A hand recorded, corrected or removed at an evening's table (always through
club.recording, which hands scoring a `Via`: the door the change came through) is an
event of the evening's log: the receivers log it and move the evening's version on
(club.evenings' `_append`, the evening's row taken last, by that UPDATE). A change that
ends a rubber locks the evening after the rubber instead, and the rubber's end is
logged and the engine cuts players in and out (law 15). The lock order and the log are
club.evenings' (its docstring).
"""

from dataclasses import dataclass
from typing import Any

from club.evenings import _apply, _log_change, evening_state
from club.models import Evening, Table
from core.errors import UserError
from scoring.models import Rubber


@dataclass
class Via:
    """The door a change to a rubber came through, handed by scoring to the receivers
    below untouched (club.recording makes it)."""

    user: Any = None
    table: Table | None = None  # the table whose phone link made the change
    expected_version: int | None = None  # the evening's version the device saw
    evening: Evening | None = None  # the evening's row, once this transaction holds it


def _after_hand(evening: Evening, rubber: Rubber, *, user, table) -> None:
    """A rubber that the hand finished ends at its table (law 15: then the cut-outs)."""
    at_table = evening_state(evening).table(rubber.table.number)
    # A rubber started outside the cutting (no table in the engine's state) just ends.
    if rubber.is_complete and rubber.rules.partnership and at_table and at_table.in_rubber:
        _apply(
            evening,
            {"type": "rubber_end", "table": rubber.table.number},
            held={rubber.pk},
            user=user,
            table=table,
            automatic=True,
        )


def _at_evening_table(rubber: Rubber, via) -> bool:
    """Is this change one of an evening's table (and so an event of its log)?"""
    if not (rubber.evening_id and rubber.table_id):
        return False
    if not isinstance(via, Via):
        raise TypeError("A rubber at an evening's table is changed through club.recording.")
    return True


def _ordinal(rubber: Rubber) -> int:
    """The rubber's place at its table, as the log names it (read with the lock: `placed`)."""
    ordinal = getattr(rubber, "ordinal", None)
    if ordinal is None:
        ordinal = Rubber.objects.filter(table_id=rubber.table_id, pk__lte=rubber.pk).count()
    return ordinal


def on_hand_recorded(sender, *, rubber: Rubber, data: dict, via, **kwargs) -> None:
    """A hand recorded at an evening's table is an event of the evening's log; one that
    wins the rubber locks the evening for its end (`on_rubber_finished`)."""
    if not _at_evening_table(rubber, via):
        return
    via.evening = _log_change(
        rubber,
        via.evening,
        {"type": "hand", "table": rubber.table.number, "rubber": _ordinal(rubber), "hand": data},
        ended=rubber.is_complete,
        user=via.user,
        table=via.table,
        expected_version=via.expected_version,
    )


def on_hand_corrected(
    sender, *, rubber: Rubber, number: int, data: dict, reason: str, was_complete: bool, via,
    **kwargs,
) -> None:  # fmt: skip
    """A correction at an evening's table is logged. It may change a finished rubber's
    figures but not whether it is finished: the table has already cut in and out on its
    end (law 15)."""
    if not _at_evening_table(rubber, via):
        return
    if was_complete and not rubber.is_complete:
        raise UserError(
            "This correction would leave a finished rubber unfinished, but the table has "
            "already cut in and out on its end (law 15); correct the figures only.",
            field="hand",
            law="law 15",
        )
    via.evening = _log_change(
        rubber,
        via.evening,
        {
            "type": "correction",
            "table": rubber.table.number,
            "rubber": _ordinal(rubber),
            "number": number,
            "hand": data,
            "reason": reason,
        },
        ended=not was_complete and rubber.is_complete,
        user=via.user,
        table=via.table,
        expected_version=via.expected_version,
    )


def on_hand_removed(sender, *, rubber: Rubber, number: int, reason: str, via, **kwargs) -> None:
    """A hand taken off a rubber at an evening's table is logged."""
    if not _at_evening_table(rubber, via):
        return
    via.evening = _log_change(
        rubber,
        via.evening,
        {"type": "hand_removed", "table": rubber.table.number, "rubber": _ordinal(rubber),
         "number": number, "reason": reason},
        ended=False,
        user=via.user,
        table=via.table,
        expected_version=None,
    )  # fmt: skip


def on_rubber_finished(sender, *, rubber: Rubber, via, **kwargs) -> None:
    """A rubber won at an evening's table ends there: the engine cuts players in and out
    (law 15). The evening's row was locked when the hand was logged."""
    if _at_evening_table(rubber, via) and via.evening is not None:
        _after_hand(via.evening, rubber, user=via.user, table=via.table)
