"""Row locks with a lock timeout that becomes a clear, retryable 409.

Writes that read then write a table's or a rubber's state lock its row first,
inside the transaction, always in the same order (evening, then table, then
rubber), so two devices acting on the same table are serialised and never
deadlock; one that waits too long gets a Conflict it may safely retry.
"""

from django.conf import settings
from django.db import OperationalError, connection
from django.db.models import Model, QuerySet

from config.api import Conflict

LOCK_TIMEOUT_MS = getattr(settings, "LOCK_TIMEOUT_MS", 3000)
_LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's lock_not_available


def lock_one(queryset: QuerySet, *, what: str) -> Model:
    """SELECT ... FOR UPDATE one row, waiting at most LOCK_TIMEOUT_MS (PostgreSQL).

    Must be called inside transaction.atomic(). Raises Conflict when the row stays
    locked by another request for longer than the timeout, and DoesNotExist when
    there is no such row.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # SET LOCAL lasts to the end of this transaction only.
            cursor.execute(f"SET LOCAL lock_timeout = '{int(LOCK_TIMEOUT_MS)}ms'")
    try:
        return queryset.select_for_update().get()
    except OperationalError as exc:
        if getattr(getattr(exc, "__cause__", None), "sqlstate", None) == _LOCK_NOT_AVAILABLE:
            raise Conflict(
                f"The {what} is being changed by another request; try again.", code="locked"
            ) from exc
        raise
