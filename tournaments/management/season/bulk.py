"""Writing the season's rows in bulk: COPY on PostgreSQL (a writer thread parsing one chunk
while Python scores the next), executemany elsewhere."""

from __future__ import annotations

import abc
import json
import logging
import queue
import re
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db import connection, models

logger = logging.getLogger(__name__)

# The service's own functions, so that a generated hand's rows are exactly the rows
# recording it through the API would write.


# --- writing rows in bulk ------------------------------------------------------------------


def _kind(f: models.Field) -> str:
    """How a column's value is written: int, text, json, bool, time, date or decimal."""
    internal = f.get_internal_type()
    if internal in ("ForeignKey", "OneToOneField") or internal.endswith("IntegerField"):
        return "int"
    if internal in ("AutoField", "BigAutoField", "SmallAutoField"):
        return "int"
    kinds = {
        "CharField": "text",
        "SlugField": "text",
        "TextField": "text",
        "JSONField": "json",
        "BooleanField": "bool",
        "DateTimeField": "time",
        "DateField": "date",
        "DecimalField": "decimal",
    }
    if internal not in kinds:
        raise TypeError(f"make_season cannot write {f.model.__name__}.{f.name} ({internal})")
    return kinds[internal]


@dataclass
class BulkTable:
    """A model's columns: those the generator gives, then those left to their defaults."""

    model: type[models.Model]
    given: tuple[str, ...]
    columns: list[models.Field]
    defaults: list[Any]  # values of the columns after `given`

    @classmethod
    def of(cls, model: type[models.Model], given: Iterable[str]) -> BulkTable:
        given = tuple(given)
        by_attname = {f.attname: f for f in model._meta.concrete_fields}
        missing = [name for name in given if name not in by_attname]
        if missing:
            raise TypeError(f"{model.__name__} has no column {missing}")
        rest = [f for f in model._meta.concrete_fields if f.attname not in given]
        defaults = []
        for f in rest:
            if f.has_default():
                # A callable default that makes a new value each time (a token) cannot be
                # shared by every generated row.
                if callable(f.default) and f.default not in (dict, list):
                    raise TypeError(f"make_season must give {model.__name__}.{f.name} itself")
                defaults.append(f.get_default())
            elif f.null:
                defaults.append(None)
            else:
                raise TypeError(
                    f"make_season does not know how to fill {model.__name__}.{f.name}: "
                    "give it a default or teach tournaments/management/season/ about it"
                )
        return cls(model, given, [by_attname[n] for n in given] + rest, defaults)


_COPY_SPECIAL = re.compile(r"[\\\t\n\r]")
_COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})
json_text = json.JSONEncoder(separators=(",", ":")).encode


def _copy_text(value: str) -> str:
    return value.translate(_COPY_ESCAPES) if _COPY_SPECIAL.search(value) else value


class JSONText(str):
    """A value already encoded as JSON: written as it is rather than encoded again (the
    generator encodes a hand's data or points once for all the hands that share them)."""


def _copy_json(value: Any) -> str:
    text = value if type(value) is JSONText else json_text(value)
    # JSON text has no raw tabs or newlines; its escapes' backslashes must be doubled.
    return text.replace("\\", "\\\\") if "\\" in text else text


def _copy_int(value: int | None) -> str:
    return "\\N" if value is None else str(value)


_COPY_FORMAT: dict[str, Callable[[Any], str]] = {
    "int": _copy_int,
    "text": _copy_text,
    "json": _copy_json,
    "bool": lambda v: "t" if v else "f",
    "time": lambda v: "\\N" if v is None else v.isoformat(sep=" "),
    "date": lambda v: v.isoformat(),
    "decimal": str,
}


class Sink(abc.ABC):
    """Buffers rows per table and writes them a chunk at a time, in the given order."""

    def __init__(self, tables: list[BulkTable]):
        self.tables = {t.model: t for t in tables}
        self.order = [t.model for t in tables]
        self.rows: dict[type[models.Model], list[tuple]] = {m: [] for m in self.order}
        self.next_ids: dict[type[models.Model], int] = {}

    def begin(self) -> None:
        """Start numbering each table's rows after its highest id (the caller's
        transaction keeps other writers out: locks on PostgreSQL, SQLite's one writer)."""
        with connection.cursor() as cursor:
            for model in self.order:
                table = connection.ops.quote_name(model._meta.db_table)
                cursor.execute(f"SELECT MAX(id) FROM {table}")
                self.next_ids[model] = (cursor.fetchone()[0] or 0) + 1

    def new_id(self, model: type[models.Model]) -> int:
        number = self.next_ids[model]
        self.next_ids[model] = number + 1
        return number

    def add(self, model: type[models.Model], row: tuple) -> None:
        self.rows[model].append(row)

    def flush(self) -> None:
        for model in self.order:
            rows = self.rows[model]
            if rows:
                self._write(self.tables[model], rows)
                self.rows[model] = []

    def finish(self) -> None:
        self.flush()

    @abc.abstractmethod
    def _write(self, table: BulkTable, rows: list[tuple]) -> None:
        """Write one chunk of rows into the table (COPY, or executemany elsewhere)."""


