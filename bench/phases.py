"""The benchmark's measurements that run inside Django, one process each.

    python -m bench.phases PHASE [--options]     (bench/run.py runs these)
    python -m bench.phases serve                 (phases one after another: see `serve`)

Each phase prints one JSON object on its last line of output. A phase that measures
(the standings: the peak memory of a recalculation above all; the incremental
recalculation) runs in a fresh process, so that what it measures is that process's
alone; the others (the load's plan, the check of its hands, the outbox's settling, the
query plans) run one after another in one process that `bench/run.py` starts once
(`serve`), instead of a process each that spent its second of CPU starting Django.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")

import django  # noqa: E402

django.setup()

from django.db import connection, connections  # noqa: E402

from bench.servers import READY  # noqa: E402
from club.models import Club, Evening, Member, Table  # noqa: E402
from scoring.models import Hand, Rubber  # noqa: E402
from tournaments.models import StandingsDirty, Tournament  # noqa: E402

SECRETARY = "bench-secretary"


def _rss_mb() -> float:
    """This process's resident memory now, in MB (Linux)."""
    with open("/proc/self/statm") as handle:
        pages = int(handle.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _season(club: str) -> Tournament:
    return Tournament.objects.get(club__slug=club, slug="season")


def _baseline_sql(tournament: Tournament) -> str:
    """The plain SQL floor: every counted hand's points read once, summed per player."""
    rubbers = (
        "SELECT r.id FROM scoring_rubber r JOIN tournaments_tournament_evenings te "
        f"ON te.evening_id = r.evening_id WHERE te.tournament_id = {int(tournament.pk)}"
    )
    return (
        "SELECT member_id, SUM(points) FROM scoring_handscore "
        f"WHERE rubber_id IN ({rubbers}) GROUP BY member_id"
    )


def _timed(function, *args, **kwargs) -> tuple[float, object]:
    t0 = time.perf_counter()
    value = function(*args, **kwargs)
    return time.perf_counter() - t0, value


def phase_standings(args) -> dict:
    """A full recalculation of the season's standings against the plain SQL baseline,
    alternately, after one warm-up of each; and the peak memory of this process."""
    from tournaments.services import compute_totals, standings_full_recalculation, standings_rank

    tournament = _season(args.club)
    sql = _baseline_sql(tournament)

    def baseline():
        with connection.cursor() as cursor:
            cursor.execute(sql)
            return len(cursor.fetchall())

    rss_before = _rss_mb()
    baseline()
    standings_full_recalculation(tournament_id=tournament.pk)
    base_times, full_times = [], []
    for _ in range(args.repeat):
        seconds, players = _timed(baseline)
        base_times.append(seconds)
        seconds, _ = _timed(standings_full_recalculation, tournament_id=tournament.pk)
        full_times.append(seconds)
    # Where a full recalculation's time goes (for the profile section).
    tournament.refresh_from_db()
    totals_seconds, totals = _timed(compute_totals, tournament)
    rank_seconds, _ = _timed(standings_rank, tournament)
    hands = Hand.objects.filter(rubber__evening__tournaments=tournament).count()
    return {
        "hands": hands,
        "players": players,
        "baseline": statistics.median(base_times),
        "baseline_all": base_times,
        "full": statistics.median(full_times),
        "full_all": full_times,
        "ratio": statistics.median(full_times) / statistics.median(base_times),
        "compute_totals": totals_seconds,
        "standings_rank": rank_seconds,
        "rows": tournament.totals.count(),
        "totals": len(totals),
        "rss_before_mb": rss_before,
        "peak_rss_mb": _peak_mb(),
    }


def _free_earlier_tables(club: Club) -> int:
    """Abandon the rubbers still in progress at tables earlier benchmark runs sat down on
    the open evening (every rubber in progress there but the season's own, its first),
    so that `--reuse` runs do not use the season's players up. Their hands stay counted;
    an abandoned rubber is as unfinished for the standings as one in progress."""
    from django.db.models.functions import Now

    from scoring.rollup import rollup_rubbers

    evening = Evening.objects.get(club=club, status=Evening.Status.OPEN)
    in_progress = Rubber.objects.filter(evening=evening, status=Rubber.Status.IN_PROGRESS)
    earlier = list(in_progress.order_by("pk").values_list("pk", flat=True)[1:])
    # As scoring.services.rubber_abandon leaves one (law 21), without a lock per rubber.
    Rubber.objects.filter(pk__in=earlier).update(status=Rubber.Status.ABANDONED, completed_at=Now())
    rollup_rubbers(earlier)
    return len(earlier)


def _bench_members(club: Club, count: int) -> list[Member]:
    """Members with a season behind them who are not seated in a rubber in progress."""
    members = _free_members(club, count)
    if members is None:
        _free_earlier_tables(club)
        members = _free_members(club, count)
    if members is None:
        raise SystemExit(f"the season has too few free players; {count} needed")
    return members


def _free_members(club: Club, count: int) -> list[Member] | None:
    busy = set(
        Rubber.objects.filter(club=club, status=Rubber.Status.IN_PROGRESS).values_list(
            "seats__member_id", flat=True
        )
    )
    members = [
        m
        for m in Member.objects.filter(club=club, seats__isnull=False).distinct().order_by("pk")
        if m.pk not in busy
    ]
    if len(members) < count:
        return None
    step = len(members) // count
    return [members[i * step] for i in range(count)]


def _bench_tables(club: Club, count: int) -> list[tuple[Table, list[str]]]:
    """`count` new tables on the open evening, each with four players and a rubber."""
    from django.db.models import Max

    from scoring.services import rubber_start

    evening = Evening.objects.get(club=club, status=Evening.Status.OPEN)
    first = (evening.tables.aggregate(Max("number"))["number__max"] or 0) + 1
    members = _bench_members(club, 4 * count)
    out = []
    for i in range(count):
        table = Table.objects.create(club=club, evening=evening, number=first + i)
        four = [m.name for m in members[4 * i : 4 * i + 4]]
        rubber_start(
            club=club,
            evening=evening,
            table=table,
            ruleset="euchre-somerset-1888",
            players={"NS": four[:2], "EW": four[2:]},
        )
        out.append((table, four))
    return out


def _settle_outbox(club: str) -> None:
    """Recalculate every tournament with changes waiting, so a phase starts clean."""
    from tournaments.services import standings_recalculate

    for tournament_id in set(
        StandingsDirty.objects.filter(tournament__club__slug=club).values_list(
            "tournament_id", flat=True
        )
    ):
        standings_recalculate(tournament_id=tournament_id)


def phase_incremental(args) -> dict:
    """Record one hand into the season (through the scoring service), then time the
    worker's incremental recalculation of the season's standings; many times over.

    The recording enqueues a recalculation as it always does, to a queue of the
    benchmark's own that no worker reads (bench/run.py empties it), so the timed call
    here is the only one that runs.
    """
    import random

    from club.recording import hand_record
    from tournaments.counting import tournaments_counting
    from tournaments.services import standings_recalculate

    club = Club.objects.get(slug=args.club)
    tournament = _season(args.club)
    tables = _bench_tables(club, 8)
    rng = random.Random(args.seed)
    rubbers = [Rubber.objects.get(table=table) for table, _ in tables]
    _settle_outbox(args.club)
    record_times, recalc_times, cpu_times, players = [], [], [], []
    for i in range(args.samples + 5):
        k = i % len(rubbers)
        rubber = rubbers[k]
        hand = {
            "makers": rng.choice(("NS", "EW")),
            "tricks": rng.choice((0, 1, 2, 3, 3, 3, 4, 4, 5)),
            "alone": rng.random() < 0.08,
        }
        seconds, _ = _timed(hand_record, rubber_id=rubber.pk, data=hand)
        cpu = time.process_time()
        took, version = _timed(standings_recalculate, tournament_id=tournament.pk)
        cpu = time.process_time() - cpu
        # The hand dirtied the other tournaments it counts in (this year's ladder).
        for other in tournaments_counting(rubber).exclude(pk=tournament.pk):
            standings_recalculate(tournament_id=other.pk)
        rubber.refresh_from_db()
        if rubber.is_complete:
            table, four = tables[k]
            rng.shuffle(four)
            from scoring.services import rubber_start

            rubbers[k] = rubber_start(
                club=club,
                evening=table.evening,
                table=table,
                ruleset="euchre-somerset-1888",
                players={"NS": four[:2], "EW": four[2:]},
            )
        if i < 5:  # warm-up
            continue
        record_times.append(seconds)
        recalc_times.append(took)
        cpu_times.append(cpu)
        players.append(version.players_recomputed if version else 0)
    recalc_times.sort()
    return {
        "samples": len(recalc_times),
        "median": statistics.median(recalc_times),
        "p95": recalc_times[int(0.95 * (len(recalc_times) - 1))],
        "max": recalc_times[-1],
        "cpu_median": statistics.median(cpu_times),
        "record_median": statistics.median(record_times),
        "players_recomputed": statistics.median(players),
        "standing_rows": tournament.totals.count(),
    }


def phase_prepare_load(args) -> dict:
    """Tables, players and rubbers for the load, a secretary's token, and the plan the
    load generator reads."""
    from django.contrib.auth import get_user_model

    from club.secretary_tokens import token_issue
    from tournaments.metrics import DEFAULT_PRECEDENCE

    club = Club.objects.get(slug=args.club)
    tournament = _season(args.club)
    user, _ = get_user_model().objects.get_or_create(username=SECRETARY)
    club.secretaries.add(user)
    secretary_key, _ = token_issue(user=user)  # a login's token (API_TOKEN_DAYS)
    tables = _bench_tables(club, args.clients)
    _settle_outbox(args.club)
    ids = dict(Member.objects.filter(club=club).values_list("name", "pk"))
    clients = []
    for table, four in tables:
        rubber = Rubber.objects.get(table=table)
        clients.append(
            {
                "table": table.number,
                "token": table.token,
                "rubber": rubber.pk,
                "players": rubber.players,
                "member_ids": {name: ids[name] for name in four},
            }
        )
    precedence = tournament.precedence or DEFAULT_PRECEDENCE
    plan = {
        "club": club.slug,
        "tournament": tournament.slug,
        "tournament_id": tournament.pk,
        "evening": tables[0][0].evening_id,
        "secretary_token": secretary_key,
        "points_column": precedence.index("points"),
        "clients": clients,
    }
    Path(args.plan).write_text(json.dumps(plan))
    return {"clients": len(clients), "first_table": tables[0][0].number}


def phase_verify(args) -> dict:
    """Every hand a client got 201 for is stored once, as sent; no other hand is stored
    in the load's rubbers."""
    from scoring.rules import EUCHRE

    # Several runs may have used the plan's tables (comma-separated results): the
    # hands stored at those tables are checked against all of them together.
    results = [json.loads(Path(name).read_text()) for name in args.result.split(",")]
    result = {"accepted": [hand for r in results for hand in r["accepted"]]}
    plan = json.loads(Path(args.plan).read_text())
    tables = [c["table"] for c in plan["clients"]]
    rubbers = Rubber.objects.filter(
        club__slug=args.club, evening_id=plan["evening"], table__number__in=tables
    )
    stored = {
        (rubber_id, number): data
        for rubber_id, number, data in Hand.objects.filter(rubber__in=rubbers).values_list(
            "rubber_id", "number", "data"
        )
    }
    accepted: dict[tuple[int, int], dict] = {}
    doubled = 0
    for hand in result["accepted"]:
        key = (hand["rubber"], hand["number"])
        doubled += key in accepted
        accepted[key] = EUCHRE.validate_hand(EUCHRE.start({}), hand["data"]).as_dict()
    lost = [key for key in accepted if key not in stored]
    unexpected = [key for key in stored if key not in accepted]
    changed = [key for key, data in accepted.items() if key in stored and stored[key] != data]
    counts_ok = all(r.hand_count == r.hands.count() for r in rubbers)
    return {
        "accepted": len(result["accepted"]),
        "stored": len(stored),
        "lost": len(lost),
        "doubled": doubled + len(unexpected),
        "changed": len(changed),
        "hand_counts_consistent": counts_ok,
        "rubbers": rubbers.count(),
    }


def _wrong_totals(tournament: Tournament) -> list[dict]:
    """Players whose stored totals differ from their stored hands (points and hand count,
    summed afresh): none, once the outbox is empty."""
    from django.db.models import Count, Sum

    from scoring.models import HandScore
    from tournaments.counting import counted_rubbers

    fresh = {
        row["member_id"]: (row["points"], row["hands"])
        for row in HandScore.objects.filter(rubber__in=counted_rubbers(tournament).values("pk"))
        .values("member_id")
        .annotate(points=Sum("points"), hands=Count("id"))
    }
    stored = {
        member_id: (points, hands)
        for member_id, points, hands in tournament.totals.values_list(
            "member_id", "points", "hands"
        )
    }
    return [
        {"member": m, "hands_stored": stored.get(m, (0, 0))[1], "hands": fresh.get(m, (0, 0))[1],
         "points_stored": stored.get(m, (0, 0))[0], "points": fresh.get(m, (0, 0))[0]}
        for m in sorted(set(fresh) | set(stored))
        if fresh.get(m, (0, 0)) != stored.get(m, (0, 0))
    ]  # fmt: skip


def phase_settle(args) -> dict:
    """Wait for the worker to empty the outbox; then the season's published version."""
    from django.core.cache import cache

    from tournaments.pagecache import VERSION_KEY

    tournament = _season(args.club)
    deadline = time.monotonic() + args.timeout
    while time.monotonic() < deadline:
        if not StandingsDirty.objects.filter(tournament__club__slug=args.club).exists():
            break
        time.sleep(0.2)
    tournament.refresh_from_db()
    return {
        "waiting": StandingsDirty.objects.filter(tournament__club__slug=args.club).count(),
        "wrong_totals": _wrong_totals(tournament),
        "version": tournament.standings_version,
        "cached_version": cache.get(VERSION_KEY.format(tournament.pk)),
        "tournament_id": tournament.pk,
        "players": tournament.totals.count(),
    }


def phase_explain(args) -> dict:
    """EXPLAIN ANALYZE of the queries a full and an incremental recalculation make."""
    from django.db import reset_queries
    from django.test.utils import CaptureQueriesContext

    from tournaments.services import compute_totals, standings_rank

    tournament = _season(args.club)
    member_ids = list(tournament.totals.order_by("-hands").values_list("member_id", flat=True)[:4])
    plans = {}
    for label, call in (
        ("full", lambda: compute_totals(tournament)),
        ("incremental", lambda: compute_totals(tournament, member_ids)),
        ("rank", lambda: standings_rank(tournament)),
    ):
        reset_queries()
        with CaptureQueriesContext(connection) as captured:
            call()
        plans[label] = []
        for query in captured.captured_queries:
            if query["sql"].startswith("PREPARE "):  # its EXECUTE is explained below
                continue
            with connection.cursor() as cursor:
                cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + query["sql"])
                plan = "\n".join(row[0] for row in cursor.fetchall())
            plans[label].append({"sql": query["sql"], "seconds": float(query["time"]),
                                 "plan": plan})  # fmt: skip
    Path(args.out).write_text(json.dumps(plans, indent=1))
    return {label: [q["seconds"] for q in queries] for label, queries in plans.items()}


