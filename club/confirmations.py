"""The other side confirms: a club's option for the hands recorded at its tables.

When a club asks for it (`Club.confirm_hands`, off by default), a hand recorded from a
table's phone counts at once (the game goes on) but stays *unconfirmed* until the side
that did not record it says so. One phone per table is the common case, so the other
side confirms on the same link. The hand is taken as put down by its makers (Euchre's
makers, Bridge's declaring side, Call-Ace's maker), and the other side is the
adversaries (Call-Ace, each for himself: any player other than the maker).

The other side may instead *dispute* the hand with its own version (validated by the
laws against the rubber as it stood before the hand). A disputed hand waits on the
secretary's board with both versions, and the secretary settles it: by a correction
with a reason (law 5, ruling E9) to the version that stands, or by upholding the hand as
recorded, with a reason. A correction of the hand by the secretary settles it whatever
door it came through; a correction from the table itself (law 5, before the next hand)
puts the corrected hand to the other side again.

Rows are written from scoring's signals (connected in ClubConfig.ready()), in the
hand's own transaction, and by the services below.

Not at a progressive's tables (docs/movements.md, "The tables' phones"): their phone
(tournaments/views_phone.py) records with no evening's `table`, so no row is written for
its deals, and a correction from it reaches `on_hand_corrected` as a secretary's would
(`via.table` None), which finds no row to settle. Asking for the other side's word there
would need the door named in `via`, an answer under `/p/`, a place for the director to
settle, and a ruling on seating the next round from a disputed result.
"""

from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils import timezone
from rest_framework import status

from club.models import Evening, HandConfirmation, Table
from core.db import conflict_on_lock_failure, lock_one
from core.errors import UserError
from core.text import clean_reason
from scoring.models import Hand, Rubber

SIDE_NAMES = {"NS": "North-South", "EW": "East-West"}
OPEN_STATES = (HandConfirmation.State.UNCONFIRMED, HandConfirmation.State.DISPUTED)
SETTLE_LAW = "law 5, ruling E9"


class NotYourTable(UserError):
    """A table's link answers only for its own table's hands."""

    status_code = status.HTTP_403_FORBIDDEN
    default_code = "permission_denied"


def who(label: str) -> str:
    """A side's name in words ("North-South"), or a Call-Ace player's own name."""
    return SIDE_NAMES.get(label, label)


def _recorder_and_confirmers(rubber: Rubber, data: dict) -> tuple[str, list[str]]:
    """Who put the hand down (its makers) and who may answer for the other side."""
    if rubber.rules.partnership:
        side = data.get("makers") or data.get("declarer")
        return side, [s for s in SIDE_NAMES if s != side]
    maker = data.get("maker", "")
    return maker, [p for p in rubber.players if p != maker]


# --- receivers of scoring's signals ------------------------------------------------------


def _club_of(rubber: Rubber, via):
    """The rubber's club as the recording service read it (no query)."""
    table = getattr(via, "table", None)
    if table is not None and Table.club.is_cached(table):
        return table.club
    return rubber.club


def on_hand_recorded(sender, *, rubber: Rubber, hand: Hand, via=None, **kwargs) -> None:
    """A hand recorded from a table's phone, at a club that asks for it, waits for the
    other side. The secretary's own hands, a replay's and a club without the option's
    need no confirmation."""
    if getattr(via, "table", None) is None or not _club_of(rubber, via).confirm_hands:
        return
    recorder, confirmers = _recorder_and_confirmers(rubber, hand.data)
    HandConfirmation.objects.create(
        hand=hand,
        rubber=rubber,
        recorded_by=recorder,
        confirmers=confirmers,
        recorded_version=hand.data,
    )


def on_hand_corrected(
    sender, *, rubber: Rubber, hand: Hand, reason: str = "", via=None, **kwargs
) -> None:
    """A correction by the secretary settles the hand (law 5, ruling E9); one from the
    table (law 5, before the next hand) puts the corrected hand to the other side again.
    One UPDATE, under the rubber's lock the recording service holds; none at a club that
    asks for no confirmation."""
    if not _club_of(rubber, via).confirm_hands:
        return
    rows = HandConfirmation.objects.filter(hand=hand)
    if getattr(via, "table", None) is None:
        user = getattr(via, "user", None)
        rows.update(
            state=HandConfirmation.State.SETTLED,
            settled_by=user if getattr(user, "is_authenticated", False) else None,
            settled_version=hand.data,
            reason=reason,
            changed_at=timezone.now(),
        )
    else:
        recorder, confirmers = _recorder_and_confirmers(rubber, hand.data)
        rows.update(
            state=HandConfirmation.State.UNCONFIRMED,
            recorded_by=recorder,
            confirmers=confirmers,
            recorded_version=hand.data,
            answered_by="",
            disputed_version=None,
            changed_at=timezone.now(),
        )


# --- the other side's answer --------------------------------------------------------------