class InsertSink(Sink):
    """Any database Django supports: one `executemany` per table and chunk."""

    describe = "executemany"

    def _write(self, table: BulkTable, rows: list[tuple]) -> None:
        ops = connection.ops
        names = ", ".join(ops.quote_name(f.column) for f in table.columns)
        marks = ", ".join(["%s"] * len(table.columns))
        sql = f"INSERT INTO {ops.quote_name(table.model._meta.db_table)} ({names}) VALUES ({marks})"
        fields = table.columns
        defaults = tuple(table.defaults)
        params = [
            [
                v if type(v) is JSONText else f.get_db_prep_save(v, connection)
                for f, v in zip(fields, row + defaults, strict=True)
            ]
            for row in rows
        ]
        with connection.cursor() as cursor:
            cursor.executemany(sql, params)


class CopySink(Sink):
    """PostgreSQL: COPY ... FROM STDIN (psycopg 3) from a writer thread, so the server
    parses one chunk while the generator makes the next; optionally with the tables'
    foreign keys and non-unique indexes dropped for the load and re-created after."""

    def __init__(self, tables: list[BulkTable], *, drop_constraints: bool):
        super().__init__(tables)
        self.drop_constraints = drop_constraints
        self.describe = "COPY" + (", constraints re-created after" if drop_constraints else "")
        self.raw = None
        # A flush hands over a chunk as one COPY per table, which the writer sends one
        # after another. Room for two chunks' COPYs, so that the generator makes the next
        # chunk while the server takes the whole of this one: with room for three (one
        # fifth of a chunk), the generator waited at every flush for all but the last
        # three and the server then waited for the next chunk, each busy about 60% of
        # the time (1,000,000 hands: 120 s, now 96 s; BENCHMARKS.md, 26 November).
        self.queue: queue.Queue = queue.Queue(maxsize=2 * len(tables))
        self.error: BaseException | None = None
        self.thread: threading.Thread | None = None
        self.restore: list[str] = []
        self.formats = {t.model: self._format(t) for t in tables}

    @staticmethod
    def _format(table: BulkTable) -> tuple[list, str]:
        """(the columns to convert, a %-template for the line). Plain integers go into
        the template as they are: most values are ids, and a million hands' worth of
        function calls for them would cost more than anything else in the line."""
        given = table.columns[: len(table.given)]
        convert = [
            (i, _COPY_FORMAT[_kind(f)]) for i, f in enumerate(given) if _kind(f) != "int" or f.null
        ]
        rest = "".join(
            "\t" + ("\\N" if v is None else _COPY_FORMAT[_kind(f)](v))
            for f, v in zip(table.columns[len(given) :], table.defaults, strict=True)
        )
        return convert, "\t".join(["%s"] * len(given)) + rest.replace("%", "%%")

    def begin(self) -> None:
        with connection.cursor() as cursor:
            # Deferred checks of rows written earlier in this transaction would forbid
            # altering their tables: run them now.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            names = [m._meta.db_table for m in self.order]
            if self.drop_constraints:
                self._drop(cursor, names)
            else:
                cursor.execute(f"LOCK TABLE {', '.join(names)} IN SHARE ROW EXCLUSIVE MODE")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        super().begin()
        self.raw = connection.connection
        self.thread = threading.Thread(target=self._writer, name="season-copy", daemon=True)
        self.thread.start()

    def _drop(self, cursor, names: list[str]) -> None:
        cursor.execute(
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) "
            "FROM pg_constraint WHERE contype = 'f' AND conrelid = ANY(%s::regclass[])",
            [names],
        )
        foreign_keys = cursor.fetchall()
        # Unique and primary-key indexes stay: they are cheap to keep up and catch a
        # duplicate at once.
        cursor.execute(
            "SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid) FROM pg_index i "
            "WHERE indrelid = ANY(%s::regclass[]) AND NOT indisunique "
            "AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)",
            [names],
        )
        indexes = cursor.fetchall()
        for table, name, definition in foreign_keys:
            cursor.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
            self.restore.append(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
        for name, definition in indexes:
            cursor.execute(f"DROP INDEX {name}")
            self.restore.insert(0, definition)  # indexes first: they help the FK checks

    def _writer(self) -> None:
        cursor = self.raw.cursor()
        while True:
            item = self.queue.get()
            if item is None:
                return
            if self.error is not None:
                continue  # drain: the main thread will raise it
            sql, text = item
            try:
                with cursor.copy(sql) as copy:
                    copy.write(text)
            except BaseException as exc:
                self.error = exc

    def _put(self, item) -> None:
        while True:
            if self.error is not None:
                raise self.error
            try:
                self.queue.put(item, timeout=0.5)
                return
            except queue.Full:
                if not self.thread.is_alive():
                    raise RuntimeError("the COPY writer stopped") from self.error

    def _write(self, table: BulkTable, rows: list[tuple]) -> None:
        convert, template = self.formats[table.model]
        lines = []
        append = lines.append
        for row in rows:
            if convert:
                row = list(row)
                for i, f in convert:
                    row[i] = f(row[i])
            append(template % tuple(row))
        columns = ", ".join(f'"{f.column}"' for f in table.columns)
        sql = f'COPY "{table.model._meta.db_table}" ({columns}) FROM STDIN'
        self._put((sql, "\n".join(lines) + "\n"))

    def finish(self) -> None:
        self.flush()
        self._put(None)
        self.thread.join()
        if self.error is not None:
            raise self.error
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute("SET LOCAL maintenance_work_mem = '256MB'")
            for statement in self.restore:
                t0 = time.monotonic()
                cursor.execute(statement)
                logger.debug("season: %.2f s for %s", time.monotonic() - t0, statement)
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
            for model in self.order:
                table = model._meta.db_table
                cursor.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"GREATEST((SELECT MAX(id) FROM {table}), 1))"
                )
