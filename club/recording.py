"""The one way a hand is recorded, corrected or removed, whatever the door.

Every door (the API's rubber endpoints, an evening's table endpoints, the table's phone
page, the secretary's board, a progressive table's page, an evening's replay) calls one
of these services, naming the rubber by id, or by its evening's table (and its ordinal
there). Each service, in one transaction:

1. takes the locks in their fixed order (core/db.py): the rubber, then, only when the
   table has no rubber in progress, the evening first (Call-Ace: the same players sit
   on in a new sitting) with the rubber NOWAIT; and checks what the evening requires
   (its version as the device saw it, open, a table's link changing only its table);
   a rubber whose row changed while its lock was awaited (a dealer's choice of seat) is
   read again under the lock, so its seats are the ones the change left;
2. has scoring score the change by the rule set and write the rows (scoring.services);
3. and that is all: scoring announces the change (scoring/signals.py) and the evening
   logs it and moves on (club.evening_receivers, taking the evening's row last), the
   standings note it in their outbox (tournaments.receivers), in this transaction.
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.text import capfirst

from club import evenings, rubber_locks, seating
from club.evening_receivers import Via
from club.models import Evening, Table
from core.db import conflict_on_lock_failure, lock_one
from core.errors import Conflict, UserError
from scoring import services as scoring
from scoring.models import Hand, RemovedHand, Rubber
from scoring.rules.games import get_game

#: A door's check that its caller may change a rubber named by id (a progressive's table
#: link, the API's write access), made on the rubber locked, first (None: no such rubber,
#: which the door answers as it will). It may return a second check, of the rubber once
#: changed, made before commit; what either raises rolls the transaction back whole.
Authorize = Callable[[Rubber | None], Callable[[Rubber], None] | None]


def _at_evening_table(rubber: Rubber) -> bool:
    return bool(rubber.evening_id and rubber.table_id)


@contextmanager
def _holding(
    *,
    rubber_id: int | None,
    evening_id: int | None,
    table_number: int | None,
    rubber_number: int | None,
    expected_version: int | None,
    table: Table | None,
    doing: str,
    authorize: Authorize | None = None,
) -> Iterator[tuple[Rubber, Evening | None, Callable[[Rubber], None]]]:
    """One transaction holding the rubber to change, its row locked after the evening's
    checks, the evening when it had to be locked first (see the module's docstring), and
    the check to make of the change once written (`authorize`'s, or none).
    A lock not granted in time is a retryable 409 (core/db.py). `authorize`, the door's
    check that its caller may write to the rubber, is made on the rubber locked, first:
    what it raises rolls the transaction back with nothing written."""
    with (
        conflict_on_lock_failure(what="evening" if evening_id else "rubber"),
        transaction.atomic(),
    ):
        yield _hold(
            rubber_id=rubber_id, evening_id=evening_id, table_number=table_number,
            rubber_number=rubber_number, expected_version=expected_version, table=table,
            doing=doing, authorize=authorize,
        )  # fmt: skip


def _hold(
    *,
    rubber_id: int | None,
    evening_id: int | None,
    table_number: int | None,
    rubber_number: int | None,
    expected_version: int | None,
    table: Table | None,
    doing: str,
    authorize: Authorize | None = None,
) -> tuple[Rubber, Evening | None, Callable[[Rubber], None]]:
    if evening_id is None:
        if rubber_id is None:
            raise TypeError("Name the rubber: rubber_id, or evening_id and table_number.")
        rubber = rubber_locks.lock_placed(rubber_id)
        changed = authorize(rubber) if authorize is not None else None
        if rubber is None:
            raise UserError("There is no such rubber.", field="rubber", code="not_found")
        if _at_evening_table(rubber):
            number = rubber.table.number
            evenings.check_change(rubber.evening, expected_version, table, number, doing)
        return rubber, None, changed or _nothing
    if table_number is None:
        raise TypeError("Name the evening's table: table_number.")
    if authorize is not None:
        raise TypeError("authorize: for a rubber named by id.")
    rubber, evening = evenings.rubber_to_change(
        evening_id=evening_id,
        table_number=table_number,
        expected_version=expected_version,
        table=table,
        rubber_id=rubber_id,
        ordinal=rubber_number,
        doing=doing,
    )
    return rubber, evening, _nothing


def _nothing(rubber: Rubber) -> None:
    """No door's check of the change."""


def _scoring_table(rubber: Rubber, table: Table | None, *, recording: bool) -> Table | None:
    """The table scoring is told of. At an evening's table the link was checked against
    the table's number already: a hand is then not marked as recorded by the phone, a
    correction or removal is (as the evening's services have always done)."""
    if not _at_evening_table(rubber):
        return table
    if recording or table is None:
        return None
    return rubber.table


def hand_record(
    *,
    data: dict,
    rubber_id: int | None = None,
    evening_id: int | None = None,
    table_number: int | None = None,
    user=None,
    table: Table | None = None,
    expected_version: int | None = None,
    expected_number: int | None = None,
    meant_rubber: int | None = None,
    authorize: Authorize | None = None,
    declaring_checked: bool = True,
) -> Hand:
    """Record the next hand of a rubber: the one named by id, or the one in progress at
    an evening's table (`evening_id`, `table_number`). A rubber named by id at an
    evening's table must be the table's current one.

    `table` is the table whose phone link records it (None for the secretary);
    `expected_version` the evening's version the device saw (a stale one is a 409);
    `expected_number` the number the device means this hand to have in its rubber: when
    that hand is already recorded (a second phone, a second tap, a retry without its
    Idempotency-Key) the hand is refused with a 409 naming the one recorded.
    `meant_rubber`, at an evening's table, the id of the rubber the device entered the
    hand for (the phone's): that rubber is locked, and a hand for it once it is over
    (queued on a phone, or waiting for its lock, while the table played on) is refused
    with a 409 (`rubber_over`), never recorded in the rubber now in play; so is one for a
    rubber the table no longer has, taken back by an undo of its cut (`rubber_gone`,
    club.evenings.rubber_to_change).
    `authorize(rubber)`, with a rubber named by id: the door's check that its caller may
    write to it, made on the rubber locked (scoring.api.write_access; `Authorize`).
    `declaring_checked`: at Bridge, a hand declared by the dealer's adversaries is refused
    (club.seating.check_declaring_side); an evening's log replayed passes False, its hands
    having been recorded before that check was made.
    """
    if meant_rubber is not None and (evening_id is None or rubber_id is not None):
        raise TypeError("meant_rubber: with evening_id and table_number, not rubber_id.")
    with _holding(
        rubber_id=rubber_id or meant_rubber, evening_id=evening_id, table_number=table_number,
        rubber_number=None, expected_version=expected_version, table=table, doing="records",
        authorize=authorize,
    ) as (rubber, evening, changed):  # fmt: skip
        if meant_rubber is not None:
            _check_in_play(rubber)
        named = rubber_id is not None and _at_evening_table(rubber)
        if named and not rubber.is_complete and rubber.later:
            raise UserError("This rubber is not the table's current one.", field="hand")
        if expected_number is not None:
            _check_expected_number(rubber, expected_number)
        if declaring_checked:
            seating.check_declaring_side(rubber, data, rubber.hand_count + 1)
        hand = scoring.rubber_record_hand(
            rubber=rubber,
            data=data,
            user=user,
            table=_scoring_table(rubber, table, recording=True),
            via=Via(user=user, table=table, expected_version=expected_version, evening=evening),
        )
        changed(rubber)
        return hand


def _over_words(rubber: Rubber, game) -> str | None:
    """Why no hand may follow, in words, or None: the rubber finished, or its round of
    fixed deals decided (ruling P1; its seats' `round_won`, scoring.rollup). Read only to
    word a refusal."""
    if rubber.is_complete:
        return f"the {game.rubber_label} is over: no {game.hand_label} follows it."
    if rubber.round_decided():
        return (
            f"the round's deals are played and one side is ahead (ruling P1): no "
            f"{game.hand_label} follows."
        )
    return None


def _check_in_play(rubber: Rubber) -> None:
    """Refuse a hand entered for a rubber that is no longer the one in play at its table
    (over, or another started after it). Checked on the rubber locked: a hand that waited
    for the lock while the rubber was won is refused as one that came after it."""
    if rubber.status == Rubber.Status.IN_PROGRESS and not rubber.later:
        return
    game = get_game(rubber.ruleset)
    raise Conflict(
        f"This {game.hand_label} was entered for the {game.rubber_label} before this one, "
        f"which is over, so it was not recorded; if it belongs to the {game.rubber_label} "
        "now in play, enter it again.",
        field="rubber",
        code="rubber_over",
    )


def _check_expected_number(rubber: Rubber, expected: int) -> None:
    """Refuse a hand meant as number `expected` unless it is the rubber's next (the rubber
    is locked, so two requests meaning the same number cannot both pass)."""
    following = rubber.hand_count + 1
    if expected == following:
        return
    game = get_game(rubber.ruleset)
    label = game.hand_label
    if 1 <= expected < following:
        already = rubber.hands.filter(number=expected).first()
        told = "; ".join(already.lines) if already and already.lines else ""
        raise Conflict(
            f"{label.capitalize()} {expected} is already recorded at this table"
            + (f" ({told})" if told else "")
            + ", so this one was not recorded; "
            + (
                _over_words(rubber, game)
                or f"the next is {label} {following}: if that is the one meant, send it again."
            ),
            field="expected_number",
            code="hand_already_recorded",
            details={
                "number": expected,
                "next": following,
                "hand": already.data if already else None,
                "lines": list(already.lines) if already else [],
            },
        )
    count = rubber.hand_count
    raise Conflict(
        f"This {game.rubber_label} has {count} {label}{'' if count == 1 else 's'} recorded, "
        f"so the next is {label} {following}, not {expected}; look at the sheet as it is now.",
        field="expected_number",
        code="hand_number_ahead",
        details={"number": expected, "next": following},
    )


def hand_correct(
    *,
    number: int,
    data: dict,
    rubber_id: int | None = None,
    evening_id: int | None = None,
    table_number: int | None = None,
    rubber_number: int | None = None,
    reason: str = "",
    user=None,
    table: Table | None = None,
    is_secretary: bool = False,
    expected_version: int | None = None,
    changed_at: datetime | None = None,
    authorize: Authorize | None = None,
    reader: str = "phone",
    declaring_checked: bool = True,
) -> Hand:
    """Correct hand `number` of a rubber (law 5, ruling E9) and re-score the hands after
    it. The rubber is named by id, or by its evening's table and its ordinal there
    (`rubber_number`, as the log names it). At an evening's table a correction may change
    a finished rubber's figures but not whether it is finished (law 15).
    `changed_at`, when the device says which version of the hand it corrects (a table's
    phone: when the hand was last changed, its last correction's moment or else when it
    was recorded, from its sheet; `changed_at` in the API's hand), makes a hand changed
    since a conflict in words (409, `_check_unchanged`), as `recorded_at` does for a
    take-back: the other phone corrected it first, it was taken back, or taken back and
    entered again. Nothing is written then. A caller naming a number alone is answered as
    before. `reader` says in the refusal where the hand was read: "phone" (a table's phone,
    the API) or "page" (the secretary's rubber page, scoring/views_secretary.py).
    `authorize`, with a rubber named by id: the door's check (`Authorize`; a progressive's
    table link's, tournaments.table_links.may_correct), and of the correction once made.
    """
    if evening_id is not None and rubber_number is None and rubber_id is None:
        raise TypeError("Name the rubber: rubber_number (its ordinal at the table) or rubber_id.")
    with _holding(
        rubber_id=rubber_id, evening_id=evening_id, table_number=table_number,
        rubber_number=rubber_number, expected_version=expected_version, table=table,
        doing="corrects", authorize=authorize,
    ) as (rubber, evening, changed):  # fmt: skip
        _check_unchanged(rubber, number, changed_at, reader=reader)
        if declaring_checked:  # as hand_record's
            seating.check_declaring_side(rubber, data, number)
        hand = scoring.rubber_correct_hand(
            rubber=rubber,
            number=number,
            data=data,
            reason=reason,
            user=user,
            table=_scoring_table(rubber, table, recording=False),
            is_secretary=is_secretary,
            via=Via(user=user, table=table, expected_version=expected_version, evening=evening),
        )
        changed(rubber)
        return hand


def hand_remove(
    *,
    number: int,
    rubber_id: int | None = None,
    evening_id: int | None = None,
    table_number: int | None = None,
    rubber_number: int | None = None,
    reason: str = "",
    user=None,
    table: Table | None = None,
    is_secretary: bool = False,
    recorded_at: datetime | None = None,
    authorize: Authorize | None = None,
) -> RemovedHand:
    """Take the last hand off a rubber (law 5 limits, ruling E9), named as for
    `hand_correct`.

    `number` is the hand meant, which scoring refuses unless it is the last (400), so a
    take-back sent twice never takes off the hand before it. `recorded_at`, when the
    device says which hand it saw (a table's phone: when it was recorded, from its
    sheet), makes that a conflict in words (409, `_check_last_hand`): another hand
    recorded after it (the other phone), it taken back already (a retry without its
    Idempotency-Key), or it taken back and entered again since, which is another hand,
    not taken back in its stead. A caller naming a number alone (the API, the rubber's
    page, the log's replay) is answered as before.
    At an evening's table a finished rubber keeps its hands: the table has cut in and out
    on its end (law 15; `finished_keeps_hands`).
    `authorize`, with a rubber named by id: the door's check (`Authorize`; a progressive's
    table link's, tournaments.table_links.may_take_back).
    """
    if evening_id is not None and rubber_number is None and rubber_id is None:
        raise TypeError("Name the rubber: rubber_number (its ordinal at the table) or rubber_id.")
    with _holding(
        rubber_id=rubber_id, evening_id=evening_id, table_number=table_number,
        rubber_number=rubber_number, expected_version=None, table=table, doing="changes",
        authorize=authorize,
    ) as (rubber, evening, changed):  # fmt: skip
        _check_last_hand(rubber, number, recorded_at)
        if _at_evening_table(rubber) and rubber.is_complete:
            raise finished_keeps_hands(rubber)
        removed = scoring.rubber_remove_last_hand(
            rubber=rubber,
            number=number,
            reason=reason,
            user=user,
            table=_scoring_table(rubber, table, recording=False),
            is_secretary=is_secretary,
            via=Via(user=user, table=table, evening=evening),
        )
        changed(rubber)
        return removed


def finished_keeps_hands(rubber: Rubber, *, cut_since: bool | None = None) -> UserError:
    """The refusal of taking back the last hand of a finished rubber at an evening's table,
    in words (`hand_remove` raises it; the phone says it beside the last hand): the rubber
    is over (its game's law for a rubber's end); once the table has cut in and out on its
    end (`table_cut_since`, read here unless the caller has read it: `cut_since`), that
    too, with the game's own law for it."""
    game = get_game(rubber.ruleset)
    law = game.rules.rubber_law
    if not game.partnership:
        return UserError(
            f"The {game.rubber_label} is closed and settled ({law}): its last "
            f"{game.hand_label} is not taken back; ask the secretary, the club's referee.",
            field="number",
            law=law,
        )
    if table_cut_since(rubber) if cut_since is None else cut_since:
        law = game.tables.cite("cut_out")
        return UserError(
            f"The {game.rubber_label} is over and the table has cut in and out on its end "
            f"({law}): its last {game.hand_label} is not taken back; correct its figures "
            "instead.",
            field="number",
            law=law,
        )
    return UserError(
        f"The {game.rubber_label} is over ({law}), so its last {game.hand_label} is no longer "
        "taken back from the phone; correct its figures instead.",
        field="number",
        law=law,
    )


def table_cut_since(rubber: Rubber) -> bool:
    """Has the table cut in and out since `rubber`, a finished partnership rubber at an
    evening's table, ended (law 15)? Yes once a card has been cut there since (the
    engine's `cut_begun`) and no one's going out is left to cut for, or once the table has
    moved on (its next rubber begun, the table broken up)."""
    state = evenings.evening_state(rubber.evening)
    table = state.table(rubber.table.number)
    if (
        table is None
        or table.in_rubber
        or Rubber.objects.filter(table_id=rubber.table_id, pk__gt=rubber.pk).exists()
    ):
        return True
    cut = state.cut_at(table.number)
    return table.cut_begun and not (cut is not None and cut.purpose == "cut-out")


def _counted(count: int, label: str) -> str:
    return f"{count} {label}{'' if count == 1 else 's'}"


def _check_last_hand(rubber: Rubber, number: int, recorded_at: datetime | None) -> None:
    """Refuse taking back hand `number`, recorded at `recorded_at` as the device saw it,
    unless it is still the rubber's last and that very hand, saying what happened instead
    (409). Checked on the rubber locked: of two take-backs of one hand, the second finds it
    gone. Nothing to check when the device does not say (None)."""
    if recorded_at is None:
        return
    count = rubber.hand_count
    game = get_game(rubber.ruleset)
    label = game.hand_label
    said = f"{label.capitalize()} {number}"
    if 1 <= number < count:
        law = rubber.rules.correction_law
        later = rubber.hands.filter(number=number + 1).first()
        told = f" ({'; '.join(later.lines)})" if later and later.lines else ""
        since = (
            f"{label} {count} has been recorded at this table since{told}"
            if count == number + 1
            else f"{label}s {number + 1} to {count} have been recorded at this table since"
        )
        raise Conflict(
            f"{said} was not taken back: {since}, and only the last {label} is taken back. "
            f"{said} may now be changed only by the secretary, as the club's referee.",
            field="number",
            code="hand_not_last",
            law=f"{law}, ruling E9" if law else "ruling E9",
            details={"number": number, "last": count},
        )
    if not 1 <= number <= count:
        if rubber.removed_hands.filter(number=number).exists():
            message = (
                f"{said} was taken back already: the {game.rubber_label} has "
                f"{_counted(count, label)} now, so nothing more was taken back."
            )
            code = "hand_taken_back"
        else:
            message = (
                f"The {game.rubber_label} has {_counted(count, label)} recorded: there is no "
                f"{label} {number} to take back; look at the sheet as it is now."
            )
            code = "hand_not_recorded"
        raise Conflict(message, field="number", code=code, details={"number": number})
    last = rubber.hands.filter(number=number).first()
    if last is not None and last.recorded_at != recorded_at:
        told = f" ({'; '.join(last.lines)})" if last.lines else ""
        raise Conflict(
            f"{said} on the sheet now{told} is not the one taken back from here: that one was "
            f"taken back already and {label} {number} entered again since, so it was not "
            "taken back; look at the sheet as it is now.",
            field="number",
            code="hand_replaced",
            details={"number": number},
        )


def changed_at(hand: Hand) -> datetime:
    """When `hand` was last changed: its last correction's moment, else when it was
    recorded. The version of the hand a correction names (`hand_correct`), as the API's
    hand gives it (scoring.selectors.hand_as_dict's `changed_at`)."""
    last = hand.corrections.order_by("-at").values_list("at", flat=True).first()
    return last or hand.recorded_at


#: Where a correction's version of the hand was read, and who else corrects it, in words
#: (`_check_unchanged`): a table's phone, or the secretary's rubber page.
READERS = {
    "phone": ("this phone read it", "the other phone at the table"),
    "page": ("this page showed it", "a phone at the table"),
}


def _check_unchanged(
    rubber: Rubber, number: int, seen: datetime | None, *, reader: str = "phone"
) -> None:
    """Refuse correcting hand `number` as the device saw it when last changed at `seen`,
    unless it is still that very version of that hand, saying what happened to it since
    (409): corrected (by the other phone, or the secretary), taken back, or taken back
    and entered again. Checked on the rubber locked: of two corrections of one version,
    the second finds it changed. Nothing to check when the device does not say (None)."""
    if seen is None:
        return
    game = get_game(rubber.ruleset)
    label = game.hand_label
    said = f"{label.capitalize()} {number}"
    read, other_phone = READERS[reader]
    hand = rubber.hands.filter(number=number).first()
    if hand is None:
        if rubber.removed_hands.filter(number=number).exists():
            message = (
                f"{said} was taken back since {read}, so this correction was "
                f"not recorded: the {game.rubber_label} has "
                f"{_counted(rubber.hand_count, label)} now; look at the sheet as it is now."
            )
            code = "hand_taken_back"
        else:
            message = (
                f"The {game.rubber_label} has {_counted(rubber.hand_count, label)} recorded: "
                f"there is no {label} {number} to correct; look at the sheet as it is now."
            )
            code = "hand_not_recorded"
        raise Conflict(message, field="changed_at", code=code, details={"number": number})
    now = changed_at(hand)
    if now == seen:
        return
    reads = f": it now reads {'; '.join(hand.lines)}" if hand.lines else ""
    if hand.recorded_at > seen:
        message = (
            f"{said} was taken back and entered again at {_clock(hand.recorded_at)}, since "
            f"{read}{reads}. So this correction was not recorded; look again at "
            f"{label} {number} and correct it if it is still wrong."
        )
        code = "hand_replaced"
    else:
        last = hand.corrections.select_related("by_user").order_by("-at").first()
        # At a tournament's table the director corrects as the club's referee (ruling E9).
        referee = "the secretary" if rubber.evening_id else "the club's referee"
        who = referee if last is not None and last.by_user_id is not None else other_phone
        message = (
            f"{capfirst(who)} corrected {label} {number} at {_clock(now)}, since "
            f"{read}{reads}. So this correction was not recorded; look again at "
            f"{label} {number} and correct it if it is still wrong."
        )
        code = "hand_corrected"
    raise Conflict(
        message,
        field="changed_at",
        code=code,
        details={
            "number": number,
            "changed_at": now.isoformat(),
            "hand": hand.data,
            "lines": list(hand.lines),
        },
    )


def _clock(moment: datetime) -> str:
    """A moment as the time of day in the site's time zone: "20:14"."""
    return f"{timezone.localtime(moment):%H:%M}"


def sitting_close(*, rubber_id: int) -> Rubber:
    """End a Call-Ace sitting named by id and settle it (ruling C5). (At an evening's
    table, `club.evenings.evening_close_sitting` closes the table's sitting and logs it.)"""
    with conflict_on_lock_failure(what="rubber"), transaction.atomic():
        rubber = lock_one(
            Rubber.objects.select_related("evening").filter(pk=rubber_id), what="rubber"
        )
        return scoring.rubber_close(rubber=rubber)