def _open_confirmation(*, rubber_id: int, number: int, table: Table | None) -> HandConfirmation:
    """The hand's confirmation, locked, still waiting for an answer; refused (before any
    write) for another table's link, a closed evening, or a hand already answered. A
    table's link finds only its own club's hands: another club's are refused as hands
    that are not waiting, before any is locked, so that trying ids tells a link nothing
    of other clubs (tests/test_attack_table_links.py)."""
    waiting = HandConfirmation.objects.select_related("rubber__evening", "hand").filter(
        rubber_id=rubber_id, hand__number=number
    )
    if table is not None:
        waiting = waiting.filter(rubber__club_id=table.club_id)
    try:
        confirmation = lock_one(waiting, what="hand")
    except HandConfirmation.DoesNotExist:
        raise UserError(
            f"Hand {number} is not waiting for the other side's word.",
            field="number",
            code="not_found",
        ) from None
    if table is not None and confirmation.rubber.table_id != table.pk:
        raise NotYourTable("This table's link answers only for its own table's hands.")
    evening = confirmation.rubber.evening
    if evening is not None and evening.status == Evening.Status.CLOSED:
        raise UserError("The evening is closed.", field="evening", code="evening_closed")
    if confirmation.state != HandConfirmation.State.UNCONFIRMED:
        raise UserError(
            f"Hand {number} is already {confirmation.state}.", field="number", code="answered"
        )
    return confirmation


def _answerer(confirmation: HandConfirmation, by: str) -> str:
    """`by`, when it names one of those who may answer for the other side."""
    if by not in confirmation.confirmers:
        names = " or ".join(who(c) for c in confirmation.confirmers)
        if not by:
            raise UserError(f"Say who answers for the other side: {names}.", field="by")
        raise UserError(
            f"Only the other side may answer for this hand: {names}, not {who(by)}.",
            field="by",
        )
    return by


def hand_confirm(
    *, rubber_id: int, number: int, by: str, table: Table | None = None
) -> HandConfirmation:
    """The other side (`by`: "NS" or "EW"; Call-Ace: a player other than the maker)
    confirms hand `number` of the rubber as recorded. `table` is the link that asks."""
    with conflict_on_lock_failure(what="hand"), transaction.atomic():
        confirmation = _open_confirmation(rubber_id=rubber_id, number=number, table=table)
        confirmation.answered_by = _answerer(confirmation, by)
        confirmation.state = HandConfirmation.State.CONFIRMED
        confirmation.save()
        return confirmation


def hand_dispute(
    *, rubber_id: int, number: int, by: str, data: dict, table: Table | None = None
) -> HandConfirmation:
    """The other side disputes hand `number` with its own version (`data`, the hand in the
    API's shape), which must be a hand the laws allow where the recorded one stands. The
    hand keeps counting as recorded until the secretary settles it."""
    with conflict_on_lock_failure(what="hand"), transaction.atomic():
        confirmation = _open_confirmation(rubber_id=rubber_id, number=number, table=table)
        answerer = _answerer(confirmation, by)
        version = _lawful_version(confirmation.rubber, number, data)
        if version == confirmation.recorded_version:
            raise UserError(
                "This is the hand as recorded: confirm it instead.", field="hand", code="same"
            )
        confirmation.answered_by = answerer
        confirmation.disputed_version = version
        confirmation.state = HandConfirmation.State.DISPUTED
        confirmation.save()
        return confirmation


def _lawful_version(rubber: Rubber, number: int, data) -> dict:
    """The disputed version as the laws take it, checked against the rubber as it stood
    before hand `number` (the hands before it replayed, pure)."""
    if not isinstance(data, dict):
        raise UserError("Send the hand as a JSON object.", field="hand")
    rules = rubber.rules
    state = rules.start(rubber.options, rubber.players)
    for raw in (
        rubber.hands.filter(number__lt=number).order_by("number").values_list("data", flat=True)
    ):
        state, _ = rules.apply(state, rules.validate_hand(state, raw))
    return rules.validate_hand(state, data, field_prefix="hand").as_dict()


# --- the secretary settles ------------------------------------------------------------------