PHASES = {
    "standings": phase_standings,
    "incremental": phase_incremental,
    "prepare-load": phase_prepare_load,
    "verify": phase_verify,
    "settle": phase_settle,
    "explain": phase_explain,
}


def run(argv: list[str]) -> dict:
    """The phase `argv` names, run here; its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("phase", choices=PHASES)
    parser.add_argument("--club", default="season-club")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1888)
    parser.add_argument("--clients", type=int, default=30)
    parser.add_argument("--plan")
    parser.add_argument("--result")
    parser.add_argument("--out")
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args(argv)
    return PHASES[args.phase](args)


def serve() -> None:
    """Phases one after another, each a line of JSON on standard input (its arguments,
    as a list), each answered by a line on standard output: `{"ok": figures}` or
    `{"error": traceback}`. Anything else a phase prints goes to standard error, so the
    answers stay one a line. The database connection is closed after each phase: between
    phases (while a load runs) this process holds no PostgreSQL backend, and its Python
    is idle, so the figures the loads read are the same as with a process a phase."""
    answers = sys.stdout
    sys.stdout = sys.stderr
    print(READY, file=answers, flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            answer = {"ok": run(json.loads(line))}
        except (Exception, SystemExit):  # argparse's too: bench/run.py reports it and stops
            answer = {"error": traceback.format_exc()}
        finally:
            connections.close_all()
        print(json.dumps(answer), file=answers, flush=True)


def main(argv=None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["serve"]:
        serve()
    else:
        print(json.dumps(run(argv)))


if __name__ == "__main__":
    main()
