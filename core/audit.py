"""Audit history: every change to the club's records, kept by database triggers.

django-pghistory installs PostgreSQL triggers on the tracked tables (hands, rubbers,
settlements, tables, members, cuts, evenings, tournaments, their players and rounds),
so every insert, update and delete is recorded, bulk ones and raw SQL included: a
change cannot bypass it. Each request's changes are grouped under a context naming
who made them, where, and (for corrections and reopenings) why.

The triggers exist on PostgreSQL, the production database; the laptop default
(SQLite) keeps no trigger history, only the service's own records of corrections.
"""

import contextlib
import json
import threading
import uuid

from django.db import connection, transaction


def audited(name: str, *, derived: tuple[str, ...] = (), counters: tuple[str, ...] = ()):
    """A model decorator: database triggers record every insert, update and delete of
    the model in a `<name>History` table (reachable as `obj.history`).

    `derived` names columns the service recomputes from other audited rows (running
    totals): they are left out of the history, and an update that changes only them
    records nothing. `counters` names columns that every hand moves and that other rows
    already record (a count of the log's events, a summary of the hands): an update
    that changes only them records nothing, but the rows other changes write keep them.
    """
    import pghistory

    exclude = list(derived) or None
    quiet = list(derived) + list(counters) or None
    return pghistory.track(
        pghistory.InsertEvent(),
        pghistory.UpdateEvent(condition=pghistory.AnyChange(exclude=quiet)),
        pghistory.DeleteEvent(),
        exclude=exclude,
        model_name=f"{name}History",
        obj_field=pghistory.ObjForeignKey(related_name="history", db_index=True),  # read by it
    )


# --- the audit context: who and why, set once a transaction -----------------------------
#
# django-pghistory's triggers read two settings, `pghistory.context_id` and
# `pghistory.context_metadata`, and file each history row under that context. Its own
# `pghistory.context` sets them by prefixing every write statement with a `set_config`
# statement: a second statement in the query text, which rules out server-side binding
# and prepared statements (config/settings.py), and costs a parse and a JSON document a
# write. Here they are set as pghistory sets them (`set_config(..., true)`: local to the
# transaction), but only before the first write of a transaction, and again only when
# the context's metadata has changed or a savepoint that set them may have been rolled
# back. A write outside a transaction (autocommit) is made its own transaction, so that
# the settings hold for it.

_open = threading.local()  # .context: the thread's open _Context, if any
_SET_CONTEXT = (
    "SELECT set_config('pghistory.context_id', %s, true), "
    "set_config('pghistory.context_metadata', %s, true)"
)
# Statements that cannot fire a trigger, or cannot run in a transaction: pghistory's
# list, and the savepoints' own statements.
_NOT_WRITES = (
    "select", "vacuum", "analyze", "checkpoint", "discard", "load", "cluster", "reindex",
    "create", "alter", "drop", "set transaction", "set session", "begin", "start",
    "savepoint", "release", "rollback",
)  # fmt: skip


class _Context:
    """The open context: its id (pghistory's Context row) and metadata, and `changes`, a
    count that moves whenever the metadata does."""

    def __init__(self, metadata: dict):
        self.id = str(uuid.uuid4())
        self.metadata = dict(metadata)
        self.changes = 0

    def add(self, metadata: dict) -> None:
        if any(k not in self.metadata or self.metadata[k] != v for k, v in metadata.items()):
            self.metadata.update(metadata)
            self.changes += 1


def _set_before_writes(execute, sql, params, many, context):
    """A database execute wrapper: before a write, the open audit context is set in the
    transaction, unless it is set there already (see above)."""
    from psycopg.pq import TransactionStatus

    db = context["connection"]
    status = db.connection.info.transaction_status
    if status == TransactionStatus.IDLE:  # this statement begins a new transaction
        db.audit_context_set = None
    head = sql.lstrip()[:20].lower() if isinstance(sql, str) else ""
    if (
        status == TransactionStatus.INERROR
        or head.startswith(_NOT_WRITES)
        or getattr(context["cursor"].cursor, "name", None)  # a named (server-side) cursor
    ):
        return execute(sql, params, many, context)
    opened = _open.context
    if db.get_autocommit():  # the write alone: its own transaction, the context set first
        with transaction.atomic(using=db.alias):
            _set(context["cursor"], opened)
            db.audit_context_set = None
            return execute(sql, params, many, context)
    if not _is_set(db, opened):
        _set(context["cursor"], opened)
        _mark_set(db, opened)
    return execute(sql, params, many, context)


