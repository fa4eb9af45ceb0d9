"""Row locks with a lock timeout that becomes a clear, retryable 409.

Writes that read then write a rubber's or an evening's state lock its row first,
inside the transaction, always in the same order, so that no two requests can wait
for each other in a cycle:

1. rubbers, in ascending primary key (a hand, a correction or a removal locks the one
   rubber it changes; an evening action locks every rubber in play at the evening);
2. then the evening. A hand at an evening's table takes the evening's row last, with
   the one UPDATE that moves the evening's version on and appends to its log, so the
   evening is held only from that statement to commit and the tables of an evening
   record their hands side by side (club/evenings.py).

Whoever holds an evening never waits for a rubber: a rubber it must lock after the
evening is locked NOWAIT (`lock_one(..., nowait=True)`), since the request holding it
may be waiting for that very evening; a busy one is a retryable 409. A lock not granted
within LOCK_TIMEOUT_MS, or a deadlock PostgreSQL had to break, is a 409 too, and the
whole transaction is rolled back: nothing is half-written.
"""

from contextlib import contextmanager

from django.conf import settings
from django.db import OperationalError, connection
from django.db.models import Model, QuerySet

from core import audit
from core.errors import Conflict

LOCK_TIMEOUT_MS = getattr(settings, "LOCK_TIMEOUT_MS", 3000)
_LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's lock_not_available (lock_timeout, NOWAIT)
_DEADLOCK_DETECTED = "40P01"


@contextmanager
def row_locks(*, what: str):
    """Row locks taken inside: waited for at most LOCK_TIMEOUT_MS (PostgreSQL), and a lock
    not granted (or a deadlock broken) raised as a retryable Conflict.

    Must be used inside transaction.atomic(). The timeout is SET LOCAL, so it holds to
    the end of the transaction: for every later lock of the transaction too.
    """
    if connection.vendor == "postgresql":
        # As SET LOCAL: to the end of this transaction only. In the same statement, the
        # request's audit context when it is not set in the transaction yet (core.audit).
        audit.set_local(lock_timeout=f"{int(LOCK_TIMEOUT_MS)}ms")
    with conflict_on_lock_failure(what=what):
        yield


@contextmanager
def conflict_on_lock_failure(*, what: str):
    """A statement inside that was refused a row lock (timeout, NOWAIT, deadlock) raises
    a retryable Conflict instead; the caller's transaction is then rolled back whole.

    Also a decorator, put outside a service's `transaction.atomic`: a lock refused
    anywhere in its transaction, the deferred foreign-key checks at COMMIT included, is
    then a 409 after the rollback rather than a 500."""
    try:
        yield
    except OperationalError as exc:
        sqlstate = getattr(getattr(exc, "__cause__", None), "sqlstate", None)
        if sqlstate in {_LOCK_NOT_AVAILABLE, _DEADLOCK_DETECTED}:
            raise Conflict(
                f"The {what} is being changed by another request; try again.", code="locked"
            ) from exc
        raise


def for_update(queryset: QuerySet, *, nowait: bool = False) -> QuerySet:
    """The queryset's rows to be locked as a writer locks them: FOR NO KEY UPDATE, which
    serialises the writers of a row as FOR UPDATE does but lets other requests insert
    rows that refer to it (their foreign-key checks take only KEY SHARE: a rubber started
    at an evening's table while an action holds the evening). Only the queryset's own
    table is locked (OF), not the rows it joins through select_related."""
    return queryset.select_for_update(of=("self",), no_key=True, nowait=nowait)


def lock_one(queryset: QuerySet, *, what: str, nowait: bool = False) -> Model:
    """Lock one row (`for_update`), waiting at most LOCK_TIMEOUT_MS (PostgreSQL), or not
    at all with `nowait`.

    Must be called inside transaction.atomic(). Raises Conflict when the row stays
    locked by another request, and DoesNotExist when there is no such row.
    """
    with row_locks(what=what):
        return for_update(queryset, nowait=nowait).get()
