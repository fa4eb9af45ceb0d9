"""A whole club season, generated: members, evenings, tables, rubbers, hands, tournaments.

`season_make` fills the database with a realistic, seeded season for benchmarks and
demonstrations (`manage.py make_season`). Every hand is a raw scoresheet hand checked
by the real rule set (`validate_hand`) and scored by it (`apply`, `summary`, `settle`),
and every row is what `scoring.services` would have written for the same hands: the
hand's canonical data, tricks, points, explanation lines, facts and game won; each
player's `HandScore` (from the service's own `player_scores`); the games, the rubber's
summary, status, winner, value and completion, its seats and its settlement. So the
standings computed over a generated season are right.

The season is written in bulk, never one request per hand: on PostgreSQL by COPY
(psycopg 3), in chunks handed to a writer thread so that the server parses one chunk
while Python scores the next; elsewhere (SQLite, for tests) by `executemany`. On
PostgreSQL the loaded tables' foreign keys and non-unique indexes are dropped for
the load and re-created (and so re-checked) before the one transaction commits, the
way PostgreSQL's manual advises for populating a database: checking a foreign key
row by row at commit costs more than generating the season. The tables are locked
meanwhile, so load a benchmark or demonstration database, not a live one.

Seeded: the same arguments give the same season, row for row, on any database (the
ids follow whatever rows are there already; table tokens are secrets, from `secrets`).
"""

from __future__ import annotations

import abc
import datetime as dt
import json
import logging
import queue
import random
import re
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

from django.db import connection, models, transaction

from club.models import Club, Evening, Member, Table, new_table_token
from scoring.models import (
    SEAT_SUMS,
    Game,
    Hand,
    HandCorrection,
    HandScore,
    Rubber,
    RubberPlayer,
    Settlement,
)
from scoring.rules import BRIDGE, CALL_ACE, EUCHRE, RuleSet

# The service's own functions, so that a generated hand's rows are exactly the rows
# recording it through the API would write.
from scoring.services import player_scores, players_of, tricks_column
from tournaments.metrics import DEFAULT_PRECEDENCE
from tournaments.models import Round, RoundTable, Tournament, TournamentPlayer

logger = logging.getLogger(__name__)

SIDES = ("NS", "EW")

#: Share of the season's evenings played under each rule set: mostly Euchre.
EVENING_MIX = ((EUCHRE, 0.78), (BRIDGE, 0.12), (CALL_ACE, 0.10))
#: Weight of an evening's hands by rule set (a Bridge hand takes three Euchre hands' time).
EVENING_WEIGHT = {EUCHRE.key: 1.0, BRIDGE.key: 0.4, CALL_ACE.key: 1.0}
#: Hands one table plays in an evening, on average.
TABLE_HANDS = {EUCHRE.key: 100, BRIDGE.key: 36, CALL_ACE.key: 90}
#: Minutes a hand takes at the table, on average.
HAND_MINUTES = {EUCHRE.key: 2.5, BRIDGE.key: 6.5, CALL_ACE.key: 2.8}
STAKES = {EUCHRE.key: Decimal("0.25"), BRIDGE.key: Decimal("0.01"), CALL_ACE.key: Decimal("0.05")}
#: On a Euchre evening, the chance that one table sits down to Call-Ace instead.
CALL_ACE_TABLE = 0.15
#: A hand is corrected by the players (law 5) or later by the secretary (ruling E9).
FREE_CORRECTION = 0.003
REFEREE_CORRECTION = 0.001
#: Progressive tournaments: one per this many evenings (at least one when possible).
PROGRESSIVE_EVERY = 60
PROGRESSIVE_ROUNDS = 4
PROGRESSIVE_TABLES = 6
FIRST_EVENING = dt.date(2020, 1, 8)  # a Wednesday; the club meets weekly
#: Hands buffered before a chunk is written.
CHUNK_HANDS = 20_000

# Rosters read better as prose than as a column of quoted names.
FIRST_NAMES = (  # noqa: SIM905
    "Abigail Ada Agnes Albert Alice Amos Ann Archibald Arthur Beatrice Bertha Caleb "
    "Carrie Charles Clara Cora Cyrus Daniel Dora Edith Edmund Edna Eliza Elmer Emma "
    "Ernest Esther Ethel Eugene Fanny Flora Florence Frank George Grace Harriet Harvey "
    "Hattie Helen Henry Herbert Horace Ida Isaac Jacob James Jane Jennie John Josephine "
    "Julia Laura Lillian Louisa Lucy Mabel Margaret Martha Mary Matilda Maud Minnie "
    "Nathan Nellie Oliver Oscar Pearl Phoebe Ralph Rose Ruth Samuel Sarah Silas Stella "
    "Susan Theodore Thomas Walter Warren Wilbur Willis"
).split()
SURNAMES = (  # noqa: SIM905
    "Abbott Adams Alden Appleton Bacon Bancroft Barrett Bigelow Bowditch Bradford "
    "Brewster Brooks Cabot Chandler Coffin Coolidge Crowninshield Cushing Dana Davenport "
    "Dexter Eliot Endicott Everett Fairbanks Forbes Gardner Gray Hale Hancock Higginson "
    "Holmes Hooper Howe Hunnewell Jackson Jeffries Lawrence Lee Lodge Lowell Lyman Mason "
    "Minot Morse Otis Paine Parkman Peabody Perkins Phillips Pickering Prescott Putnam "
    "Quincy Revere Rice Russell Saltonstall Sargent Sears Sewall Shaw Shattuck Thayer "
    "Thorndike Ticknor Wadsworth Ware Warren Weld Wendell Wheelwright Whitney "
    "Wigglesworth Winslow Winthrop"
).split()