def hand_settle(
    *,
    rubber_id: int,
    number: int,
    reason: str,
    user,
    accept: str = "disputed",
    data: dict | None = None,
) -> HandConfirmation:
    """The secretary settles a disputed hand, always with a reason (law 5, ruling E9):
    the disputed version stands (`accept="disputed"`: the hand is corrected to it), or
    the hand as recorded (`accept="recorded"`: nothing changes), or the secretary's own
    finding (`data`: the hand is corrected to it). A correction goes through the one
    recording service (club.recording.hand_correct), which re-scores what follows."""
    from club import recording

    reason = clean_reason(reason)
    if not reason:
        raise UserError(
            "Say why the hand is settled so (law 5, ruling E9).", field="reason", law=SETTLE_LAW
        )
    if accept not in {"disputed", "recorded"}:
        raise UserError('Accept "disputed" or "recorded".', field="accept")
    with conflict_on_lock_failure(what="hand"), transaction.atomic():
        confirmation = (
            HandConfirmation.objects.select_related("rubber")
            .filter(rubber_id=rubber_id, hand__number=number)
            .first()
        )
        if confirmation is None or confirmation.state != HandConfirmation.State.DISPUTED:
            raise UserError(f"Hand {number} is not disputed.", field="number", code="not_disputed")
        if data is None and accept == "recorded":
            confirmation = lock_one(
                HandConfirmation.objects.filter(pk=confirmation.pk), what="hand"
            )
            if confirmation.state != HandConfirmation.State.DISPUTED:
                raise UserError(f"Hand {number} is not disputed.", field="number")
            confirmation.state = HandConfirmation.State.SETTLED
            confirmation.settled_by = user
            confirmation.settled_version = confirmation.recorded_version
            confirmation.reason = reason
            confirmation.save()
            return confirmation
        # The correction's receiver (on_hand_corrected) marks it settled, under the
        # rubber's lock the recording service takes.
        recording.hand_correct(
            rubber_id=rubber_id,
            number=number,
            data=confirmation.disputed_version if data is None else data,
            reason=reason,
            user=user,
            is_secretary=True,
        )
        confirmation.refresh_from_db()
        return confirmation


# --- what the pages and the API show -------------------------------------------------------


def confirmation_as_dict(confirmation: HandConfirmation | None) -> dict | None:
    """A hand's confirmation as the API shows it: its state and both versions."""
    if confirmation is None:
        return None
    return {
        "state": confirmation.state,
        "recorded_by": confirmation.recorded_by,
        "confirmers": confirmation.confirmers,
        "answered_by": confirmation.answered_by or None,
        "recorded_version": confirmation.recorded_version,
        "disputed_version": confirmation.disputed_version,
        "settled_version": confirmation.settled_version,
        "settled_by": _name(confirmation.settled_by),
        "reason": confirmation.reason or None,
    }


def of_hand(hand: Hand) -> HandConfirmation | None:
    """The hand's confirmation as read with it (select_related), or as the receiver just
    wrote it; None, and no query, when there is none."""
    if not Hand.confirmation.is_cached(hand):
        return None
    try:
        return hand.confirmation
    except HandConfirmation.DoesNotExist:  # read with the hand: there is none
        return None


def _name(user) -> str | None:
    from scoring.selectors import public_name

    return public_name(user)


def confirmations_of_rubber(*, rubber: Rubber) -> dict[int, dict]:
    """Each hand's confirmation in the API's shape, by the hand's number (one query)."""
    rows = HandConfirmation.objects.filter(rubber=rubber).select_related("hand", "settled_by")
    return {row.hand.number: confirmation_as_dict(row) for row in rows}


def with_confirmations(sheet: dict, *, rubber: Rubber, club) -> dict:
    """A rubber's scoresheet (scoring.selectors.rubber_scoresheet) whose hands carry
    their `confirmation` (null where there is none). Shown while the club asks for
    confirmation: a club that turns it off shows none (and asks no query)."""
    found = confirmations_of_rubber(rubber=rubber) if club.confirm_hands else {}
    for hand in sheet.get(rubber.rules.hands_key) or []:
        hand["confirmation"] = found.get(hand["number"])
    return sheet


def waiting_at_table(*, table: Table, rubber: Rubber | None) -> list[HandConfirmation]:
    """The hands of the table's current rubber still waiting for the other side, or
    disputed and waiting for the secretary (the phone shows them)."""
    if rubber is None or not table.club.confirm_hands:
        return []
    return list(
        HandConfirmation.objects.filter(rubber=rubber, state__in=OPEN_STATES)
        .select_related("hand")
        .order_by("hand__number")
    )


def disputes_of_evening(*, evening: Evening) -> list[HandConfirmation]:
    """The evening's disputed hands, for the secretary's board to settle."""
    if not evening.club.confirm_hands:
        return []
    return list(
        HandConfirmation.objects.filter(
            rubber__evening=evening, state=HandConfirmation.State.DISPUTED
        )
        .select_related("hand", "rubber__table")
        .order_by("rubber__table__number", "hand__number")
    )


def marker(*, club, evening: Evening, rubber: Rubber | None = None) -> str:
    """What changes when a hand of the evening (or of one rubber) is confirmed, disputed
    or settled, for the polling pages' ETags: the evening's version does not move then.
    Nothing (and no query) for a club that asks for no confirmation."""
    if not club.confirm_hands:
        return ""
    rows = HandConfirmation.objects.filter(
        Q(rubber=rubber) if rubber is not None else Q(rubber__evening=evening)
    ).aggregate(n=Count("pk"), last=Max("changed_at"))
    last = rows["last"].timestamp() if rows["last"] else 0
    return f"-c{rows['n']}-{last:.6f}"
