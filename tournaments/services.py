"""Standings: which rubbers count, totals computed in SQL, recalculation and publication.

The flow, for every hand recorded, corrected or removed:

1. In the writing transaction, `standings_note_change` marks the rubber's players
   dirty (`StandingsDirty`, the outbox) in every tournament the rubber counts for.
2. After commit, `standings_schedule` enqueues one task recalculating each of those
   tournaments that has none queued already (a cache key per tournament), so a burst of
   hands causes one or two recalculations, not one each. If the broker is down the
   outbox waits for the periodic sweep (`standings_sweep`).
3. The task (`tournaments.tasks.recalculate_standings`) takes the tournament's
   advisory lock (one recalculation at a time per tournament), recomputes the
   dirty players' totals from their seats' roll-ups (`scoring.rollup`), ranks again in
   SQL the rows their changes move (`ranking.Moved`) and publishes a new
   `StandingsVersion`, in one transaction.
   Idempotent: it recomputes, never adds.
"""

import functools
import logging
import time
from collections import defaultdict

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Count, Q, Sum
from django.db.models.functions import Coalesce

from core import compiled, redisops
from core.compiled import Compiled
from core.quoted import quoted
from scoring.models import SEAT_SUMS, Rubber
from tournaments.counting import counted_rows, counted_seats, tournaments_counting
from tournaments.metrics import (
    COLUMN_METRICS,
    METRICS,
    SeatCount,
    SeatSum,
    default_precedence,
    precedence_of,
)
from tournaments.models import (
    Round,
    RoundTable,
    StandingsDirty,
    StandingsVersion,
    Tournament,
    TournamentTotal,
)
from tournaments.pagecache import announce
from tournaments.ranking import Moved, moved_within, ranked_keys, standings_rank

logger = logging.getLogger(__name__)

KEEP_VERSIONS = 20  # older published versions are pruned ...
PRUNE_EVERY = 10  # ... by every tenth (so at most KEEP_VERSIONS + PRUNE_EVERY are kept)
QUEUED_KEY = "standings:queued:{}"
# A full recalculation queued and not yet started (`standings_request_full`); lapsing
# after FULL_QUEUED_SECONDS, so a task lost on its way holds no later press back for long.
FULL_QUEUED_KEY = "standings:full-queued:{}"
FULL_QUEUED_SECONDS = 60
PROGRESS_KEY = "standings:progress:{}"
TOTAL_FIELDS = [*COLUMN_METRICS, "hands", "rubbers_played"]


_TOURNAMENT = Compiled(lambda pk: Tournament.objects.select_related("club").filter(pk=pk)[:1], int)
_DIRTY = Compiled(
    lambda pk: StandingsDirty.objects.filter(tournament_id=pk).values_list(
        "pk", "member_id", "token"
    ),
    int,
)


# --- totals in SQL --------------------------------------------------------------------------


def compute_totals(tournament: Tournament, member_ids=None) -> dict[int, dict]:
    """Every column metric for each player (or just `member_ids`), from stored rows.

    One aggregate over the players' seats in the counted rubbers, on the seats alone:
    each seat carries what its rubber gave the player (`scoring.rollup`: points,
    marches, lone hands, euchres, honours, hands, games won, stake won) and what the
    rubber was to him (finished, won, its value + or -). Nothing is re-scored, and a
    player's cost is his seats, not his hands.
    """
    if member_ids is None:
        rows = counted_seats(tournament).values_list("member_id").annotate(**_aggregates())
    else:  # an incremental recalculation's: compiled once
        rows = counted_rows(
            "totals",
            tournament,
            lambda seats, ids: (
                seats.filter(member_id__any=ids).values_list("member_id").annotate(**_aggregates())
            ),
            member_ids,
        )
    totals: dict[int, dict] = defaultdict(lambda: dict.fromkeys(TOTAL_FIELDS, 0))
    names = _aggregate_names()
    for member_id, *values in rows:
        totals[member_id].update(zip(names, values, strict=True))
    if member_ids is not None:
        for member_id in member_ids:
            totals[member_id]  # a player whose hands were all removed is back to nothing
    return dict(totals)