@dataclass
class SeasonReport:
    """What `season_make` wrote, and how long each part took (seconds)."""

    club: str
    seed: int
    members: int = 0
    evenings: int = 0
    tables: int = 0
    rubbers: int = 0
    hands: int = 0
    hand_scores: int = 0
    corrections: int = 0
    tournaments: list[dict] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    bulk: str = ""


# --- raw hands, as a table's phone would send them --------------------------------------


def euchre_hand(rng: random.Random) -> dict:
    """A raw Euchre hand (docs/scoresheet.md): lone hands, marches, euchres, the odd revoke."""
    makers = SIDES[rng.random() < 0.5]
    alone = rng.random() < 0.08
    data: dict[str, Any] = {
        "makers": makers,
        "alone": alone,
        "tricks": rng.choice((0, 1, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5)),
    }
    r = rng.random()
    if r < 0.02:
        data["revokes"] = [SIDES[rng.random() < 0.5]]
    elif r < 0.023:
        data["law90"] = SIDES[rng.random() < 0.5]
    if alone:
        r = rng.random()
        if r < 0.01:
            data["law102"] = True
        elif r < 0.02:
            data["law50"] = True
    return data


_TRUMPS = ("S", "C", "D", "H", "NT")


def bridge_hand(rng: random.Random) -> dict:
    """A raw Bridge hand: declarer's tricks around seven and a half, honours always
    consistent with the trump, rare doubles, chicanes and revokes."""
    trump = rng.choices(_TRUMPS, weights=(22, 20, 20, 20, 18))[0]
    declarer = rng.randrange(2)
    taken = min(13, max(0, round(rng.gauss(7.6, 1.9))))
    ns = taken if declarer == 0 else 13 - taken
    data: dict[str, Any] = {
        "declarer": SIDES[declarer],
        "trump": trump,
        "doubles": rng.choices((0, 1, 2), weights=(85, 12, 3))[0],
        "tricks": {"NS": ns, "EW": 13 - ns},
        "honours": None,
    }
    held = rng.choice((0, 3, 3, 4) if trump == "NT" else (3, 3, 3, 4, 4, 5))
    if held:
        side = rng.randrange(2)
        data["honours"] = {
            "side": SIDES[side],
            "held": held,
            "in_one_hand": rng.randint((held + 1) // 2, held),
        }
        if trump != "NT" and rng.random() < 0.02:
            # A void on the side without the honours never contradicts them (ruling B4).
            data["chicane"] = {SIDES[1 - side]: 1, SIDES[side]: 0}
    if rng.random() < 0.01:
        data["revokes"] = {SIDES[rng.randrange(2)]: 1}
    return data


def call_ace_deal(rng: random.Random, names: list[str]) -> dict:
    """A raw Call-Ace deal for the named players: partners found or not, lone hands, the
    rare void deal, revoke (the hands abandoned, no tricks counted) and player who scores
    nothing (ruling C4)."""
    if rng.random() < 0.01:
        return {"void": True, "maker": None}
    maker = rng.choice(names)
    alone = rng.random() < 0.12
    partner = None
    if not alone and rng.random() < 0.9:
        partner = rng.choice([n for n in names if n != maker])
    data: dict[str, Any] = {"maker": maker, "partner": partner, "alone": alone}
    r = rng.random()
    if r < 0.01:
        data["revoke"] = "makers"
    elif r < 0.02:
        data["revoke"] = "adversaries"
    else:
        data["tricks"] = rng.choice((0, 1, 2, 3, 3, 3, 4, 4, 5, 5))
        if partner is not None and rng.random() < 0.01:
            data["no_score"] = [partner]
    return data


def mistaken(rules: RuleSet, data: dict, rng: random.Random) -> dict | None:
    """The hand as first (wrongly) recorded before a correction: a different trick count.
    None when the hand has no trick count to get wrong."""
    if rules is BRIDGE:
        ns = data["tricks"]["NS"]
        ns = ns + 1 if ns < 13 and (ns == 0 or rng.random() < 0.5) else ns - 1
        return {**data, "tricks": {"NS": ns, "EW": 13 - ns}}
    if data.get("tricks") is None:
        return None
    return {**data, "tricks": rng.choice([t for t in range(6) if t != data["tricks"]])}


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
class _Table:
    """A model's columns: those the generator gives, then those left to their defaults."""

    model: type[models.Model]
    given: tuple[str, ...]
    columns: list[models.Field]
    defaults: list[Any]  # values of the columns after `given`

    @classmethod
    def of(cls, model: type[models.Model], given: Iterable[str]) -> _Table:
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
                    "give it a default or teach tournaments/season.py about it"
                )
        return cls(model, given, [by_attname[n] for n in given] + rest, defaults)


