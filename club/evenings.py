"""Running an evening: every action goes through the evening's log.

An action is an event (docs/evening-log.md). `evening_act` locks the evening's row,
checks the version the device saw, lets the pure table-formation engine
(`club.formation`) decide what the laws make of it, and then writes, in the same
transaction: the event and its decisions, the cut and its cards, new tables with
their phone tokens, and a rubber (Call-Ace: a sitting) for every table whose play
has begun. Hands recorded at an evening's table are events too: they are changed
through club.recording (the one way, whatever the door), and the evening learns of
them from scoring's signals (club.evening_receivers, connected in ClubConfig.ready());
when a hand ends a rubber the rubber's end is logged and the engine cuts players in and
out.

Locks, always in this order (core/db.py): rubbers (by primary key), then the evening.

- A hand, a correction, a removal or a sitting closed at a table locks that table's
  rubber and only reads the evening beside it, so the scoring is done under the
  rubber's lock alone and the tables of an evening record their hands side by side.
  The evening's row is taken last, by the one UPDATE that moves its version on and
  appends the event to the log (`_append`); that UPDATE checks again that the evening
  is open and at the version the device saw, and the evening is held from it to commit.
- A change that ends the rubber (law 15: the table then cuts in and out) locks the
  evening with SELECT ... FOR NO KEY UPDATE after the scoring instead, and the
  engine's state changes under that lock.
- An evening action locks every rubber in play at the evening, then the evening: it
  waits for the hands being recorded, and they for it.
- Holding the evening, nothing waits for a rubber: a rubber locked then (one started
  meanwhile) is locked NOWAIT, and a busy one is a retryable 409.

So the log's `seq` stays gap-free and equal to `evening.version`, in an order the
evening could have been played in: each rubber's hands in the order they were scored,
each action after every hand logged before it; `replay_evening` replays it to the same
state. A device acting on a version that is no longer the latest gets a 409 and the
version it missed.
"""

import datetime
import json
import secrets
from collections import Counter
from decimal import Decimal

from django.db import connection, transaction
from django.db.models import Sum
from django.utils import timezone

from club.formation import FormationError, engine
from club.formation.engine.wording import ACTION_TEXT, not_an_action
from club.formation.state import EveningState
from club.models import Club, Cut, Evening, EveningEvent, Member, Table
from club.rubber_locks import (
    as_locked,
    at_table,
    hold,
    lock_first,
    lock_in_play,
    lock_in_progress,
    taken_back,
)
from core.db import conflict_on_lock_failure, lock_one
from core.errors import Conflict, UserError
from core.quoted import quoted
from core.text import KEY_MAX, TITLE_MAX, Plural, clean_name, clean_reason, clean_text
from scoring import services as scoring
from scoring.models import Hand, Rubber, Settlement
from scoring.rules.games import get_game

# The events a secretary (or a replay) may log; hands go through club.recording.
SECRETARY_EVENTS = {
    "arrive", "depart", "form_table", "cut", "deal_jack", "claim", "withdraw", "rubber_end",
    "substitute", "leave", "change_table", "break_up", "dealer_choice", "announce",
}  # fmt: skip
# The texts an action may carry, in words, as a refusal of one names it (core.text).
EVENT_WORDS = {
    "player": "The player's name",
    "substitute": "The substitute's name",
    "broken_by": "The name of the player who broke up the table",
    "consent": "The name of a player consenting",
    "exposed": "The name of a player who exposed cards",
    "cards": "The name of a player cutting",
    "thrown": "The name of a player thrown a card",
    "chosen cards": Plural("The cards the dealer chose"),
    "chosen counters": Plural("The counters the dealer chose"),
    "cut_id": "The name of the cut",
}
# The keys each action takes besides "type" (docs/evening-log.md); any other is refused.
# "draw" asks the service to draw the cards (ruling T10); "new_player" says that an
# arrival whose name looks like a member's is someone else all the same.
ACTION_KEYS = {
    "arrive": {"player", "new_player"},
    "depart": {"player"},
    "form_table": set(),
    "cut": {"cards", "cut_id", "draw", "exposed"},
    "deal_jack": {"table", "cards", "draw"},
    "claim": {"player", "table"},
    "withdraw": {"player"},
    "rubber_end": {"table"},
    "substitute": {"table", "player", "substitute", "consent"},
    "leave": {"table", "player"},
    "change_table": {"player", "table", "will_return"},
    "break_up": {"table", "broken_by"},
    "dealer_choice": {"table", "seat", "cards", "counters"},
    "announce": {"player", "table"},
}
# Markers only the service writes: a cut it drew, an event it generated.
SERVICE_KEYS = {
    "drawn": 'only the service marks a cut as drawn by it (ruling T10); send "draw": true',
    "automatic": "only the service generates events (a rubber's end after its last hand)",
}
# What the evening's services change on its row: a view re-reads these after a change
# (keeping the club it read with the evening).
CHANGING = ["status", "state", "version"]


