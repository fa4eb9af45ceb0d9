"""Locking an evening's rubbers, in the order core/db.py keeps: rubbers (by primary key),
then the evening.

- A change at a table (a hand, a correction, a removal, a sitting closed) locks the one
  rubber it is made to: named by id (`lock_placed`), or the one in progress at the table
  (`lock_in_progress`), each read `placed` (with its evening, table, seats, hands' data
  and place at its table) in one statement compiled once (core/compiled.py), and read
  again under the lock when it changed while the lock was awaited (`as_locked`).
  `club.evenings.rubber_to_change` chooses which, and checks the evening beside it.
- An evening action locks every rubber in play first (`lock_in_play`), then the evening;
  one it changes that was started since is locked NOWAIT (`hold`).
- A rubber named by id that its table no longer has is refused in words (`taken_back`).
"""

from django.db import connection
from django.db.models import BooleanField, IntegerField, QuerySet, Value
from django.db.models.expressions import RawSQL

from club.models import Evening
from core.compiled import Compiled
from core.db import for_update, lock_one, row_locks
from core.errors import Conflict
from scoring import services as scoring
from scoring.models import Rubber
from scoring.rules.games import get_game


def placed(rubbers: QuerySet[Rubber]) -> QuerySet[Rubber]:
    """These rubbers, each read with its evening and table and with its place at its
    table: `ordinal` (1, 2, ... this evening, as the log names it) and `later` (a rubber
    has been started at the table after it).

    The two are raw SQL, not ORM subqueries: this is the query that locks the rubber on
    every hand's path, and compiling the subqueries cost more than running them. The
    outer table is the rubbers' own (these querysets are never used as a subquery)."""
    quote = connection.ops.quote_name
    table = quote(Rubber._meta.db_table)
    same_table = f"FROM {table} r WHERE r.table_id = {table}.table_id"
    # The club too: the receivers ask its options (club.confirmations) without a query;
    # the seats' members, which scoring writes the hand's scores for; and the hands' data,
    # which scoring replays to score the next.
    rubbers = scoring.with_hand_data(scoring.with_seat_member_ids(rubbers))
    return rubbers.select_related("evening", "table", "club").annotate(
        ordinal=RawSQL(f"SELECT COUNT(*) {same_table} AND r.id <= {table}.id", [],
                       output_field=IntegerField()),
        later=RawSQL(f"EXISTS(SELECT 1 {same_table} AND r.id > {table}.id)", [],
                     output_field=BooleanField()),
        **{CHANGED_WHILE_LOCKING: _changed_while_locking(table)},
    )  # fmt: skip


# Whether the rubber's row was changed by a transaction that committed after the locking
# read began: the read waited for that writer's lock (or found its change), and PostgreSQL
# (READ COMMITTED) then locks and returns the row as the writer left it, while what the
# same statement reads beside it (the seats, the evening, the ordinal) is as it was when
# the statement began. A dealer's choice of seat (ruling T12) rewrites the rubber's sides
# and its seats' order under the rubber's lock: a hand that waited for it would score the
# new sides against the old seats. Such a rubber is read again under the lock it holds
# (`as_locked`).
CHANGED_WHILE_LOCKING = "changed_while_locking"


def _changed_while_locking(table: str):
    if connection.vendor != "postgresql":  # SQLite: one writer at a time, nothing to wait for
        return Value(False, output_field=BooleanField())
    # The row's version returned (the locked one) against the version the statement's
    # snapshot sees: the same unless a later writer's change was followed.
    return RawSQL(
        f"{table}.xmin <> (SELECT r.xmin FROM {table} r WHERE r.id = {table}.id)",
        [],
        output_field=BooleanField(),
    )


def as_locked(rubber: Rubber | None) -> Rubber | None:
    """The rubber as its lock holds it: read again, now that the lock is held (which a
    second read takes at once), when it was changed while the locking read waited."""
    if rubber is not None and getattr(rubber, CHANGED_WHILE_LOCKING, False):
        return _PLACED_BY_ID.first(rubber.pk)
    return rubber