def _aggregate(computed: SeatSum | SeatCount):
    """A column metric's aggregate over the player's seats, as its registration says."""
    if isinstance(computed, SeatCount):
        return Count("id", filter=Q(**{computed.flag: True}))
    total = Sum(computed.column)
    return Coalesce(total, 0) if computed.or_zero else total


@functools.cache
def _aggregate_names() -> tuple[str, ...]:
    """The totals' names in `_aggregates`' order (its rows' columns after the member's)."""
    return tuple(_aggregates())


def _aggregates() -> dict:
    """Every total's aggregate: the seat sums (in the seats' order), the rubbers played, and
    each column metric as the registry computes it (`tournaments.metrics`)."""
    aggregates = {key: Sum(key) for key in SEAT_SUMS}
    aggregates["rubbers_played"] = Count("id", filter=Q(finished=True))
    # Counts before the other sums: the query stays the one measured in BENCHMARKS.md.
    metrics = sorted(COLUMN_METRICS, key=lambda key: isinstance(METRICS[key].computed, SeatSum))
    for key in metrics:
        aggregates[key] = _aggregate(METRICS[key].computed)
    return aggregates


def _write_totals(tournament: Tournament, totals: dict[int, dict], *, replace_all: bool) -> None:
    """Store the totals: one upsert (rank and head-to-head stay until `standings_rank`), and a
    player left with nothing (every hand of his removed) leaves the standings."""
    keep = {m: v for m, v in totals.items() if v["hands"] or v["rubbers_played"]}
    if replace_all:
        TournamentTotal.objects.filter(tournament=tournament).delete()
    elif len(keep) < len(totals):
        TournamentTotal.objects.filter(
            tournament=tournament, member_id__in=[m for m in totals if m not in keep]
        ).delete()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_upsert_totals_sql(), _upsert_params(tournament, keep))
        return
    TournamentTotal.objects.bulk_create(
        [
            TournamentTotal(tournament=tournament, member_id=member_id, **values)
            for member_id, values in keep.items()
        ],
        update_conflicts=True,
        unique_fields=["tournament", "member"],
        update_fields=TOTAL_FIELDS,
    )


def _array_text(values) -> str:
    """Numbers (ints, Decimals, None) or UUIDs as PostgreSQL's text form of an array,
    `{1,2.50,NULL}`, cast by the statement: the driver's own adaptation of eighteen
    lists, value by value, was a fifth of the worker's time a recalculation."""
    return "{" + ",".join("NULL" if v is None else str(v) for v in values) + "}"


def _upsert_params(tournament: Tournament, keep: dict[int, dict]) -> list:
    """`_upsert_totals_sql`'s parameters: one statement, its columns as arrays (building a
    model and its seventeen prepared values for each of a few hundred players cost more
    than the upsert)."""
    ids = list(keep)
    columns = [_array_text(keep[m][key] for m in ids) for key in TOTAL_FIELDS]
    return [tournament.pk, _array_text(ids), *columns]


@functools.cache
def _upsert_totals_sql() -> str:
    """PostgreSQL: the totals of a tournament's players upserted from one array per
    column (member ids, then TOTAL_FIELDS); a new row's rank and head-to-head are 0
    until `standings_rank`."""
    quote = connection.ops.quote_name
    fields = [TournamentTotal._meta.get_field(key) for key in TOTAL_FIELDS]
    names = ", ".join(quote(f.column) for f in fields)
    arrays = ", ".join(f"%s::{f.db_type(connection)}[]" for f in fields)
    updates = ", ".join(f"{quote(f.column)} = EXCLUDED.{quote(f.column)}" for f in fields)
    return f"""
        INSERT INTO {quote(TournamentTotal._meta.db_table)}
            (tournament_id, member_id, {names}, head_to_head, rank, tied)
        SELECT %s::bigint, v.*, 0, 0, false FROM unnest(%s::bigint[], {arrays}) AS v
        ON CONFLICT (tournament_id, member_id) DO UPDATE SET {updates}
    """


# --- publication ----------------------------------------------------------------------------


def standings_rederive(*, tournament: Tournament) -> None:
    """Every player's totals and place worked out again from the stored seats, in the
    caller's transaction, publishing no version (a restored backup, `club.backup`)."""
    _write_totals(tournament, compute_totals(tournament), replace_all=False)
    standings_rank(tournament)


