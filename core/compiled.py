"""Querysets compiled once: a hot read's SQL built by the ORM the first time, then run
again with new values (what SQLAlchemy calls baked queries).

    TABLE_BY_TOKEN = Compiled(
        lambda token: Table.objects.select_related("evening", "club").filter(token=token),
        str,
    )
    table = TABLE_BY_TOKEN.first(token)

On a recorded hand's path, building a queryset and compiling it to SQL cost the ORM
more than PostgreSQL takes to run the statement, prepared (BENCHMARKS.md): a table's
link looked up with its evening and club, 0.9 ms of the 1.8 ms the read took. Here the
queryset is built and compiled once a thread (its compiler holds the thread's database
connection), twice, with two markers for each value: a parameter that differs between
the two is where the value goes. Later calls put their values there and make the model
instances as the ORM's own iterable does (`ModelIterable`: the row's converters, the
`select_related` objects, the annotations), with the converters and the populators
worked out once, with the plan (`_Reader`). The answer is the queryset's own, which
tests/test_compiled.py holds against the ORM for many values.

The values must reach the SQL as they were given (an exact lookup on a column, a
primary key): a value the ORM changes on the way (`iexact`, `contains`) is refused when
the query is first compiled. A list of ids is one value, given to the `any` lookup
(`member_id__any=ids`: `= ANY(%s)`, one array, one statement text however many ids);
on a database without arrays (SQLite, the laptop default) a queryset with a list is
run by the ORM each time. `rows` answers a `values_list` queryset, as its tuples.
Kept for the few reads on every hand's path and every recalculation's; everywhere
else the ORM is used as it is.
"""

import threading
from collections.abc import Callable

from django.db import DatabaseError, connections, router
from django.db.models import ForeignKey, IntegerField, Lookup, Model, QuerySet
from django.db.models.query import ModelIterable, ValuesListIterable, get_related_populators
from django.db.transaction import TransactionManagementError

try:
    from psycopg import _queries as psycopg_queries
except ImportError:  # psycopg2 or no PostgreSQL driver: nothing to tune
    psycopg_queries = None

# psycopg turns a statement's `%s` placeholders into PostgreSQL's `$1, $2, ...` each time
# it is run, and remembers the answer (an LRU of 128 statement texts) only for a text of
# at most 4,096 bytes with at most 50 parameters: the limit keeps out the ORM's one-off
# bulk inserts, whose many values would fill the cache. A recorded hand's `Writes` (its
# row, its players' scores, the rubber's summary) is one short text with 51 parameters
# at Euchre's four seats and more at Call-Ace's seven, so it was converted anew on
# every hand: a tenth of the request's Python instructions (callgrind, BENCHMARKS.md).
# The count's limit is raised for texts still within psycopg's length limit, which is
# kept: a bulk insert of many rows is longer than 4,096 bytes and still not remembered,
# and 128 texts of at most 4,096 bytes and PARAMETERS_REMEMBERED parameters are a few MB.
# The attribute is psycopg's own (psycopg/_queries.py, 3.1 to 3.3); should it go,
# tests/test_compiled.py fails rather than the hand's path quietly slowing down.
PARAMETERS_REMEMBERED = 256
if psycopg_queries is not None and hasattr(psycopg_queries, "MAX_CACHED_STATEMENT_PARAMS"):
    psycopg_queries.MAX_CACHED_STATEMENT_PARAMS = max(
        psycopg_queries.MAX_CACHED_STATEMENT_PARAMS, PARAMETERS_REMEMBERED
    )


@IntegerField.register_lookup
@ForeignKey.register_lookup
class AnyOf(Lookup):
    """`field__any=[...]`: the column equals one of a list's values. On PostgreSQL one
    array parameter (`= ANY(%s::bigint[])`), so the statement's text is the same for any
    number of values (prepared once, compiled once: `Compiled`); elsewhere `IN`."""

    lookup_name = "any"
    prepare_rhs = False

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        values = list(self.rhs)
        if connection.vendor == "postgresql":
            return f"{lhs} = ANY(%s::{self.lhs.output_field.rel_db_type(connection)}[])", [
                *lhs_params,
                values,
            ]
        if not values:
            return "1 = 0", []
        return f"{lhs} IN ({', '.join(['%s'] * len(values))})", [*lhs_params, *values]