def at_table(evening_id: int, table_number: int) -> QuerySet[Rubber]:
    """The rubbers of an evening's table, `placed`."""
    return placed(Rubber.objects.filter(evening_id=evening_id, table__number=table_number))


def lock_first(rubbers: QuerySet[Rubber]) -> Rubber | None:
    """The first of these rubbers with its row locked (its evening and table only read)."""
    with row_locks(what="rubber"):
        return as_locked(for_update(rubbers).first())


# The two reads that lock the rubber on every hand's path, compiled once (core/compiled.py):
# the rubber named by id, and the one in progress at an evening's table.
_PLACED_BY_ID = Compiled(lambda pk: for_update(placed(Rubber.objects.filter(pk=pk)))[:1], int)
_IN_PROGRESS_AT = Compiled(
    lambda evening_id, number: for_update(
        at_table(evening_id, number)
        .filter(status=Rubber.Status.IN_PROGRESS)
        .order_by("-created_at", "-id")
    )[:1],
    int,
    int,
)


def lock_placed(rubber_id: int) -> Rubber | None:
    """The rubber with this id, `placed`, its row locked; None when there is none."""
    with row_locks(what="rubber"):
        return as_locked(_PLACED_BY_ID.first(rubber_id))


def lock_in_progress(evening_id: int, table_number: int) -> Rubber | None:
    """The rubber in progress at an evening's table, `placed`, its row locked."""
    with row_locks(what="rubber"):
        return as_locked(_IN_PROGRESS_AT.first(evening_id, table_number))


def lock_in_play(evening_id: int) -> set[int]:
    """Lock every rubber in play at the evening, in primary-key order, before the evening
    itself (core/db.py): an action may abandon or settle any of them, and waits here
    for the hands being recorded at their tables."""
    in_play = Rubber.objects.filter(evening_id=evening_id, status=Rubber.Status.IN_PROGRESS)
    with row_locks(what="rubber"):
        locked = for_update(in_play.order_by("pk"))
        return set(locked.values_list("pk", flat=True))


def hold(held: set[int], rubber: Rubber) -> Rubber:
    """A rubber this action changes, locked. One of those in play was locked before the
    evening and has not changed since it was read; one started since is locked NOWAIT,
    since whoever holds it will want the evening this action holds (core/db.py)."""
    if rubber.pk in held:
        return rubber
    rubber = lock_one(Rubber.objects.filter(pk=rubber.pk), what="rubber", nowait=True)
    held.add(rubber.pk)
    return rubber


def taken_back(evening: Evening, table_number: int, *, in_play: bool, doing: str) -> Conflict:
    """The refusal of a change a device meant for a rubber, named by id, that its table no
    longer has: a phone's queued hand, say, whose rubber the secretary has since taken back
    by undoing the cut (Call-Ace: the first jack) that began it (club.evening_undo, which
    takes back only a rubber no hand was played in). Like a hand meant for a rubber that is
    over (club.recording, `rubber_over`): a 409, final, never recorded in another rubber."""
    game = get_game(evening.ruleset)
    rubber, hand = game.rubber_label, game.hand_label
    began = "the cut" if game.cutting else "the first jack"
    if doing == "records":
        what, undone = f"This {hand} was entered for", f"the {hand} was not recorded"
    else:
        what, undone = "This change was made to", "nothing was changed"
    then = (
        f"if the {hand} belongs to the {rubber} now in play, enter it again."
        if in_play
        else f"once the table has its new {rubber}, enter the {hand} again if it belongs to it."
    )
    return Conflict(
        f"{what} a {rubber} that table {table_number} no longer has: the secretary undid "
        f"{began} that began it, so {undone}. Ask the secretary; {then}",
        field="rubber",
        code="rubber_gone",
    )