def _publish(
    tournament: Tournament,
    *,
    kind: str,
    players: int,
    started: float,
    moved: Moved | None = None,
) -> StandingsVersion:
    """Rank (only `moved`'s range when given), then publish the next version (in the
    recalculation's transaction)."""
    standings_rank(tournament, moved)
    tournament.standings_version += 1
    version = StandingsVersion(
        tournament=tournament,
        number=tournament.standings_version,
        kind=kind,
        precedence=precedence_of(tournament),
        players_recomputed=players,
        duration_ms=int((time.monotonic() - started) * 1000),
    )
    # The version's row and the tournament's number (a counter its history leaves out,
    # core.audit's `counters`) in one statement; nothing listens for their save signals
    # (tests/test_compiled.py).
    writes = compiled.Writes()
    writes.insert([version])
    writes.update(tournament, ["standings_version"])
    writes.send()
    if version.number % PRUNE_EVERY == 0:
        StandingsVersion.objects.filter(
            tournament=tournament, number__lte=version.number - KEEP_VERSIONS
        ).delete()
    number = version.number
    transaction.on_commit(lambda: announce(tournament, number))
    return version


def _advisory_lock(tournament_id: int) -> bool:
    """Take the tournament's recalculation lock for this transaction (PostgreSQL); True if
    taken. Elsewhere (SQLite, one process) there is nothing to race."""
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        # Derived data: if a crash loses this commit, it loses the outbox rows' deletion
        # with it, and the sweep recalculates again. So the commit need not wait for the
        # disk (the hand's own transaction does).
        # (As SET LOCAL, in the lock's statement.)
        cursor.execute(
            f"SELECT {compiled.NO_WAIT}, pg_try_advisory_xact_lock(%s, %s)", [7301, tournament_id]
        )
        return cursor.fetchone()[1]


def _delete_done(dirty: list[tuple[int, int, object]]) -> None:
    """Remove the outbox rows (pk, member, token) as read: a row whose token has changed
    since (a hand committed meanwhile) stays for the next recalculation."""
    if connection.vendor != "postgresql":
        done = Q()
        for pk, _, token in dirty:
            done |= Q(pk=pk, token=token)
        StandingsDirty.objects.filter(done).delete()
        return
    with connection.cursor() as cursor:
        cursor.execute(_done_sql(), _done_params(dirty))


@functools.cache
def _done_sql() -> str:
    """PostgreSQL: the outbox rows (ids and tokens, as arrays) deleted as read. A row a
    hand is renewing at this moment is skipped, not waited for: its token will have
    changed, so it stays for the next recalculation anyway. Waiting for it was a
    deadlock: the hand, holding that row, could be waiting for a row deleted here."""
    table = connection.ops.quote_name(StandingsDirty._meta.db_table)
    return (
        f"DELETE FROM {table} WHERE id IN (SELECT id FROM {table} WHERE (id, token) IN "
        "(SELECT * FROM unnest(%s::bigint[], %s::uuid[])) FOR UPDATE SKIP LOCKED)"
    )


def _done_params(dirty: list[tuple[int, int, object]]) -> list:
    """`_done_sql`'s parameters: the ids and the tokens, each an array's text."""
    return [_array_text(pk for pk, _, _ in dirty), _array_text(token for _, _, token in dirty)]


def _write_changes(tournament: Tournament, totals: dict[int, dict], dirty) -> Moved | None:
    """An incremental recalculation's writes: the changed players' totals (`_write_totals`),
    the outbox rows read removed (`_delete_done`), and where the changes move anyone in the
    standings (`ranking.moved_within`), from the players' values read before the writes.
    On PostgreSQL in one statement (`_changes_sql`), its read in the statement's snapshot,
    which its writes do not change."""
    if connection.vendor != "postgresql":
        moved = moved_within(tournament, totals)
        _write_totals(tournament, totals, replace_all=False)
        _delete_done(dirty)
        return moved
    keys = tuple(ranked_keys(precedence_of(tournament)))
    keep = {m: v for m, v in totals.items() if v["hands"] or v["rubbers_played"]}
    leaving = [m for m in totals if m not in keep]  # every hand of his removed
    params = [
        tournament.pk, _array_text(totals), tournament.pk, _array_text(leaving),
        *_upsert_params(tournament, keep), *_done_params(dirty),
    ]  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(_changes_sql(keys), params)
        was = {member_id: values for member_id, *values in cursor.fetchall()}
    return moved_within(tournament, totals, was=was)