def _markers(kinds: tuple[type, ...], base: int) -> list:
    """A value of each kind for the query to be compiled with (within any column's range,
    a small integer's included: the ORM finds no row for a value out of range)."""
    out = []
    for i, kind in enumerate(kinds):
        if kind is int:
            out.append(base + i)
        elif kind is str:
            out.append(f"\x1fcompiled-{base + i}\x1f")
        elif kind is list:  # of ids, for the `any` lookup
            out.append([base + i])
        else:
            raise TypeError(f"Compiled: a value is an int, a str or a list, not {kind.__name__}")
    return out


class Compiled:
    """A queryset built by `build(*values)`, compiled once (see the module's docstring);
    `kinds` are the values' types, int or str."""

    def __init__(self, build: Callable[..., QuerySet], *kinds: type):
        self.build = build
        self.kinds = kinds
        self._plans = threading.local()  # .plan: this thread's compiled query

    def all(self, *values) -> list[Model]:
        """The queryset's objects for these values, as `list(build(*values))` gives."""
        found = self._run(values, ModelIterable)
        if found is None:
            return list(self.build(*values))
        reader, rows = found
        return list(reader.objects(rows))

    def rows(self, *values) -> list[tuple]:
        """A `values_list` queryset's tuples for these values, as `list(build(*values))`."""
        found = self._run(values, ValuesListIterable)
        if found is None:
            return list(self.build(*values))
        reader, rows = found
        return [tuple(row) for row in reader.converted(rows)]

    def _run(self, values: tuple, iterable: type) -> tuple | None:
        """Run the compiled statement: (its reader, the raw rows); None where the ORM
        must run it instead (a list value without arrays)."""
        if len(values) != len(self.kinds):
            raise TypeError(f"Compiled: {len(self.kinds)} values wanted, {len(values)} given")
        plan = getattr(self._plans, "plan", None)
        if plan is None:
            plan = self._compile(iterable)
        if plan is False:  # the ORM runs it
            return None
        using, sql, slots, reader, locks = plan
        connection = connections[using]
        if locks and connection.get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = [values[slot] if type(slot) is _Slot else slot for slot in slots]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return reader, cursor.fetchall()

    def first(self, *values) -> Model | None:
        """The first object (in the queryset's order: build it with its limit), or None."""
        found = self.all(*values)
        return found[0] if found else None

    def _compile(self, iterable: type) -> tuple | bool:
        """Compile the queryset twice, with two sets of markers: a parameter that differs
        between the two is a value's place, one that does not is the query's own."""
        first, second = _markers(self.kinds, 30001), _markers(self.kinds, 31001)
        queryset = self.build(*first)
        if queryset._iterable_class is not iterable:
            raise TypeError(f"Compiled: {iterable.__name__} wanted: {queryset.query}")
        using = queryset.db
        if list in self.kinds and connections[using].vendor != "postgresql":
            self._plans.plan = False
            return False
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        again, params_again = self.build(*second).query.get_compiler(using=using).as_sql()
        slots: list = []
        for mine, other in zip(params, params_again, strict=True):
            if mine == other:
                slots.append(mine)
            elif mine in first and first.index(mine) == second.index(other):
                slots.append(_Slot(first.index(mine)))
            else:
                break
        placed = {int(s) for s in slots if type(s) is _Slot}
        if again != sql or len(slots) != len(params) or placed != set(range(len(first))):
            raise ValueError(f"Compiled: a value does not reach the SQL as given: {sql}")
        reader = _Reader(compiler, using, iterable)
        plan = (using, sql, slots, reader, bool(queryset.query.select_for_update))
        self._plans.plan = plan
        return plan


class _Slot(int):
    """The place of the call's value `int(self)` among the statement's parameters."""


class _Reader:
    """What turns the statement's rows into the queryset's answer, worked out once with
    the plan: the columns' converters (`SQLCompiler.get_converters`, which the ORM
    works out again for every query it runs: about 1 µs a column, 90 µs a recorded
    hand for the rubber's 49 columns and the table link's 27) and, for objects, the
    model's fields and its `select_related` populators, as Django's ModelIterable
    makes them."""

    def __init__(self, compiler, using: str, iterable: type):
        self.compiler, self.using = compiler, using
        fields = [s[0] for s in compiler.select[0 : compiler.col_count]]
        if compiler.has_composite_fields(fields):
            raise TypeError("Compiled: composite fields are not compiled")
        self.converters = compiler.get_converters(fields)
        if iterable is not ModelIterable:
            return
        select, klass_info = compiler.select, compiler.klass_info
        self.annotations = list((compiler.annotation_col_map or {}).items())
        self.model = klass_info["model"]
        select_fields = klass_info["select_fields"]
        self.start, self.end = select_fields[0], select_fields[-1] + 1
        self.init_list = [f[0].target.attname for f in select[self.start : self.end]]
        self.populators = get_related_populators(klass_info, select, using)

    def converted(self, rows: list):
        """The rows with each column converted, as `SQLCompiler.apply_converters` does."""
        if not self.converters:
            return rows
        return self.compiler.apply_converters(rows, self.converters)

    def objects(self, rows: list):
        """Model instances from rows, as Django's ModelIterable makes them."""
        start, end, using = self.start, self.end, self.using
        for row in self.converted(rows):
            obj = self.model.from_db(using, self.init_list, row[start:end])
            for populator in self.populators:
                populator.populate(row, obj)
            for attr_name, col_pos in self.annotations:
                setattr(obj, attr_name, row[col_pos])
            yield obj