@transaction.atomic
def evening_open(
    *, club: Club, date, ruleset: str, stake: Decimal, title: str = "", options: dict | None = None
) -> Evening:
    """Open a club night under a rule set at a stake per point (ruling M1)."""
    from scoring.rules import get_ruleset

    rules = get_ruleset(ruleset)
    title = clean_text(title, field="title", max_length=TITLE_MAX, label="The evening's title")
    if isinstance(date, str):
        try:
            date = datetime.date.fromisoformat(date)
        except ValueError as exc:
            raise UserError("A date is written 1888-11-21.", field="date") from exc
    return Evening.objects.create(
        club=club,
        date=date,
        ruleset=rules.key,
        options=rules.validate_options(options or None),
        stake=stake,
        title=title,
    )


def evening_state(evening: Evening) -> EveningState:
    """The engine's state of the evening after its last event."""
    if not evening.state:
        return engine.new_evening(evening.ruleset)
    return EveningState.from_dict(evening.state)


def _check_version(evening: Evening, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != evening.version:
        raise Conflict(
            f"The evening has moved on (version {evening.version}, you saw "
            f"{expected_version}); look again before acting.",
            code="stale",
            details={"version": evening.version},
        )


def _lock_evening(evening_id: int, expected_version: int | None) -> Evening:
    evening = lock_one(Evening.objects.select_related("club").filter(pk=evening_id), what="evening")
    _check_version(evening, expected_version)
    return evening


def _log(
    evening: Evening,
    data: dict,
    decisions,
    *,
    user=None,
    table: Table | None = None,
    automatic: bool = False,
) -> EveningEvent:
    """Log an event on the locked evening (its version is saved by the caller)."""
    evening.version += 1
    return EveningEvent.objects.create(
        evening=evening,
        seq=evening.version,
        type=data["type"],
        data=data,
        decisions=[d.to_dict() if hasattr(d, "to_dict") else d for d in decisions],
        automatic=automatic,
        by_user=user if user is not None and user.is_authenticated else None,
        by_table=table,
    )


def _append(
    evening_id: int, data: dict, *, expected_version: int | None, user, table: Table | None
) -> int:
    """Log a change made under its rubber's lock alone, the evening not locked until now;
    return the event's seq.

    One UPDATE moves the evening's version on, provided the evening is still open and
    (when the device said which) at the version the device saw, and locks its row to
    commit; the event takes that version as its seq. Otherwise the change is refused
    and rolled back whole, as it would have been had it come after what moved the
    evening on. On PostgreSQL the UPDATE and the event's INSERT are one statement (this
    is on every hand's path).
    """
    quote = connection.ops.quote_name
    table_name = quote(Evening._meta.db_table)
    version = quote(Evening._meta.get_field("version").column)
    status = quote(Evening._meta.get_field("status").column)
    sql = f"UPDATE {table_name} SET {version} = {version} + 1 WHERE {quote('id')} = %s"
    sql += f" AND {status} = %s"
    params: list = [evening_id, Evening.Status.OPEN.value]
    if expected_version is not None:
        sql += f" AND {version} = %s"
        params.append(expected_version)
    sql += f" RETURNING {version}"
    by_user = user if user is not None and user.is_authenticated else None
    # The lock timeout was set with the rubber's lock (core.db.row_locks): it holds.
    with conflict_on_lock_failure(what="evening"), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            field = EveningEvent._meta.get_field
            sql = (
                f"WITH moved AS ({sql}) INSERT INTO {quote(EveningEvent._meta.db_table)} "
                "(evening_id, seq, type, data, decisions, automatic, by_user_id, by_table_id, "
                f"created_at) SELECT %s, moved.{version}, %s, %s, %s, false, %s, %s, %s "
                "FROM moved RETURNING seq"
            )
            params += [
                evening_id, data["type"], field("data").get_db_prep_save(data, connection),
                field("decisions").get_db_prep_save([], connection),
                by_user.pk if by_user is not None else None,
                table.pk if table is not None else None, timezone.now(),
            ]  # fmt: skip
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        evening = Evening.objects.get(pk=evening_id)
        _check_version(evening, expected_version)
        _check_open(evening)
        raise Conflict("The evening changed meanwhile; try again.", code="locked")
    if connection.vendor == "postgresql":
        return row[0]
    return EveningEvent.objects.create(
        evening_id=evening_id, seq=row[0], type=data["type"], data=data, decisions=[],
        by_user=by_user, by_table=table,
    ).seq  # fmt: skip


def _ensure_members(evening: Evening, event: dict) -> None:
    """An arriving player who is not on the roster joins it as a guest."""
    if event["type"] != "arrive" or not isinstance(event.get("player"), str):
        return
    name = event["player"].strip()
    if not evening.club.members.filter(name__iexact=name).exists():
        Member.objects.create(club=evening.club, name=name, is_guest=True)


def _sync_tables(
    evening: Evening,
    before: EveningState,
    after: EveningState,
    user,
    event_type: str,
    held: set[int],
) -> None:
    """Create the rows the engine's new state needs: a Table (with its phone token) for
    each new table, and a rubber for each table whose play has just begun."""
    numbers = set(evening.tables.values_list("number", flat=True))
    for table in after.tables:
        if table.number not in numbers:
            Table.objects.create(club=evening.club, evening=evening, number=table.number)
    if not _partnership(evening):
        _sync_sittings(evening, after, user, held)
        return
    was_playing = {t.number for t in before.tables if t.in_rubber}
    for number in was_playing:
        now = after.table(number)
        if (now is None or not now.in_rubber) and event_type != "rubber_end":
            # The table broke up (or lost its four) before the rubber was won: law 21.
            for rubber in Rubber.objects.filter(
                evening=evening, table__number=number, status=Rubber.Status.IN_PROGRESS
            ):
                scoring.rubber_abandon(rubber=hold(held, rubber))
    for table in after.tables:
        if table.in_rubber and table.number not in was_playing:
            seats = table.seats  # partners sit opposite: N-S against E-W (ruling T4)
            _start(
                evening,
                table.number,
                {"NS": [seats["N"], seats["S"]], "EW": [seats["E"], seats["W"]]},
                user,
            )


def _partnership(evening: Evening) -> bool:
    from scoring.rules import RULESETS

    return RULESETS[evening.ruleset].partnership


def _start(
    evening: Evening, number: int, players, user, *, after: Rubber | None = None, dealer=None
) -> Rubber:
    """Start the rubber (Call-Ace: the sitting) in play at table `number`; a sitting begun
    as `after`, the table's last, ended is dealt first as law 3 has it (`sitting_dealer`),
    `dealer` being the table's as the evening now stands (its first jack's)."""
    first = sitting_dealer(after, players, dealer) if not _partnership(evening) else ""
    return scoring.rubber_start(
        club=evening.club,
        evening=evening,
        table=Table.objects.get(evening=evening, number=number),
        ruleset=evening.ruleset,
        options=evening.options,
        players=players,
        user=user,
        first_dealer=first,
    )


def sitting_dealer(after: Rubber | None, players, table_dealer: str | None) -> str:
    """Call-Ace: who deals the first deal of a sitting of `players` begun at a table whose
    last sitting, `after`, has ended. The deal passes in regular rotation to the left (law
    3), from one sitting to the next: the player due after `after`'s last deal, or the next
    on his left still playing. The table's first sitting, or one after a sitting of other
    players (the table formed afresh), is dealt by the first jack's dealer (law 1)."""
    dealer = table_dealer or ""
    if after is None or not set(after.players) & set(players):
        return dealer
    first = after.first_dealer or dealer
    hands = Hand.objects.filter(rubber=after).order_by("number").values_list("data", flat=True)
    return after.rules.dealer_after(after.players, first, list(hands), players) or dealer


def _sync_sittings(evening: Evening, after: EveningState, user, held: set[int]) -> None:
    """Call-Ace (law 1): play begins at a table once the first jack has named its dealer.
    When the players at a table change, the sitting in progress is settled (ruling C5)
    and a new one begins with the players now there."""
    pending = {cut.table for cut in after.pending}
    standing = {table.number for table in after.tables}
    for sitting in Rubber.objects.filter(evening=evening, status=Rubber.Status.IN_PROGRESS):
        if sitting.table and sitting.table.number not in standing:
            # Its table broke up: settle (C5).
            scoring.rubber_close(rubber=hold(held, sitting))
    for table in after.tables:
        sitting = (
            Rubber.objects.filter(
                evening=evening, table__number=table.number, status=Rubber.Status.IN_PROGRESS
            )
            .order_by("-pk")
            .first()
        )
        playing = table.dealer is not None and table.number not in pending
        ended = None
        if sitting is not None and (not playing or sitting.players != list(table.playing)):
            scoring.rubber_close(rubber=hold(held, sitting))
            ended, sitting = sitting, None
        if sitting is None and playing and len(table.playing) >= 4:
            _start(
                evening, table.number, list(table.playing), user, after=ended, dealer=table.dealer
            )


def _apply(
    evening: Evening, event: dict, *, held: set[int], user=None, table=None, automatic=False
):
    """Apply one event to the locked evening: decide, then write everything it implies.
    `held`: the rubbers this transaction has locked (the others are locked NOWAIT)."""
    before = evening_state(evening)
    after, decisions = engine.apply(before, event)
    _ensure_members(evening, event)
    logged = _log(evening, dict(event), decisions, user=user, table=table, automatic=automatic)
    if event["type"] in {"cut", "deal_jack"}:
        Cut.objects.create(
            evening=evening,
            event=logged,
            purpose=event.get("purpose", "") or _cut_purpose(before, event),
            table_number=event.get("table"),
            cards=event.get("cards"),
            drawn_by_service=bool(event.get("drawn")),
            decided=[f"{d.law}: {d.text}" for d in decisions],
        )
    if event["type"] == "dealer_choice":
        _reseat(evening, after.table(event["table"]), held)
    _sync_tables(evening, before, after, user, event["type"], held)
    evening.state = after.to_dict()
    evening.save(update_fields=["state", "version"])
    return logged


def _reseat(evening: Evening, table, held: set[int]) -> None:
    """Ruling T12: the rubber just begun takes the sides of the dealer's chosen seat."""
    from club.seating import rubber_reseat

    rubber = Rubber.objects.filter(
        evening=evening, table__number=table.number, status=Rubber.Status.IN_PROGRESS
    ).first()
    if rubber is not None:
        rubber_reseat(rubber=hold(held, rubber), seats=table.seats)


def _cut_purpose(state: EveningState, event: dict) -> str:
    if event["type"] == "deal_jack":
        return "first-jack"
    players = set(event.get("cards") or {})
    for cut in state.pending:
        if players & set(cut.cutters):
            return cut.purpose
    return "cut"


def _check_plain_json(value) -> None:
    """The log keeps events as JSON: refuse what JSON cannot hold (NaN, Infinity, ...)."""
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise UserError(f"The action is not plain JSON: {exc}.", field="type") from exc


def _checked_action(event) -> dict:
    """An action as a caller sent it, checked before anything is locked: a known type,
    only its documented keys (none that only the service sets), plain JSON, and the
    names in it clean (`core.text.clean_name`). Returns the event with its names
    cleaned."""
    kind = event.get("type") if isinstance(event, dict) else None
    if not isinstance(kind, str) or kind not in SECRETARY_EVENTS:
        # In words, never the log's keys (a replayed log, a board's form of another version).
        said = not_an_action(kind, what="an action of the evening", known=ACTION_TEXT, each="one")
        raise UserError(f"{said}.", field="type")
    for key in event:
        if key in SERVICE_KEYS:
            raise UserError(f"{key!r} cannot be sent: {SERVICE_KEYS[key]}.", field=key)
        if key != "type" and key not in ACTION_KEYS[kind]:
            allowed = ", ".join(sorted(ACTION_KEYS[kind])) or "nothing besides its type"
            raise UserError(
                f"{kind!r} takes {allowed}; {quoted(str(key))} is not one of its keys "
                "(docs/evening-log.md).",
                field=str(key)[:KEY_MAX],
                code="unknown_key",
            )
    _check_plain_json(event)
    event = dict(event)
    for key in ("player", "substitute", "broken_by"):
        if isinstance(event.get(key), str):
            event[key] = clean_name(event[key], field=key, label=EVENT_WORDS[key])
    if isinstance(event.get("consent"), list):
        event["consent"] = [
            clean_name(name, field=f"consent[{i}]", label=EVENT_WORDS["consent"])
            if isinstance(name, str)
            else name
            for i, name in enumerate(event["consent"])
        ]
    exposed = event.get("exposed")
    if isinstance(exposed, dict):
        event["exposed"] = {
            clean_name(name, field="exposed", label=EVENT_WORDS["exposed"]): shown
            for name, shown in exposed.items()
        }
    if kind == "dealer_choice":
        for key in ("cards", "counters"):
            if isinstance(event.get(key), str):
                event[key] = clean_text(
                    event[key], field=key, max_length=TITLE_MAX, label=EVENT_WORDS[f"chosen {key}"]
                )
    cards = event.get("cards")
    if isinstance(cards, dict):
        event["cards"] = {
            clean_name(name, field="cards", label=EVENT_WORDS["cards"]): card
            for name, card in cards.items()
        }
    elif isinstance(cards, list):
        event["cards"] = [
            [clean_name(throw[0], field=f"cards[{i}]", label=EVENT_WORDS["thrown"]), *throw[1:]]
            if isinstance(throw, list) and throw and isinstance(throw[0], str)
            else throw
            for i, throw in enumerate(cards)
        ]
    if isinstance(event.get("cut_id"), str):
        event["cut_id"] = clean_text(
            event["cut_id"], field="cut_id", max_length=KEY_MAX, label=EVENT_WORDS["cut_id"]
        )
    if "new_player" in event and not isinstance(event["new_player"], bool):
        raise UserError("'new_player' is true or false.", field="new_player")
    return event


def _arrival(evening: Evening, event: dict) -> dict:
    """An arrival names a member as the roster has him: "ann" is Ann, never a second Ann;
    a name that only looks like a member's is asked about (club.services.member_named)."""
    from club.services import member_named

    if not isinstance(event.get("player"), str):
        return event
    member = member_named(
        club=evening.club,
        name=event["player"],
        new_player=bool(event.get("new_player")),
        field="player",
    )
    return {**event, "player": member.name} if member is not None else event


def _check_open(evening: Evening) -> None:
    if evening.status == Evening.Status.CLOSED:
        raise UserError(
            "The evening is closed; a secretary must reopen it (with a reason) first.",
            code="closed",
        )


@conflict_on_lock_failure(what="evening")
@transaction.atomic
def evening_act(
    *, evening_id: int, event: dict, user=None, expected_version: int | None = None
) -> EveningEvent:
    """Log one secretary's action (arrive, form_table, cut, claim, substitute, leave, ...).

    A `cut` or `deal_jack` event with `"draw": true` and no cards has its cards drawn
    here from a cryptographic random source (ruling T10); the cards drawn are what is
    logged, so a replay needs no randomness.
    """
    event = _checked_action(event)
    held = lock_in_play(evening_id)  # the rubbers first, then the evening
    evening = _lock_evening(evening_id, expected_version)
    _check_open(evening)
    if event["type"] == "arrive":
        event = _arrival(evening, event)
    if event["type"] == "rubber_end":
        from club.closing import check_rubber_end

        check_rubber_end(evening=evening, event=event)
    if event["type"] in {"cut", "deal_jack"} and event.get("draw"):
        rng = secrets.SystemRandom()
        drawn = engine.draw_event(  # the cut named (its table, its cut_id), else the first
            evening_state(evening), rng, table=event.get("table"), cut_id=event.get("cut_id")
        )
        if drawn is None:
            raise FormationError("No cut is waiting to be made.", field="type")
        event = {**drawn, "drawn": True}
    return _apply(evening, event, user=user, held=held)


def _table_rubber(evening: Evening, number: int) -> Rubber:
    table = Table.objects.filter(evening=evening, number=number).first()
    if table is None:
        raise UserError(f"The evening has no table {number}.", field="table")
    rubber = (
        Rubber.objects.filter(table=table, status=Rubber.Status.IN_PROGRESS)
        .order_by("-created_at", "-id")
        .first()
    )
    engine_table = evening_state(evening).table(number)
    if rubber is None and not _partnership(evening) and engine_table and engine_table.dealer:
        # Call-Ace: the last sitting was settled; the same players sit on in a new one,
        # the deal passing on from it (law 3).
        last = Rubber.objects.filter(table=table).order_by("-created_at", "-id").first()
        playing, dealer = list(engine_table.playing), engine_table.dealer
        rubber = _start(evening, number, playing, None, after=last, dealer=dealer)
    if rubber is None:
        raise UserError(
            f"No rubber is in progress at table {number}: the players cut for partners and "
            "deal first (ruling T4).",
            field="table",
            law="ruling T4",
        )
    return rubber


def check_change(
    evening: Evening,
    expected_version: int | None,
    table: Table | None,
    table_number: int,
    doing: str = "changes",
) -> None:
    """What every change at a table checks first: the version the device saw, the evening
    open, and a table's link changing only its own table's hands."""
    _check_version(evening, expected_version)
    _check_open(evening)
    if table is not None and table.number != table_number:
        raise UserError(f"This table's link {doing} only its own hands.", code="permission_denied")


def rubber_to_change(
    *,
    evening_id: int,
    table_number: int,
    expected_version: int | None = None,
    table: Table | None = None,
    rubber_id: int | None = None,
    ordinal: int | None = None,
    doing: str = "changes",
) -> tuple[Rubber, Evening | None]:
    """The rubber a change at a table is made to, its row locked, after `_check_change`.

    The rubber is named by id (the API's rubber), by its ordinal at the table (the
    log's), or else is the one in progress at the table. It is locked first and the
    evening only read with it: (rubber, None). When the table has no rubber in
    progress, the evening is locked first and its state decides (Call-Ace: the same
    players sit on in a new sitting), and (rubber, evening) is returned: holding the
    evening, the rubber is locked NOWAIT (core/db.py).
    """
    rubbers = at_table(evening_id, table_number)
    if rubber_id is None and ordinal is not None:
        ids = list(rubbers.order_by("pk").values_list("pk", flat=True))
        rubber_id = ids[ordinal - 1] if 1 <= ordinal <= len(ids) else 0
    if rubber_id is not None:
        rubber = lock_first(rubbers.filter(pk=rubber_id))
    else:
        # Looked for twice: a rubber that ends (or whose table breaks up) while this
        # request waits for its lock is not returned, and the table may have a new one.
        rubber = lock_in_progress(evening_id, table_number) or lock_in_progress(
            evening_id, table_number
        )
    if rubber is not None:
        check_change(rubber.evening, expected_version, table, table_number, doing)
        return rubber, None
    evening = _lock_evening(evening_id, expected_version)
    check_change(evening, None, table, table_number, doing)
    if ordinal is not None and rubber_id is not None:
        message = f"Table {table_number} has no rubber {ordinal} this evening."
        raise UserError(message, field="rubber")
    if rubber_id is not None:
        in_play = rubbers.filter(status=Rubber.Status.IN_PROGRESS).exists()
        raise taken_back(evening, table_number, in_play=in_play, doing=doing)
    found = _table_rubber(evening, table_number)
    return as_locked(lock_one(rubbers.filter(pk=found.pk), what="rubber", nowait=True)), evening


def _log_change(
    rubber: Rubber,
    evening: Evening | None,
    data: dict,
    *,
    ended: bool,
    user,
    table: Table | None,
    expected_version: int | None,
) -> Evening | None:
    """Log a change made at a table to `rubber` (locked; `evening` too when the change
    locked it first). A change that has just ended a rubber (`ended`) locks the evening
    now, after the rubber, for the engine to end the rubber at its table (law 15:
    club.evening_receivers, on scoring's `rubber_finished`). Returns the evening when this
    transaction now holds its row."""
    if ended and rubber.rules.partnership and evening is None:
        evening = _lock_evening(rubber.evening_id, expected_version)
        _check_open(evening)
    if evening is None:
        _append(rubber.evening_id, data, expected_version=expected_version, user=user, table=table)
        return None
    _log(evening, data, [], user=user, table=table)
    evening.save(update_fields=["version"])
    return evening


@conflict_on_lock_failure(what="evening")
@transaction.atomic
def evening_close_sitting(
    *, evening_id: int, table_number: int, user=None, expected_version: int | None = None
) -> Rubber:
    """End the Call-Ace sitting at a table and settle it (ruling C5); logged. The board
    sends `expected_version` (the API may not): its form posted twice ends one sitting."""
    rubber, evening = rubber_to_change(
        evening_id=evening_id, table_number=table_number, expected_version=expected_version
    )
    if rubber.rules.partnership:
        # The law within the sentence: said after its full stop, it read "... not when
        # closed. (ruling E1)" on the board.
        raise UserError(
            "A rubber ends when it is won, not when it is closed (ruling E1); only a "
            "Call-Ace sitting is closed, and settled (ruling C5).",
            law="ruling E1",
        )
    deals = rubber.hand_count  # as locked: none, and the sitting settles nothing (C5)
    scoring.rubber_close(rubber=rubber)
    _log_change(
        rubber,
        evening,
        {"type": "close_sitting", "table": table_number, "deals": deals},
        ended=False,
        user=user,
        table=None,
        expected_version=expected_version,
    )
    return rubber


@conflict_on_lock_failure(what="evening")
@transaction.atomic
def evening_close(
    *, evening_id: int, user=None, expected_version: int | None = None, rubbers=None
) -> Evening:
    """Close the evening: it is frozen until a secretary reopens it (ruling M1's ledger
    stands as it is). No rubber stays in play: `rubbers` says for each one still in play
    whether it was finished as played or abandoned, with a reason (club.closing); the
    close is refused, naming them, while one is unanswered."""
    from club import closing

    held = lock_in_play(evening_id)  # the rubbers first, then the evening
    evening = _lock_evening(evening_id, expected_version)
    _check_open(evening)
    settled = closing.settle_unfinished(
        evening=evening, answers=rubbers, hold=lambda rubber: hold(held, rubber)
    )
    _log(evening, {"type": "close", **({"rubbers": settled} if settled else {})}, [], user=user)
    evening.status = Evening.Status.CLOSED
    evening.save(update_fields=["status", "version"])
    return evening


@conflict_on_lock_failure(what="evening")
@transaction.atomic
def evening_reopen(
    *, evening_id: int, reason: str, user=None, expected_version: int | None = None
) -> Evening:
    """Reopen a closed evening, saying why (logged), at the version the board showed if given."""
    reason = clean_reason(reason)
    if not reason:
        raise UserError("Say why the evening is reopened.", field="reason")
    evening = _lock_evening(evening_id, expected_version)
    if evening.status != Evening.Status.CLOSED:
        raise UserError("The evening is open already.", code="open")
    # The rubbers the close abandoned go on from their hands (club.closing).
    from club.closing import abandoned_at_last_close

    for rubber in abandoned_at_last_close(evening=evening):
        scoring.rubber_resume(rubber=hold(set(), rubber))
    _log(evening, {"type": "reopen", "reason": reason}, [], user=user)
    evening.status = Evening.Status.OPEN
    evening.save(update_fields=["status", "version"])
    return evening


# --- reading the evening ---------------------------------------------------------------------


def evening_ledger(*, evening: Evening) -> dict[str, Decimal]:
    """Each player's winnings (+) and losses (-) at the evening's stake (ruling M1): the
    sum of his rubbers' settlements and his Call-Ace settlement; they add to zero."""
    rows = (
        Settlement.objects.filter(rubber__evening=evening)
        .values("member__name")
        .annotate(total=Sum("amount"))
        .order_by("member__name")
    )
    return {row["member__name"]: Decimal(row["total"]).quantize(Decimal("0.01")) for row in rows}


def _required(required: list[dict], evening: Evening, rubbers, ordinals) -> list[dict]:
    """What the laws require next, with each Call-Ace sitting in play after the cuts, as a
    rubber in progress is: "sitting 2 in play at table 1" (ruling C5). The laws of forming
    tables count no Call-Ace sitting a rubber, so they named none, and the board said
    "Nothing is waiting" while one was being played."""
    game = get_game(evening.ruleset)
    if game.partnership:
        return required
    sittings = [
        {
            "kind": "sitting",
            "table": rubber.table.number,
            "players": list(rubber.players),
            "law": game.tables.cite("rubber"),
            "text": f"{game.rubber_label} {ordinals[rubber.pk]} in play at table "
            f"{rubber.table.number}",
        }
        for rubber in sorted(rubbers, key=lambda r: r.table.number if r.table_id else 0)
        if rubber.table_id and rubber.status == Rubber.Status.IN_PROGRESS
    ]
    cuts = [item for item in required if item["kind"] in {"cut", "deal_jack"}]
    return cuts + sittings + required[len(cuts) :]


def evening_summary(*, evening: Evening) -> dict:
    """The evening's state as `replay_evening` prints it and the API shows it: tables with
    seats, partners, dealer and waiting members, consecutive rubbers, candidates, what the
    laws require next, the rubbers with winners and values, and the ledger."""
    state = evening_state(evening)
    data = state.to_dict()
    closed = evening.status == Evening.Status.CLOSED
    game = get_game(evening.ruleset)
    if closed:
        # A closed evening has no rubber in play (club.closing): its tables show none.
        for table in data["tables"]:
            table["rubber_in_progress"] = False
    rubbers = (
        Rubber.objects.filter(evening=evening).select_related("table").order_by("created_at", "pk")
    )
    ordinals, seen = {}, Counter()
    for rubber in sorted(rubbers, key=lambda r: r.pk):  # as the log names them (_ordinal)
        seen[rubber.table_id] += 1
        ordinals[rubber.pk] = seen[rubber.table_id] if rubber.table_id else None
    tables = []
    for table in data["tables"]:
        seats = table["seats"]
        partners = (
            {"NS": [seats["N"], seats["S"]], "EW": [seats["E"], seats["W"]]} if seats else None
        )
        tables.append({**table, "partners": partners})
    return {
        "evening": {
            "id": evening.pk,
            "title": str(evening),
            "date": evening.date.isoformat(),
            "ruleset": evening.ruleset,
            "stake": str(evening.stake),
            "status": evening.status,
            "version": evening.version,
        },
        "present": data["present"],
        "candidates": data["candidates"],
        "tables": tables,
        "pending_cuts": data["pending_cuts"],
        "required": [] if closed else _required(engine.required(state), evening, rubbers, ordinals),
        "rubbers": [
            {
                "id": rubber.pk,
                "table": rubber.table.number if rubber.table_id else None,
                # Its place among the table's rubbers: how a table's endpoints name it.
                "ordinal": ordinals[rubber.pk],
                "players": rubber.players,
                "status": rubber.status,
                "winner": rubber.winner or None,
                "value": rubber.value,
                "hands": rubber.hand_count,
                # A Call-Ace sitting has no winner nor value: each player's points settle
                # it, every player with every other (ruling C5).
                "points": None if game.partnership else (rubber.summary or {}).get("totals") or {},
            }
            for rubber in rubbers
        ],
        "ledger": {name: str(amount) for name, amount in evening_ledger(evening=evening).items()},
    }