_COPY_SPECIAL = re.compile(r"[\\\t\n\r]")
_COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})
_json = json.JSONEncoder(separators=(",", ":")).encode


def _copy_text(value: str) -> str:
    return value.translate(_COPY_ESCAPES) if _COPY_SPECIAL.search(value) else value


class JSONText(str):
    """A value already encoded as JSON: written as it is rather than encoded again (the
    generator encodes a hand's data or points once for all the hands that share them)."""


def _copy_json(value: Any) -> str:
    text = value if type(value) is JSONText else _json(value)
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


class _Sink(abc.ABC):
    """Buffers rows per table and writes them a chunk at a time, in the given order."""

    def __init__(self, tables: list[_Table]):
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
    def _write(self, table: _Table, rows: list[tuple]) -> None:
        """Write one chunk of rows into the table (COPY, or executemany elsewhere)."""


class _InsertSink(_Sink):
    """Any database Django supports: one `executemany` per table and chunk."""

    describe = "executemany"

    def _write(self, table: _Table, rows: list[tuple]) -> None:
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


class _CopySink(_Sink):
    """PostgreSQL: COPY ... FROM STDIN (psycopg 3) from a writer thread, so the server
    parses one chunk while the generator makes the next; optionally with the tables'
    foreign keys and non-unique indexes dropped for the load and re-created after."""

    def __init__(self, tables: list[_Table], *, drop_constraints: bool):
        super().__init__(tables)
        self.drop_constraints = drop_constraints
        self.describe = "COPY" + (", constraints re-created after" if drop_constraints else "")
        self.raw = None
        self.queue: queue.Queue = queue.Queue(maxsize=3)
        self.error: BaseException | None = None
        self.thread: threading.Thread | None = None
        self.restore: list[str] = []
        self.formats = {t.model: self._format(t) for t in tables}

    @staticmethod
    def _format(table: _Table) -> tuple[list, str]:
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

    def _write(self, table: _Table, rows: list[tuple]) -> None:
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


# --- the season ----------------------------------------------------------------------------


@dataclass
class _EveningPlan:
    id: int
    date: dt.date
    rules: RuleSet
    stake: Decimal
    hands: int  # planned; the last table of the season makes the total exact
    tables: int
    is_last: bool
    progressive: int | None = None  # the progressive tournament played on it


def _utc(day: dt.date, seconds: float) -> dt.datetime:
    """`seconds` after 19:30 UTC on the day (the club's evenings start at half past seven)."""
    return dt.datetime.combine(day, dt.time(19, 30), tzinfo=dt.UTC) + dt.timedelta(
        seconds=round(seconds)
    )