@functools.cache
def _changes_sql(keys: tuple[str, ...]) -> str:
    """PostgreSQL: `_write_changes`'s statement. The changed players' rows as they were
    (their values of `keys`) come back; those left with nothing leave the standings,
    the others' totals are upserted, the outbox rows read are deleted. (Each
    data-modifying part runs once, to completion, whether or not the answer reads it.)"""
    quote = connection.ops.quote_name
    table = quote(TournamentTotal._meta.db_table)
    columns = "".join(f", {quote(TournamentTotal._meta.get_field(k).column)}" for k in keys)
    return f"""
        WITH was AS (
            SELECT member_id{columns} FROM {table}
            WHERE tournament_id = %s AND member_id = ANY(%s::bigint[])
        ), leaving AS (
            DELETE FROM {table} WHERE tournament_id = %s AND member_id = ANY(%s::bigint[])
        ), written AS ({_upsert_totals_sql()}
        ), done AS ({_done_sql()})
        SELECT * FROM was
    """


def standings_recalculate(*, tournament_id: int) -> StandingsVersion | None:
    """Bring the dirty players' totals up to date and publish a new version.

    Returns None when another recalculation holds the lock (the caller retries) or
    when there was nothing to do. Must not run inside an outer transaction.
    """
    started = time.monotonic()
    with transaction.atomic():
        if not _advisory_lock(tournament_id):
            return None
        tournament = _TOURNAMENT.first(tournament_id)
        if tournament is None:
            raise Tournament.DoesNotExist(f"No tournament {tournament_id}.")
        dirty = _DIRTY.rows(tournament_id)
        if not dirty:
            return None
        member_ids = sorted({member_id for _, member_id, _ in dirty})
        totals = compute_totals(tournament, member_ids)
        # Only the changes read above are done: a hand committed since then renewed its
        # row's token, and that row stays for the next recalculation.
        moved = _write_changes(tournament, totals, dirty)
        return _publish(
            tournament, kind=StandingsVersion.Kind.INCREMENTAL, players=len(member_ids),
            started=started, moved=moved,
        )  # fmt: skip


def standings_full_recalculation(*, tournament_id: int) -> StandingsVersion | None:
    """Recompute every player's totals from scratch and publish, reporting progress."""
    started = time.monotonic()
    progress = PROGRESS_KEY.format(tournament_id)
    with transaction.atomic():
        if not _advisory_lock(tournament_id):
            return None
        cache.set(progress, {"state": "running", "percent": 5}, 3600)
        tournament = Tournament.objects.select_related("club").get(pk=tournament_id)
        StandingsDirty.objects.filter(tournament=tournament).delete()
        totals = compute_totals(tournament)
        cache.set(progress, {"state": "running", "percent": 70}, 3600)
        _write_totals(tournament, totals, replace_all=True)
        cache.set(progress, {"state": "running", "percent": 85}, 3600)
        version = _publish(
            tournament, kind=StandingsVersion.Kind.FULL, players=len(totals), started=started
        )
    cache.set(progress, {"state": "done", "percent": 100, "version": version.number}, 3600)
    return version


# --- noting changes and scheduling -------------------------------------------------------------