# --- writes --------------------------------------------------------------------------------
#
# The rows every hand writes (the hand, its players' scores, the rubber's summary), with
# their statements built once a database vendor and shape rather than by the ORM's
# compilers each time. Like `bulk_create` and `QuerySet.update`, they send no model
# signals: nothing listens for these models' (tests/test_compiled.py holds that).

_statements: dict[tuple, str] = {}


def _columns(model: type[Model], names: list[str] | None = None) -> list:
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    if names is not None:
        fields = [model._meta.get_field(name) for name in names]
    return fields


def insert(objs: list[Model]) -> None:
    """Insert these new objects of one model in one statement and give them their primary
    keys, as `bulk_create` does (each field's `pre_save` first: `auto_now_add`)."""
    if not objs:
        return
    model = type(objs[0])
    connection = connections[router.db_for_write(model)]
    fields = _columns(model)
    key = ("insert", connection.vendor, model, len(objs))
    sql = _statements.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        row = "(" + ", ".join(["%s"] * len(fields)) + ")"
        sql = _statements[key] = (
            f"INSERT INTO {quote(model._meta.db_table)} "
            f"({', '.join(quote(f.column) for f in fields)}) "
            f"VALUES {', '.join([row] * len(objs))} RETURNING {quote(model._meta.pk.column)}"
        )
    params = [p for obj in objs for p in _saved(connection, fields, obj, add=True)]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        keys = cursor.fetchall()
    for obj, (pk,) in zip(objs, keys, strict=True):
        obj.pk = pk
        obj._state.adding = False
        obj._state.db = connection.alias


# In a statement's SELECT list or RETURNING (PostgreSQL): its transaction commits without
# waiting for the disk, as SET LOCAL would say it (the standings' recalculation, the
# Idempotency-Key record's writes; each says why that is safe).
NO_WAIT = "set_config('synchronous_commit', 'off', true)"


def update(
    obj: Model, names: list[str], *, missing_ok: bool = False, wait_for_disk: bool = True
) -> None:
    """Write these fields of a stored object, as `save(update_fields=names)` does (each
    field's `pre_save` first: `auto_now`); its row must exist, unless `missing_ok`.
    `wait_for_disk=False`: on PostgreSQL the statement's own transaction (autocommit)
    commits without waiting for the disk, when it wrote the row (`NO_WAIT`)."""
    model = type(obj)
    connection = connections[router.db_for_write(model)]
    fields = _columns(model, names)
    no_wait = not wait_for_disk and connection.vendor == "postgresql"
    key = ("update", connection.vendor, model, tuple(names), no_wait)
    sql = _statements.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        sql = _statements[key] = (
            f"UPDATE {quote(model._meta.db_table)} SET {_set_clause(connection, fields)} "
            f"WHERE {quote(model._meta.pk.column)} = %s"
            + (f" RETURNING {NO_WAIT}" if no_wait else "")
        )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*_saved(connection, fields, obj, add=False), obj.pk])
        if cursor.rowcount != 1 and not missing_ok:
            raise DatabaseError(f"{model.__name__} {obj.pk}: no row to update")


def _saved(connection, fields: list, obj: Model, *, add: bool) -> list:
    """The object's values of these fields as the database stores them (each field's
    `pre_save` first, as `save` does)."""
    return [f.get_db_prep_save(f.pre_save(obj, add=add), connection) for f in fields]


def _set_clause(connection, fields: list) -> str:
    quote = connection.ops.quote_name
    return ", ".join(f"{quote(f.column)} = %s" for f in fields)