class _Season:
    """Plays a season through the rule sets and hands its rows to a sink."""

    def __init__(
        self,
        *,
        sink: _Sink,
        club: Club,
        players: int,
        evenings: int,
        hands: int,
        seed: int,
        lines: bool,
        report: SeasonReport,
    ):
        self.sink = sink
        self.club = club
        self.rng = random.Random(seed)
        self.players = players
        self.evening_count = evenings
        self.hands_wanted = hands
        self.lines = lines
        self.report = report
        self.produced = 0
        self.planned = 0  # hands planned for the tables played so far
        self.buffered = 0
        self.chunk = CHUNK_HANDS if isinstance(sink, _CopySink) else 2_000
        self.started = time.monotonic()
        self.next_progress = 100_000
        self.hand_json: dict[Any, tuple[dict, JSONText, int]] = {}
        self.points_json: dict[tuple, JSONText] = {}

    # members, evenings, tournaments

    def members(self) -> None:
        """The roster: names unique in the club, a few guests, ordered by how often
        they come (regulars first, after a seeded shuffle)."""
        rng = self.rng
        names = [f"{first} {last}" for last in SURNAMES for first in FIRST_NAMES]
        rng.shuffle(names)
        roster = []
        for i in range(self.players):
            base = names[i % len(names)]
            roster.append(base if i < len(names) else f"{base} {i // len(names) + 1}")
        joined = _utc(FIRST_EVENING - dt.timedelta(days=30), 0)
        self.member_ids: dict[str, int] = {}
        for name in roster:
            member_id = self.sink.new_id(Member)
            self.member_ids[name] = member_id
            is_guest = rng.random() < 0.05
            self.sink.add(Member, (member_id, self.club.pk, name, is_guest, joined))
        self.roster = roster
        # Popularity: a regular comes most weeks, the tail now and then.
        self.weights = [1.0 / (1.0 + i / 40.0) for i in range(len(roster))]
        self.report.members = len(roster)

    def plan(self) -> list[_EveningPlan]:
        """The evenings, weekly: each one's rule set, stake, planned hands and tables."""
        rng = self.rng
        keys = [rules for rules, _ in EVENING_MIX]
        shares = [share for _, share in EVENING_MIX]
        chosen = [rng.choices(keys, weights=shares)[0] for _ in range(self.evening_count)]
        chosen[0] = EUCHRE
        weights = [EVENING_WEIGHT[r.key] * rng.uniform(0.85, 1.15) for r in chosen]
        total = sum(weights)
        plans, cumulative, planned = [], 0.0, 0
        for i, (rules, weight) in enumerate(zip(chosen, weights, strict=True)):
            cumulative += weight
            hands = round(self.hands_wanted * cumulative / total) - planned
            planned += hands
            tables = max(1, round(hands / TABLE_HANDS[rules.key]))
            tables = min(tables, self.players // (7 if rules is CALL_ACE else 4))
            plans.append(
                _EveningPlan(
                    id=self.sink.new_id(Evening),
                    date=FIRST_EVENING + dt.timedelta(weeks=i),
                    rules=rules,
                    stake=STAKES[rules.key],
                    hands=hands,
                    tables=max(1, tables),
                    is_last=i == self.evening_count - 1,
                )
            )
        for plan in plans:
            status = Evening.Status.OPEN if plan.is_last else Evening.Status.CLOSED
            self.sink.add(
                Evening,
                (
                    plan.id,
                    self.club.pk,
                    "",
                    plan.date,
                    plan.rules.key,
                    {},
                    plan.stake,
                    status,
                    _utc(plan.date, -3600),
                ),
            )
        self.report.evenings = len(plans)
        return plans

    def tournaments(self, plans: list[_EveningPlan]) -> None:
        """The season's ladder over every evening, a ladder for each year, and the
        progressive tournaments of a few Euchre evenings."""
        self.tournament_list: list[tuple[int, str]] = []
        self._tournament("Season ladder", "season", "ladder", "", plans, plans[0].date)
        years = sorted({p.date.year for p in plans})
        for year in years:
            evenings = [p for p in plans if p.date.year == year]
            self._tournament(
                f"Ladder {year}", f"ladder-{year}", "ladder", "", evenings, evenings[0].date
            )
        candidates = [p for p in plans[:-1] if p.rules is EUCHRE and p.tables >= 2]
        count = min(len(candidates), max(1, len(plans) // PROGRESSIVE_EVERY))
        for k in range(count):
            plan = candidates[(2 * k + 1) * len(candidates) // (2 * count)]
            plan.progressive = self._tournament(
                f"Progressive Euchre, {plan.date:%d %B %Y}",
                f"progressive-{plan.date:%Y-%m-%d}",
                "progressive",
                EUCHRE.key,
                [],
                plan.date,
            )

    def _tournament(self, name, slug, kind, ruleset, evenings, day) -> int:
        tournament_id = self.sink.new_id(Tournament)
        progressive = kind == "progressive"
        precedence = (
            ["rubbers_won", "points", "head_to_head"] if progressive else list(DEFAULT_PRECEDENCE)
        )
        self.sink.add(
            Tournament,
            (
                tournament_id,
                self.club.pk,
                name,
                slug,
                kind,
                ruleset,
                True,
                precedence,
                "rotation" if progressive else "",  # a key of tournaments.movements
                PROGRESSIVE_ROUNDS if progressive else None,
                None,
                None,
                0,
                _utc(day, -86400 * 7),
            ),
        )
        through = Tournament.evenings.through
        for plan in evenings:
            self.sink.add(through, (self.sink.new_id(through), tournament_id, plan.id))
        self.tournament_list.append((tournament_id, slug))
        return tournament_id

    # evenings and tables

    def play(self, plans: list[_EveningPlan]) -> None:
        for plan in plans:
            self.evening(plan)
        self.report.hands = self.produced

    def _attendance(self, seats: int) -> list[str]:
        """Who comes tonight: weighted by popularity, without repeats (Efraimidis-Spirakis)."""
        rng = self.rng
        keys = [(rng.random() ** (1.0 / w), i) for i, w in enumerate(self.weights)]
        keys.sort(reverse=True)
        return [self.roster[i] for _, i in keys[:seats]]

    def evening(self, plan: _EveningPlan) -> None:
        rng = self.rng
        kinds = []
        for _ in range(plan.tables):
            if plan.rules is EUCHRE and rng.random() < CALL_ACE_TABLE:
                kinds.append((CALL_ACE, rng.randint(4, 7)))
            else:
                kinds.append((plan.rules, rng.randint(4, 7) if plan.rules is CALL_ACE else 4))
        while sum(n for _, n in kinds) > self.players:
            kinds.pop()
        people = self._attendance(sum(n for _, n in kinds))
        rng.shuffle(people)
        tables = []
        for number, (rules, n) in enumerate(kinds, 1):
            table_id = self.sink.new_id(Table)
            self.sink.add(
                Table,
                (
                    table_id,
                    self.club.pk,
                    plan.id,
                    number,
                    new_table_token(),
                    _utc(plan.date, -1800),
                    _utc(plan.date, -1800),  # the link, issued with its table
                ),
            )
            tables.append((table_id, rules, people[:n], rng.uniform(0, 900)))
            people = people[n:]
            self.report.tables += 1
        budgets = self._split(plan.hands, len(tables))
        first = 0
        if plan.progressive is not None:
            first = self.progressive(plan, tables[:PROGRESSIVE_TABLES])
            self.planned += sum(budgets[:first])
        for i in range(first, len(tables)):
            table_id, rules, seated, clock = tables[i]
            self.planned += budgets[i]
            final = plan.is_last and i == len(tables) - 1
            self.table(plan, table_id, rules, seated, clock, final=final)

    def _split(self, hands: int, tables: int) -> list[int]:
        weights = [self.rng.uniform(0.8, 1.2) for _ in range(tables)]
        total, out, cumulative, given = sum(weights), [], 0.0, 0
        for w in weights:
            cumulative += w
            share = round(hands * cumulative / total) - given
            given += share
            out.append(share)
        return out

    def table(
        self,
        plan: _EveningPlan,
        table_id: int,
        rules: RuleSet,
        seated: list[str],
        clock: float,
        *,
        final: bool,
    ) -> None:
        """One table's evening: rubbers (or one Call-Ace sitting) until its share of the
        season's hands is played. The season's very last table stops at the exact total,
        its rubber still in progress (the open evening is still being played)."""
        rng = self.rng
        if rules is CALL_ACE:
            deals = max(8, self.planned - self.produced)
            if final:
                deals = self.hands_wanted - self.produced
            if deals > 0:
                self.rubber(
                    plan, table_id, rules, list(seated), clock, deals=deals, close=not final
                )
            return
        while True:
            left = (self.hands_wanted if final else self.planned) - self.produced
            if left <= 0:
                return
            order = list(seated)
            rng.shuffle(order)  # cutting for partners (ruling T4)
            players = {"NS": order[:2], "EW": order[2:]}
            _, clock = self.rubber(
                plan, table_id, rules, players, clock, stop_after=left if final else None
            )
            clock += 180

    def progressive(self, plan: _EveningPlan, tables: list) -> int:
        """A progressive tournament on the evening's first tables: every round each table
        plays a rubber, and the entrants are seated afresh (the movement's rotation)."""
        rng = self.rng
        tournament_id = plan.progressive
        entrants = [name for _, _, seated, _ in tables for name in seated]
        for name in sorted(entrants):
            self.sink.add(
                TournamentPlayer,
                (self.sink.new_id(TournamentPlayer), tournament_id, self.member_ids[name], 1, None),
            )
        clock = 0.0
        for number in range(1, PROGRESSIVE_ROUNDS + 1):
            order = list(entrants)
            rng.shuffle(order)
            # Seated by a seeded shuffle, stored in the movements' seating format
            # (RoundSeating.to_dict): North-South against East-West at each table.
            seats = [
                dict(zip("NESW", order[4 * t : 4 * t + 4], strict=True)) for t in range(len(tables))
            ]
            seating = {
                "round_number": number,
                "tables": [{"number": t + 1, "seats": s} for t, s in enumerate(seats)],
                "byes": [],
                "cuts": [],
                "relaxations": [],
            }
            round_id = self.sink.new_id(Round)
            self.sink.add(Round, (round_id, tournament_id, number, seating, _utc(plan.date, clock)))
            ends = []
            for t, (table_id, _, _, _) in enumerate(tables):
                players = {
                    "NS": [seats[t]["N"], seats[t]["S"]],
                    "EW": [seats[t]["E"], seats[t]["W"]],
                }
                rubber_id, end = self.rubber(plan, table_id, EUCHRE, players, clock)
                ends.append(end)
                self.sink.add(
                    RoundTable, (self.sink.new_id(RoundTable), round_id, t + 1, rubber_id)
                )
            clock = max(ends) + 300
        return len(tables)

    # rubbers and hands

    def rubber(
        self,
        plan: _EveningPlan,
        table_id: int,
        rules: RuleSet,
        players: Any,
        clock: float,
        *,
        deals: int | None = None,
        close: bool = True,
        stop_after: int | None = None,
    ) -> tuple[int, float]:
        """Play one rubber (Call-Ace: a sitting of `deals` deals) hand by hand through the
        rule set, and write it as the scoring service would: (its id, the table's clock)."""
        rng = self.rng
        sink = self.sink
        rubber_id = sink.new_id(Rubber)
        options = rules.validate_options(None)
        state = rules.start(options, players)
        seats = players_of(rules, players)
        members = self.member_ids
        names = list(players) if rules is CALL_ACE else None
        holder = SimpleNamespace(players=players)
        started = clock
        evening_start = _utc(plan.date, 0)
        minutes = HAND_MINUTES[rules.key] * 60
        flat_points = rules is not BRIDGE  # {side or name: int}: a tuple of items is a key
        number = 0
        # Each seat's roll-up (scoring.rollup), summed as the hands are made.
        tally = {name: [0, 0, 0, 0, 0, 0] for name, _ in seats}
        while True:
            if rules is CALL_ACE:
                if number == deals:
                    break
            elif rules.is_complete(state):
                break
            if stop_after is not None and number == stop_after:
                break
            if rules is EUCHRE:
                raw = euchre_hand(rng)
            elif rules is BRIDGE:
                raw = bridge_hand(rng)
            else:
                raw = call_ace_deal(rng, names)
            number += 1
            clock += minutes * rng.uniform(0.6, 1.5)
            hand = rules.validate_hand(state, raw, field_prefix="hand")
            before = state
            state, result = rules.apply(state, hand)
            hand_id = sink.new_id(Hand)
            canonical, data_json, tricks = self._encoded_hand(rules, hand)
            points = result.points
            if flat_points:
                key = (rules.key, *points.items())
                points_json = self.points_json.get(key)
                if points_json is None:
                    points_json = self.points_json[key] = JSONText(_json(points))
            else:
                points_json = points
            at = evening_start + dt.timedelta(seconds=round(clock))
            corrected = 0
            r = rng.random()
            if r < FREE_CORRECTION + REFEREE_CORRECTION:
                wrong = mistaken(rules, raw, rng)
                if wrong is not None:
                    corrected = 1
                    self._correction(
                        rules, before, wrong, canonical, hand_id, at, free=r < FREE_CORRECTION
                    )
            sink.add(
                Hand,
                (
                    hand_id,
                    rubber_id,
                    number,
                    data_json,
                    tricks,
                    points_json,
                    [str(line) for line in result.lines] if self.lines else [],
                    result.facts,
                    result.game_won or "",
                    None,
                    True,
                    at,
                    corrected,
                ),
            )
            for name, score in player_scores(rules, holder, result).items():
                sink.add(
                    HandScore,
                    (
                        sink.new_id(HandScore),
                        hand_id,
                        rubber_id,
                        members[name],
                        score["side"],
                        score["points"],
                        score["march"],
                        score["lone_made"],
                        score["euchred"],
                        score["honours"],
                    ),
                )
                sums = tally[name]
                sums[0] += score["points"]
                sums[1] += score["march"]
                sums[2] += score["lone_made"]
                sums[3] += score["euchred"]
                sums[4] += score["honours"]
                sums[5] += 1
                self.report.hand_scores += 1
            self.produced += 1
            self.buffered += 1
        if rules is CALL_ACE and close:
            state = rules.close(state)
        summary, ledger = self._finish_rubber(
            plan, table_id, rules, rubber_id, players, options, state, number, started, clock
        )
        self._seats(rubber_id, plan.id, seats, tally, summary, ledger)
        if self.buffered >= self.chunk:
            sink.flush()
            self.buffered = 0
            if self.produced >= self.next_progress:
                rate = self.produced / (time.monotonic() - self.started)
                logger.info("season: %s hands (%.0f a second)", f"{self.produced:,}", rate)
                self.next_progress += 100_000
        return rubber_id, clock

    def _encoded_hand(self, rules: RuleSet, hand) -> tuple[dict, JSONText, int]:
        """A checked hand's canonical data, as JSON, and its trick count: worked out once
        for every hand recorded alike (most Euchre hands are one of a few hundred)."""
        known = self.hand_json.get((rules.key, hand))
        if known is None:
            if len(self.hand_json) > 100_000:
                self.hand_json.clear()
            canonical = hand.as_dict()
            known = (canonical, JSONText(_json(canonical)), tricks_column(rules, canonical))
            self.hand_json[rules.key, hand] = known
        return known

    def _correction(
        self,
        rules,
        before,
        wrong: dict,
        canonical: dict,
        hand_id: int,
        at: dt.datetime,
        *,
        free: bool,
    ) -> None:
        """The hand was first recorded wrongly and corrected: by the players before the
        next hand (law 5), or later by the secretary as referee (ruling E9)."""
        first = rules.validate_hand(before, wrong, field_prefix="hand")
        _, first_result = rules.apply(before, first)
        law = rules.correction_law or "ruling E9"
        if free:
            kind, reason, when = HandCorrection.Kind.FREE, "", at + dt.timedelta(seconds=40)
        else:
            kind = HandCorrection.Kind.REFEREE
            reason = "The table's sheet showed a different count of tricks."
            when = at + dt.timedelta(minutes=25)
        self.sink.add(
            HandCorrection,
            (
                self.sink.new_id(HandCorrection),
                hand_id,
                first.as_dict(),
                first_result.points,
                canonical,
                kind,
                reason,
                law,
                None,
                free,
                when,
            ),
        )
        self.report.corrections += 1

    def _seats(self, rubber_id, evening_id, seats, tally, summary, ledger) -> None:
        """The rubber's seats with their roll-up, as `scoring.rollup` computes it: the
        hand scores' sums, the games won by the seat's side, the settlement, and the
        rubber's evening, end and value to the seat. `ledger` is None while unfinished."""
        games = [game["winner"] for game in summary.get("games", [])]
        finished = ledger is not None
        money = ledger or {}
        winner, value = summary["rubber"].get("winner") or "", summary["rubber"].get("value") or 0
        for position, (name, side) in enumerate(seats):
            won = finished and side != "" and side == winner
            points = (value if won else -value) if finished and side else 0
            self.sink.add(
                RubberPlayer,
                (
                    self.sink.new_id(RubberPlayer),
                    rubber_id,
                    self.member_ids[name],
                    side,
                    position,
                    *tally[name],
                    games.count(side),
                    money.get(name, 0),
                    evening_id,
                    finished,
                    won,
                    points,
                ),
            )

    def _finish_rubber(
        self, plan, table_id, rules, rubber_id, players, options, state, hand_count, started, clock
    ) -> tuple[dict, dict | None]:
        """The rubber's row, its games and its money, as `_write_rubber` writes them:
        (its summary, its settlement or None while it is unfinished)."""
        sink = self.sink
        summary = rules.summary(state)
        complete = rules.is_complete(state)
        stake = plan.stake
        sink.add(
            Rubber,
            (
                rubber_id,
                self.club.pk,
                plan.id,
                table_id,
                rules.key,
                options,
                players,
                stake,
                Rubber.Status.COMPLETE if complete else Rubber.Status.IN_PROGRESS,
                summary["rubber"].get("winner") or "",
                summary["rubber"].get("value"),
                summary,
                hand_count,
                None,
                _utc(plan.date, started),
                _utc(plan.date, clock) if complete else None,
            ),
        )
        for game in summary.get("games", []):
            sink.add(
                Game,
                (
                    sink.new_id(Game),
                    rubber_id,
                    game["number"],
                    game["winner"],
                    game.get("value"),
                    game.get("lap") or 0,
                    game.get("scores") or {},
                    game,
                ),
            )
        ledger = rules.settle(state, stake, players) if complete else None
        for name, amount in (ledger or {}).items():
            sink.add(
                Settlement, (sink.new_id(Settlement), rubber_id, self.member_ids[name], amount)
            )
        self.report.rubbers += 1
        return summary, ledger


# The seat's roll-up, in the order `_Season._seats` gives it (scoring.rollup).
SEAT_COLUMNS = (*SEAT_SUMS, "evening_id", "finished", "won", "rubber_points")


def _tables() -> list[_Table]:
    """What the generator writes, table by table, in the order a chunk is written."""
    return [
        _Table.of(Member, ("id", "club_id", "name", "is_guest", "created_at")),
        _Table.of(
            Evening,
            (
                "id",
                "club_id",
                "title",
                "date",
                "ruleset",
                "options",
                "stake",
                "status",
                "created_at",
            ),
        ),
        _Table.of(
            Table,
            ("id", "club_id", "evening_id", "number", "token", "created_at", "link_issued_at"),
        ),
        _Table.of(
            Tournament,
            (
                "id",
                "club_id",
                "name",
                "slug",
                "kind",
                "ruleset",
                "is_public",
                "precedence",
                "movement",
                "rounds_planned",
                "deals_per_round",
                "standings_round",
                "standings_version",
                "created_at",
            ),
        ),
        _Table.of(Tournament.evenings.through, ("id", "tournament_id", "evening_id")),
        _Table.of(
            TournamentPlayer, ("id", "tournament_id", "member_id", "joined_round", "left_round")
        ),
        _Table.of(
            Rubber,
            (
                "id",
                "club_id",
                "evening_id",
                "table_id",
                "ruleset",
                "options",
                "players",
                "stake",
                "status",
                "winner",
                "value",
                "summary",
                "hand_count",
                "created_by_id",
                "created_at",
                "completed_at",
            ),
        ),
        _Table.of(Round, ("id", "tournament_id", "number", "seating", "created_at")),
        _Table.of(RoundTable, ("id", "round_id", "number", "rubber_id")),
        _Table.of(
            RubberPlayer, ("id", "rubber_id", "member_id", "side", "position", *SEAT_COLUMNS)
        ),
        _Table.of(
            Hand,
            (
                "id",
                "rubber_id",
                "number",
                "data",
                "tricks",
                "points",
                "lines",
                "facts",
                "game_won",
                "recorded_by_id",
                "recorded_at_table",
                "recorded_at",
                "correction_count",
            ),
        ),
        _Table.of(
            HandScore,
            (
                "id",
                "hand_id",
                "rubber_id",
                "member_id",
                "side",
                "points",
                "march",
                "lone_made",
                "euchred",
                "honours",
            ),
        ),
        _Table.of(
            Game, ("id", "rubber_id", "number", "winner", "value", "lap", "scores", "detail")
        ),
        _Table.of(Settlement, ("id", "rubber_id", "member_id", "amount")),
        _Table.of(
            HandCorrection,
            (
                "id",
                "hand_id",
                "previous_data",
                "previous_points",
                "data",
                "kind",
                "reason",
                "law",
                "by_user_id",
                "at_table",
                "at",
            ),
        ),
    ]


def season_make(
    *,
    club_slug: str,
    players: int,
    evenings: int,
    hands: int,
    seed: int = 1888,
    lines: bool = True,
    drop_constraints: bool = True,
    recalculate: bool = True,
) -> SeasonReport:
    """Generate a season for a new club (or an empty one) and publish its standings.

    `lines=False` stores an empty explanation for each hand, to save the time and space of
    building them (about a quarter of the generator's time); a page would show no
    explanation for those hands. `drop_constraints` (PostgreSQL only) drops the loaded
    tables' foreign keys and non-unique indexes for the load and re-creates them before
    commit. Then each tournament's standings are fully recalculated, one by one.
    """
    if players < 8:
        raise ValueError("a season needs at least eight players (two tables)")
    if evenings < 1 or hands < 1:
        raise ValueError("a season needs at least one evening and one hand")
    report = SeasonReport(club=club_slug, seed=seed)
    started = time.monotonic()
    with transaction.atomic():
        club = Club.objects.filter(slug=club_slug).first()
        if club is None:
            club = Club.objects.create(name=club_slug.replace("-", " ").title(), slug=club_slug)
        elif club.members.exists() or club.evenings.exists():
            raise ValueError(f"club {club_slug!r} has members or evenings already")
        tables = _tables()
        if connection.vendor == "postgresql":
            sink: _Sink = _CopySink(tables, drop_constraints=drop_constraints)
        else:
            sink = _InsertSink(tables)
        report.bulk = sink.describe
        sink.begin()
        season = _Season(
            sink=sink,
            club=club,
            players=players,
            evenings=evenings,
            hands=hands,
            seed=seed,
            lines=lines,
            report=report,
        )
        season.members()
        plans = season.plan()
        season.tournaments(plans)
        generated = time.monotonic()
        season.play(plans)
        finishing = time.monotonic()
        sink.finish()
        report.timings["generate and write"] = finishing - generated
        report.timings["finish the load"] = time.monotonic() - finishing
        report.timings["commit"] = -time.monotonic()
    report.timings["commit"] += time.monotonic()
    _analyze(sink, report)
    if recalculate:
        from tournaments.services import standings_full_recalculation

        for tournament_id, slug in season.tournament_list:
            t0 = time.monotonic()
            version = standings_full_recalculation(tournament_id=tournament_id)
            report.tournaments.append(
                {
                    "id": tournament_id,
                    "slug": slug,
                    "players": version.players_recomputed if version else 0,
                    "seconds": round(time.monotonic() - t0, 3),
                }
            )
        report.timings["standings"] = sum(t["seconds"] for t in report.tournaments)
    report.timings["total"] = time.monotonic() - started
    return report


def _analyze(sink: _Sink, report: SeasonReport) -> None:
    """Give the planner statistics for the new rows (and, outside a transaction, vacuum
    so that index-only scans work at once, as they would on a table autovacuum keeps)."""
    if connection.vendor != "postgresql":
        return
    t0 = time.monotonic()
    names = ", ".join(m._meta.db_table for m in sink.order)
    with connection.cursor() as cursor:
        if connection.in_atomic_block:
            cursor.execute(f"ANALYZE {names}")
        else:
            cursor.execute(f"VACUUM (ANALYZE) {names}")
    report.timings["vacuum analyze"] = time.monotonic() - t0