@functools.cache
def _note_change_sql() -> str:
    """One statement (PostgreSQL) for `standings_note_change`: the tournaments the rubber
    counts in, as `tournaments_counting` finds them, each with every player upserted
    into the outbox with a new token, in (tournament, player) order, so that two writes
    meeting the same rows lock them in the same order; the tournaments' ids come back.
    Parameters: the ladder kind, the evening, the progressive kind, the rubber, the
    players' ids."""
    quote = connection.ops.quote_name

    def table(model) -> str:
        return quote(model._meta.db_table)

    through = Tournament.evenings.through
    return f"""
        INSERT INTO {table(StandingsDirty)} (tournament_id, member_id, token, created_at)
        SELECT counted.id, player.id, gen_random_uuid(), now()
        FROM (
            SELECT t.id FROM {table(Tournament)} t
            JOIN {table(through)} te ON te.tournament_id = t.id
            WHERE t.kind = %s AND te.evening_id = %s
            UNION
            SELECT t.id FROM {table(Tournament)} t
            JOIN {table(Round)} r ON r.tournament_id = t.id
            JOIN {table(RoundTable)} rt ON rt.round_id = r.id
            WHERE t.kind = %s AND rt.rubber_id = %s
        ) counted
        CROSS JOIN unnest(%s::bigint[]) AS player(id)
        ORDER BY counted.id, player.id
        ON CONFLICT (tournament_id, member_id) DO UPDATE SET token = EXCLUDED.token
        RETURNING tournament_id
    """


def standings_note_change(*, rubber: Rubber, member_ids: list[int] | None = None) -> None:
    """Mark the rubber's players (`member_ids`, when the caller has them) dirty in every
    tournament it counts in (same transaction), and schedule a recalculation of each
    after commit. An existing row gets a new token (see StandingsDirty and
    `standings_recalculate`).

    On PostgreSQL one statement does it all (it is on every hand's path); elsewhere the
    same through the ORM."""
    if member_ids is None:
        member_ids = list(rubber.seats.values_list("member_id", flat=True))
    if not member_ids:
        return
    if connection.vendor == "postgresql":
        params = [
            Tournament.Kind.LADDER.value, rubber.evening_id,
            Tournament.Kind.PROGRESSIVE.value, rubber.pk, list(member_ids),
        ]  # fmt: skip
        with connection.cursor() as cursor:
            cursor.execute(_note_change_sql(), params)
            tournament_ids = sorted({row[0] for row in cursor.fetchall()})
    else:
        tournament_ids = sorted(tournaments_counting(rubber).values_list("pk", flat=True))
        StandingsDirty.objects.bulk_create(
            [
                StandingsDirty(tournament_id=t, member_id=m)
                for t in tournament_ids
                for m in member_ids
            ],
            update_conflicts=True,
            unique_fields=["tournament", "member"],
            update_fields=["token"],
        )
    if tournament_ids:  # one task for them all, after commit
        transaction.on_commit(
            lambda ids=tuple(tournament_ids): standings_schedule(
                *ids, countdown=settings.STANDINGS_DEBOUNCE_SECONDS
            )
        )


def standings_schedule(*tournament_ids: int, countdown: float = 0) -> list[int]:
    """Enqueue one recalculation of those of the tournaments not queued already (one task
    for them all: a hand counts in a ladder of the season and one of the year, say);
    never fail the caller. Returns the tournaments queued now.

    The queued flag lives in the cache for a short while; the task clears it when it
    starts, so a change arriving during a recalculation queues exactly one more. The
    small countdown gathers a burst of hands into one recalculation.
    If the broker (or the cache) is down, the outbox rows wait for `standings_sweep`.
    """
    from tournaments.tasks import recalculate_standings

    queued: list[int] = []
    try:
        # The flags in one round trip to Redis (core.redisops). False: one is queued
        # already. (None: the cache is down; send it anyway.)
        added = redisops.add_many([QUEUED_KEY.format(t) for t in tournament_ids], 1, timeout=60)
        queued = [t for t, done in zip(tournament_ids, added, strict=True) if done is not False]
        if queued:
            recalculate_standings.apply_async(args=queued, countdown=countdown)
        return queued
    except Exception:  # broker or cache down: the outbox keeps the change
        logger.warning(
            "standings: could not enqueue for tournaments %s", tournament_ids, exc_info=True
        )
        try:
            cache.delete_many([QUEUED_KEY.format(t) for t in queued])
        except Exception:
            logger.debug("cache unavailable too", exc_info=True)
        return []


def standings_sweep() -> list[int]:
    """Schedule every tournament with changes waiting in the outbox (run by Celery beat)."""
    ids = list(StandingsDirty.objects.values_list("tournament_id", flat=True).distinct())
    # A task each: one tournament whose recalculation keeps failing holds up no other.
    return [tournament_id for tournament_id in ids if standings_schedule(tournament_id)]