def _values(connection, fields: list, obj: Model, keys: dict[int, str], params: list) -> str:
    """The VALUES row of a new object: its fields as parameters (added to `params`), but
    a key to an object inserted earlier in the statement, which is read from its CTE."""
    values = []
    for f in fields:
        parent = f.get_cached_value(obj, None) if f.is_relation else None
        if parent is not None and parent.pk is None and id(parent) in keys:
            values.append(keys[id(parent)])
        else:
            values.append("%s")
            params += _saved(connection, [f], obj, add=True)
    return "(" + ", ".join(values) + ")"


class Writes:
    """Inserts and updates of the kinds `insert` and `update` make, sent together when
    `send` is called: on PostgreSQL in one statement (each write a data-modifying CTE,
    in the order given), elsewhere one after another. A recorded hand's row, its
    players' scores and its rubber's summary are one round trip, not three.

        writes = Writes()
        writes.insert([hand])
        writes.insert([HandScore(hand=hand, ...), ...])  # the hand's key from its CTE
        writes.update(rubber, ["summary", "hand_count"])
        writes.send()  # then each new object has its primary key

    An object inserted may refer (a foreign key) to one inserted before it in the same
    `Writes`: its key is read from that insert's CTE (the nth row's: keys come from the
    sequence in the order the rows are inserted). The statements of one CTE cannot see
    each other's rows, so nothing queued may need to read another's: a write that reads
    what these wrote (a roll-up of the scores) comes after `send`. Foreign keys are
    checked at the end of the statement (or, deferred, at commit), when all are in.
    """

    def __init__(self):
        self._queued: list[tuple] = []

    def insert(self, objs: list[Model]) -> None:
        if objs:
            self._queued.append(("insert", list(objs)))

    def update(self, obj: Model, names: list[str], *, missing_ok: bool = False) -> None:
        self._queued.append(("update", obj, list(names), missing_ok))

    def send(self) -> None:
        queued, self._queued = self._queued, []
        if not queued:
            return
        models = {type(item[1][0] if item[0] == "insert" else item[1]) for item in queued}
        aliases = {router.db_for_write(model) for model in models}
        connection = connections[aliases.pop()]
        if aliases or connection.vendor != "postgresql" or len(queued) == 1:
            for item in queued:  # one by one, each new object's keys given before the next
                if item[0] == "insert":
                    for obj in item[1]:
                        obj._prepare_related_fields_for_save(operation_name="insert")
                    insert(item[1])
                else:
                    update(item[1], item[2], missing_ok=item[3])
            return
        self._send_together(connection, queued)

    @staticmethod
    def _send_together(connection, queued: list[tuple]) -> None:
        quote = connection.ops.quote_name
        keys: dict[int, str] = {}  # id(an object inserted) -> the SQL of its key
        ctes, params, results = [], [], []
        for i, item in enumerate(queued):
            name = f"w{i}"
            model = type(item[1][0] if item[0] == "insert" else item[1])
            table, pk = quote(model._meta.db_table), quote(model._meta.pk.column)
            if item[0] == "insert":
                fields = _columns(model)
                rows = []
                for n, obj in enumerate(item[1]):
                    rows.append(_values(connection, fields, obj, keys, params))
                    keys[id(obj)] = f"(SELECT {pk} FROM {name} ORDER BY {pk} OFFSET {n} LIMIT 1)"
                columns = ", ".join(quote(f.column) for f in fields)
                ctes.append(
                    f"{name} AS (INSERT INTO {table} ({columns}) "
                    f"VALUES {', '.join(rows)} RETURNING {pk})"
                )
                results.append(f"ARRAY(SELECT {pk} FROM {name} ORDER BY {pk})")
            else:
                _, obj, names, _ = item
                fields = _columns(model, names)
                sets = _set_clause(connection, fields)
                ctes.append(f"{name} AS (UPDATE {table} SET {sets} WHERE {pk} = %s RETURNING 1)")
                params += [*_saved(connection, fields, obj, add=False), obj.pk]
                results.append(f"(SELECT COUNT(*) FROM {name})")
        sql = f"WITH {', '.join(ctes)} SELECT {', '.join(results)}"
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            answers = cursor.fetchone()
        for item, answer in zip(queued, answers, strict=True):
            if item[0] == "insert":
                for obj, key in zip(item[1], answer, strict=True):
                    obj.pk = key
                    obj._state.adding = False
                    obj._state.db = connection.alias
                    # The keys of the objects it refers to (inserted before it).
                    obj._prepare_related_fields_for_save(operation_name="insert")
            elif answer != 1 and not item[3]:
                model = type(item[1])
                raise DatabaseError(f"{model.__name__} {item[1].pk}: no row to update")