def _is_set(db, opened: _Context) -> bool:
    """Is the open context set in the connection's transaction, for its metadata as it
    is now, at this savepoint level or an enclosing one? A savepoint rolled back or
    released since it was set is no longer on the stack, and a new one has a new id, so
    then it is not (and is set again)."""
    from psycopg.pq import TransactionStatus

    if db.connection.info.transaction_status == TransactionStatus.IDLE:
        return False  # no transaction begun yet: whatever was set went with the last one
    done = getattr(db, "audit_context_set", None)
    return (
        done is not None
        and done[0] == (opened.id, opened.changes)
        and tuple(db.savepoint_ids)[: len(done[1])] == done[1]
    )


def _mark_set(db, opened: _Context) -> None:
    db.audit_context_set = ((opened.id, opened.changes), tuple(db.savepoint_ids))


def _metadata(opened: _Context) -> str:
    """The context's metadata as pghistory's triggers read it (its JSON encoder)."""
    from pghistory.config import json_encoder

    return json.dumps(opened.metadata, cls=json_encoder())


def _set(cursor, opened: _Context) -> None:
    # The driver's own cursor: this statement is not passed to the wrappers again.
    cursor.cursor.execute(_SET_CONTEXT, (opened.id, _metadata(opened)))


def set_local(**settings: str) -> None:
    """PostgreSQL settings for the rest of the transaction (`set_config(name, value,
    true)`, as SET LOCAL), in one statement with the open audit context when that is not
    set in the transaction yet: a write's transaction that sets something first (a lock
    timeout, core/db.py) then sends no statement of its own for the context. Must be
    called inside transaction.atomic(); the names are PostgreSQL's, dots included, so
    they are given as a dict: `set_local(**{"lock_timeout": "3000ms"})`."""
    db = connection
    pairs = list(settings.items())
    opened = getattr(_open, "context", None)
    with_context = opened is not None and not _is_set(db, opened)
    if with_context:
        pairs += [
            ("pghistory.context_id", opened.id),
            ("pghistory.context_metadata", _metadata(opened)),
        ]
    sql = "SELECT " + ", ".join("set_config(%s, %s, true)" for _ in pairs)
    with db.cursor() as cursor:  # a SELECT: the wrapper above lets it through as it is
        cursor.execute(sql, [value for pair in pairs for value in pair])
    if with_context:
        _mark_set(db, opened)


class audit_context(contextlib.ContextDecorator):
    """Group the changes made inside under one audit context with this metadata (who,
    why). Inside an open context, entering another adds its metadata to the open one, as
    `add_to_audit_context` does; a no-op where the database keeps no trigger history."""

    def __init__(self, **metadata):
        self.metadata = metadata
        self._wrapper = None

    def __enter__(self):
        if connection.vendor != "postgresql":
            return None
        opened = getattr(_open, "context", None)
        if opened is not None:
            opened.add(self.metadata)
            return opened
        _open.context = _Context(self.metadata)
        self._wrapper = connection.execute_wrapper(_set_before_writes)
        self._wrapper.__enter__()
        return _open.context

    def __exit__(self, *exc):
        if self._wrapper is not None:
            self._wrapper.__exit__(*exc)
            self._wrapper = None
            del _open.context


def add_to_audit_context(**metadata) -> None:
    """Add to the open audit context's metadata (who made a request, once its
    authentication is known); nothing when no context is open."""
    opened = getattr(_open, "context", None)
    if opened is not None:
        opened.add(metadata)


class AuditMiddleware:
    """Every write request's changes are recorded with the user, or the table whose
    phone made them, and the address."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in {"GET", "HEAD", "OPTIONS"}:
            return self.get_response(request)
        user = getattr(request, "user", None)
        who = user.username if user is not None and user.is_authenticated else None
        with audit_context(user=who, url=request.path):
            return self.get_response(request)


def register_history_admin(admin_site, app_label: str) -> None:
    """A read-only admin page for each audit history model of an app."""
    from django.apps import apps
    from django.contrib import admin

    class HistoryAdmin(admin.ModelAdmin):
        list_display = ["pgh_created_at", "pgh_label", "pgh_obj", "pgh_context"]
        list_filter = ["pgh_label"]

        def has_add_permission(self, request):
            return False

        def has_change_permission(self, request, obj=None):
            return False

        def has_delete_permission(self, request, obj=None):
            return False

    for model in apps.get_app_config(app_label).get_models():
        if model.__name__.endswith("History") and not admin_site.is_registered(model):
            admin_site.register(model, HistoryAdmin)


class RecordWho:
    """A DRF permission that always allows, and names the caller in the audit context.

    It runs after authentication (so a token's user is known), which the middleware
    cannot see; a table's phone is named by its table.
    """

    def has_permission(self, request, view):
        if connection.vendor == "postgresql" and request.method not in {"GET", "HEAD", "OPTIONS"}:
            user = request.user.username if request.user.is_authenticated else None
            table = getattr(request.auth, "number", None)
            add_to_audit_context(user=user, table=table)
        return True

    def has_object_permission(self, request, view, obj):
        return True