# --- tournaments ------------------------------------------------------------------------------


def _check_precedence(precedence, *, ruleset: str = "", deals_per_round=None) -> list[str]:
    """A precedence list of known metrics, each of which can decide a tournament of this
    rule set (blank: a ladder of any game) and format: Bridge honours never rank Euchre,
    nor rubbers won a progressive of fixed deals (ruling P1)."""
    from core.errors import UserError
    from scoring.rules.games import GAMES
    from tournaments.metrics import NeverApplies, check_applies, validate_precedence

    try:
        game = GAMES.get(ruleset)  # blank: a ladder of any game
        kind, fixed = (game.kind if game else ""), bool(deals_per_round)
        precedence = validate_precedence(precedence, game=kind, fixed_deals=fixed)
        check_applies(precedence, game=kind, game_name=game.name if game else "", fixed_deals=fixed)
    except NeverApplies as exc:
        raise UserError(str(exc), field="precedence", law=exc.law or None) from exc
    except ValueError as exc:
        raise UserError(str(exc), field="precedence") from exc
    return precedence


def evening_words(evening) -> str:
    """An evening as a ladder's director tells it from the others: its date, then its
    title (a club's Tuesday evenings may all be called "Club night")."""
    day = f"{evening.date:%A} {evening.date.day} {evening.date:%B %Y}"
    return f"{day}: {evening.title}" if evening.title else day


def _check_evenings(club, evening_ids, *, ruleset: str = "", counted=()) -> list:
    """The club's evenings by id, for a ladder; a ladder of one rule set counts only its
    evenings (their every rubber counts: a Bridge evening's in a Euchre ladder would add
    hundreds of points to its few). Those `counted` already are not checked again: a
    ladder that counted one before this check was made may still leave out its others."""
    from club.models import Evening
    from core.errors import UserError
    from scoring.rules import RULESETS

    evenings = list(Evening.objects.filter(club=club, pk__in=evening_ids))
    if len(evenings) != len(set(evening_ids)):
        missing = sorted(set(evening_ids) - {e.pk for e in evenings})
        raise UserError(f"No such evenings in this club: {missing}.", field="evenings")
    other = [e for e in evenings if ruleset and e.ruleset != ruleset and e.pk not in counted]
    if other:
        named = "; ".join(f"{evening_words(e)}, {e.game_title}" for e in other)
        raise UserError(
            f"This ladder counts evenings of {RULESETS[ruleset].title} only, and "
            f"{'this one is' if len(other) == 1 else 'these are'} not: {named}. Leave "
            f"{'it' if len(other) == 1 else 'them'} out, or make a ladder of any rule set.",
            field="evenings",
        )
    return evenings


#: The refusal of a stake not written in the digits 0 to 9 and a point, at the form and the API.
STAKE_NOT_DIGITS = (
    "The stake per point must be an amount written in the digits 0 to 9, with a point before "
    "the pence, such as 0.25; blank: the rounds settle nothing (rulings P2, M1)."
)


def _check_stake(kind: str, stake):
    """Ruling P2: a progressive may have a stake per point, kept as an evening's is (M1)."""
    from decimal import Decimal

    from core.amounts import in_digits
    from core.errors import UserError
    from scoring.rules import ScoringError
    from scoring.rules.base import parse_stake

    if stake in (None, ""):
        return Decimal("0")
    if kind != Tournament.Kind.PROGRESSIVE:
        raise UserError(
            "A ladder's money is its evenings' stakes; only a progressive has its own.",
            field="stake",
            law="ruling P2",
        )
    if isinstance(stake, str) and not in_digits(stake):
        # Python's Decimal reads other scripts' digits (Arabic-Indic ones as 0.25), "1e3"
        # as 1000 and "1_000": refused as a round count written so is (core.inputs), at
        # every door.
        raise UserError(STAKE_NOT_DIGITS, field="stake", law="rulings P2, M1")
    try:
        stake = parse_stake(stake)
    except ScoringError as exc:
        raise UserError(exc.message, field="stake", law="ruling M1") from exc
    if stake != stake.quantize(Decimal("0.01")):
        raise UserError(
            "A stake is kept in the currency's minor units: at most two decimal places.",
            field="stake",
            law="ruling M1",
        )
    return stake


@transaction.atomic
def tournament_create(
    *,
    club,
    name: str,
    slug: str,
    kind: str,
    ruleset: str = "",
    is_public: bool = True,
    precedence: list[str] | None = None,
    evening_ids: list[int] | None = None,
    movement: str = "",
    rounds_planned: int | None = None,
    deals_per_round: int | None = None,
    stake=None,
) -> Tournament:
    """Create a ladder over a season's evenings, or a progressive tournament (with a stake
    per point each round's tables play for, ruling P2; none settles nothing)."""
    from core.errors import UserError
    from core.text import TITLE_MAX, clean_text

    name = clean_text(
        name, field="name", max_length=TITLE_MAX, label="The tournament's name", required=True
    )

    if Tournament.objects.filter(club=club, slug=slug).exists():
        raise UserError(f"The club has a tournament called {quoted(slug)} already.", field="slug")
    if kind == Tournament.Kind.PROGRESSIVE and not ruleset:
        raise UserError("A progressive tournament is played under one rule set.", field="ruleset")
    if kind == Tournament.Kind.LADDER:
        for field, given in (
            ("movement", movement),
            ("rounds_planned", rounds_planned),
            ("deals_per_round", deals_per_round),
        ):
            if given:
                raise UserError(
                    "A ladder has no rounds, movement or deals a round; it counts evenings.",
                    field=field,
                )
    if kind == Tournament.Kind.PROGRESSIVE:
        from scoring.rules import get_ruleset
        from tournaments.movements import MOVEMENTS

        if not get_ruleset(ruleset).partnership:
            raise UserError(
                "The movements seat partnerships, North-South against East-West; Call-Ace "
                "is played at a club ladder's evenings.",
                field="ruleset",
            )
        if movement not in MOVEMENTS:
            # The API's keys, each with its title (the director's page asks in its own words:
            # tournaments.forms.TournamentForm).
            named = "; ".join(f"{key!r} ({m.title})" for key, m in MOVEMENTS.items())
            raise UserError(
                f"Choose the movement that seats the rounds: {named}.", field="movement"
            )
    stake = _check_stake(kind, stake)
    tournament = Tournament.objects.create(
        club=club,
        stake=stake,
        name=name,
        slug=slug,
        kind=kind,
        ruleset=ruleset,
        is_public=is_public,
        # None chosen: what such a tournament is decided by (fixed deals: its rounds won, P1).
        precedence=_check_precedence(
            precedence or default_precedence(deals_per_round=deals_per_round),
            ruleset=ruleset,
            deals_per_round=deals_per_round,
        ),
        movement=movement,
        rounds_planned=rounds_planned,
        deals_per_round=deals_per_round,
    )
    if evening_ids:
        if kind != Tournament.Kind.LADDER:
            raise UserError("Only a ladder counts whole evenings.", field="evenings")
        tournament.evenings.set(_check_evenings(club, evening_ids, ruleset=ruleset))
        standings_request_full(tournament_id=tournament.pk)
    return tournament


#: What a refusal after the results were declared final says cannot change, by field.
FIXED_WHEN_FINAL = {
    "precedence": 'the order the standings are ranked by ("Ranked by") is',
    "standings_round": "the rounds the standings count are",
}


def _refuse_once_final(tournament: Tournament, *, field: str) -> None:
    """Once the director has declared a progressive's results final
    (`tournaments.rounds.tournament_results_final`), how they rank and what they count are
    fixed with them: a change would publish other final standings than those declared.
    Read with the row locked, so a change and the declaring are one before the other."""
    from core.db import lock_one
    from core.errors import UserError
    from core.moments import moment_words

    final_at = lock_one(
        Tournament.objects.filter(pk=tournament.pk), what="tournament"
    ).results_final_at
    if final_at is None:
        return
    raise UserError(
        f"The results were declared final {moment_words(final_at)}: "
        f"{FIXED_WHEN_FINAL[field]} fixed with them, as the standings declared are.",
        field=field,
        code="results_final",
    )


@transaction.atomic
def tournament_update(
    *,
    tournament: Tournament,
    name: str | None = None,
    is_public: bool | None = None,
    precedence: list[str] | None = None,
    evening_ids: list[int] | None = None,
    standings_round: int | None = None,
    stake=None,
) -> Tournament:
    """Change a tournament; a change to what counts or how it ranks recalculates in full.
    A progressive's stake (ruling P2) may change until its first round is seated: each
    round's tables play for the stake they were seated with."""
    from core.errors import UserError

    if precedence is not None or standings_round is not None:
        field = "precedence" if precedence is not None else "standings_round"
        _refuse_once_final(tournament, field=field)
    recalc = False
    changed = []
    if stake is not None:
        if tournament.rounds.exists():
            raise UserError(
                "The stake is fixed once the first round is seated: its tables play for it.",
                field="stake",
                law="ruling P2",
            )
        tournament.stake = _check_stake(tournament.kind, stake)
        changed.append("stake")
    if name is not None:
        from core.text import TITLE_MAX, clean_text

        tournament.name = clean_text(
            name, field="name", max_length=TITLE_MAX, label="The tournament's name", required=True
        )
        changed.append("name")
    if is_public is not None:
        tournament.is_public = is_public
        changed.append("is_public")
    if precedence is not None:
        tournament.precedence = _check_precedence(
            precedence, ruleset=tournament.ruleset, deals_per_round=tournament.deals_per_round
        )
        changed.append("precedence")
        recalc = True
    if standings_round is not None:
        if tournament.kind != Tournament.Kind.PROGRESSIVE:
            raise UserError("Only a progressive tournament has rounds.", field="standings_round")
        # A seated round or 0 (every round): a larger number was written past its column
        # (smallint: 2**15 stored as -32768, 2**31 as 0) or refused by PostgreSQL, a 500.
        seated = tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0
        if standings_round > seated:
            counted = {0: "every round (0): none is seated yet", 1: "round 1, or every round (0)"}
            raise UserError(
                f"Round {standings_round} has not been seated; the standings count "
                + counted.get(seated, f"up to a seated round (1 to {seated}), or every round (0)")
                + ".",
                field="standings_round",
            )
        tournament.standings_round = standings_round or None
        changed.append("standings_round")
        recalc = True
    # Only the fields changed: the standings version is the recalculation's to write.
    tournament.save(update_fields=changed)
    if evening_ids is not None:
        if tournament.kind != Tournament.Kind.LADDER:
            raise UserError("Only a ladder counts whole evenings.", field="evenings")
        tournament.evenings.set(
            _check_evenings(
                tournament.club,
                evening_ids,
                ruleset=tournament.ruleset,
                counted=set(tournament.evenings.values_list("pk", flat=True)),
            )
        )
        recalc = True
    if recalc:
        standings_request_full(tournament_id=tournament.pk)
    return tournament


def standings_request_full(*, tournament_id: int) -> None:
    """Start a full recalculation after commit (a director's button, or a changed rule),
    unless one is queued for the tournament already and not yet started: it answers for
    this one too (FULL_QUEUED_KEY, cleared by the task as it starts, as `standings_schedule`
    queues a hand's once). A button pressed again and again (a script at the page or the
    API, within its rate) put a full recalculation a press in the queue every club's
    standings wait in."""
    cache.set(PROGRESS_KEY.format(tournament_id), {"state": "queued", "percent": 0}, 3600)
    transaction.on_commit(lambda: _send_full(tournament_id))


def _send_full(tournament_id: int) -> None:
    from tournaments.tasks import recalculate_standings_full

    flag = FULL_QUEUED_KEY.format(tournament_id)
    # False: one is queued already. (None: the cache is down; send it anyway.)
    if cache.add(flag, 1, timeout=FULL_QUEUED_SECONDS) is False:
        return
    try:
        recalculate_standings_full.delay(tournament_id)
    except Exception:
        cache.delete(flag)  # not queued: the next press sends one
        raise


def standings_progress(*, tournament_id: int) -> dict:
    """How far the last full recalculation has come (for the director's progress bar)."""
    return cache.get(PROGRESS_KEY.format(tournament_id)) or {"state": "idle", "percent": 100}
