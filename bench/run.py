"""The benchmark, in one command: a season on PostgreSQL, then every figure of issue 6.

    python bench/run.py            # the full run (eight to fifteen minutes on two cores)
    python bench/run.py --quick    # a small run (about two minutes)
    python bench/run.py --smoke ...  # the tests' check that every step runs (figures unread)

It creates its own database (`cardclub_bench`, dropped and created afresh), migrates it,
generates a season with `manage.py make_season`, and measures, each in a process of its
own: the full standings recalculation against the plain SQL baseline (and the peak
memory of the process doing it), the incremental recalculation after one recorded
hand, thirty tables posting hands to gunicorn while a Celery worker publishes standings
and a reader watches them (freshness), the public standings page under `wrk` beside a
trivial view served by the same gunicorn, the same tables recording while `wrk` reads
that page, a capacity ramp (tables added until the recording's 99th percentile passes
250 ms), two gunicorn instances on the one database with the tables dealt between them,
and the pure scoring engine. On a terminal a bar shows the steps done. It prints a
table of figures, with the machine's cores, load and versions, and writes it to
BENCHMARKS.md (raw figures and logs under artifacts/bench/). Redis is used at database
14 (`--redis`), which the run empties. See docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import runpy
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from contextlib import contextmanager, suppress
from pathlib import Path

from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: the project's packages (core.progress)

from bench import profile  # noqa: E402
from bench.report import (  # noqa: E402
    BENCH_CPU_KEY,
    CAPACITY_P99,
    recorded_hand_cpu,
    report,
    request_cpu,
    settled_hash,
    write_figures,
)
from bench.servers import PhaseProcess, Server, free_port, http_ok, stop_all  # noqa: E402
from core.progress import progress_bar  # noqa: E402

PYTHON = sys.executable
ARTIFACTS = ROOT / "artifacts" / "bench"
GUNICORN_CONFIG = str(ROOT / "config" / "gunicorn.conf.py")  # production's, measured here

FULL = {
    "players": 2000, "evenings": 300, "hands": 1_000_000, "clients": 30, "record": 60,
    "wrk": 30, "samples": 40, "repeat": 3, "engine": 300_000,
    "capacity_start": 10, "capacity_step": 10, "capacity_max": 200, "capacity_seconds": 20,
    "hosts_seconds": 20,
}  # fmt: skip
QUICK = {
    "players": 300, "evenings": 30, "hands": 30_000, "clients": 30, "record": 10,
    "wrk": 5, "samples": 10, "repeat": 2, "engine": 50_000,
    "capacity_start": 10, "capacity_step": 10, "capacity_max": 20, "capacity_seconds": 5,
    "hosts_seconds": 5,
}  # fmt: skip
# The capacity step's limit: the recording's 99th percentile a table count must keep.
# The tables a load's hands and recalculations update or delete rows of (bench.run's
# `vacuum_churned`).
CHURNED = (
    "tournaments_standingsdirty", "tournaments_tournamenttotal", "tournaments_tournament",
    "tournaments_standingsversion", "scoring_rubberplayer", "scoring_rubber", "club_evening",
    "club_idempotencyrecord", "pghistory_context",
)  # fmt: skip
STEPS = ("standings", "record", "pages", "mixed", "capacity", "hosts", "engine")
# The phases that measure nothing themselves, run one after another in one process
# (bench.phases serve); the standings and the incremental recalculation measure their
# own process, and have one each.
UNTIMED_PHASES = ("prepare-load", "verify", "settle", "explain")


def log(message: str) -> None:
    # Through tqdm, so that a bar drawn on the terminal is cleared and redrawn around it.
    tqdm.write(f"[{dt.datetime.now():%H:%M:%S}] {message}", file=sys.stdout)
    sys.stdout.flush()


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


class Bench:
    """One run: its settings, its processes, the figures gathered."""

    def __init__(self, args):
        self.args = args
        self.sizes = dict(QUICK if args.quick else FULL)
        for key in self.sizes:
            if getattr(args, key, None) is not None:
                self.sizes[key] = getattr(args, key)
        self.db_url = f"{args.postgres.rstrip('/')}/{args.db}"
        self.queue = f"bench-{os.getpid()}"
        # The incremental recalculation's recordings enqueue their recalculations here, to
        # a queue no worker reads (`standings`).
        self.discarded = f"{self.queue}-discarded"
        self.env = dict(
            os.environ,
            DJANGO_SETTINGS_MODULE=args.settings,
            DATABASE_URL=self.db_url,
            REDIS_URL=args.redis,
            CELERY_QUEUE=self.queue,
            CACHE_KEY_PREFIX="bench",
            # One proxy of ours in front, as a load balancer would be: the load generator
            # writes each table's address in X-Forwarded-For as that proxy would, so the
            # per-address throttles count each table apart (config/clientaddr.py), not
            # every table as one client at 127.0.0.1.
            TRUSTED_PROXY_COUNT="1",
            DJANGO_ENV="development",
            DEBUG="false",
            LOG_LEVEL="WARNING",
            PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
            PYTHONUNBUFFERED="1",
        )
        self.results: dict = {"sizes": self.sizes, "load": {}, "argv": sys.argv[1:]}
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        self.out = ARTIFACTS / stamp
        self.out.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.groups: dict[str, int] = {}
        self.phases = PhaseProcess(PYTHON, out=self.out, cwd=ROOT, env=self.env)
        self.booted: dict[str, Server] = {}  # servers started before their step (--smoke)
        self.own: dict[str, PhaseProcess] = {}  # a phase's own process, booted early (--smoke)
        self.plan_results: dict[Path, list[str]] = {}  # each plan's load results so far
        self.url = f"http://127.0.0.1:{self.port}"

    # processes ------------------------------------------------------------------------

    def run(self, name: str, argv: list[str], *, timeout: float, env: dict | None = None) -> str:
        """Run a command to its end; its output is kept under artifacts/bench/."""
        t0 = time.monotonic()
        proc = subprocess.run(
            argv, cwd=ROOT, env=env or self.env, capture_output=True, text=True, timeout=timeout
        )
        (self.out / f"{name}.log").write_text(proc.stdout + proc.stderr)
        if proc.returncode:
            raise SystemExit(f"{name} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
        self.results.setdefault("seconds", {})[name] = round(time.monotonic() - t0, 2)
        return proc.stdout

    def phase(self, name: str, *args: str, timeout: float = 600, env: dict | None = None) -> dict:
        self.results["load"][name] = load_average()
        argv = [name, "--club", self.args.club, *args]
        # Its own process booted early (a smoke run's, `boot`), or the phases' process for
        # an untimed phase, or else a process of its own started now.
        process = self.own.pop(name, None)
        if process is None and name in UNTIMED_PHASES and env is None:
            process = self.phases
        if process is None:
            out = self.run(name, [PYTHON, "-m", "bench.phases", *argv], timeout=timeout, env=env)
            return json.loads(out.strip().splitlines()[-1])
        t0 = time.monotonic()
        try:
            figures, error = process.call(argv, timeout=timeout)
        finally:
            if process is not self.phases:  # its one phase done
                process.stop()
        # Its answer kept as a process's output would be.
        (self.out / f"{name}.log").write_text(error or json.dumps(figures))
        if error:
            raise SystemExit(f"{name} failed:\n{error}")
        self.results.setdefault("seconds", {})[name] = round(time.monotonic() - t0, 2)
        return figures

    def new_server(self, name: str, argv: list[str], ready) -> Server:
        """A long-running process (gunicorn, the Celery worker), not started yet. Its
        PostgreSQL backends are named after it (libpq's PGAPPNAME), so that their CPU is
        told apart from the other processes' (`cpu`)."""
        env = {**self.env, "PGAPPNAME": f"{APP_PREFIX}{name}"}
        return Server(name, argv, out=self.out, cwd=ROOT, env=env, ready=ready)

    # steps ----------------------------------------------------------------------------

    def versions(self) -> None:
        import django
        import psycopg
        import redis

        with psycopg.connect(f"{self.args.postgres.rstrip('/')}/postgres") as conn:
            pg = conn.execute("SHOW server_version").fetchone()[0]
        info = redis.Redis.from_url(self.args.redis).info("server")
        self.results["machine"] = {
            "date": dt.datetime.now().astimezone().isoformat(timespec="seconds"),
            "cores": os.cpu_count(),
            "cpu": cpu_model(),
            "python": platform.python_version(),
            "django": django.get_version(),
            "postgresql": pg,
            "redis": info["redis_version"],
            "gunicorn": (
                f"{self.args.workers} {self.args.worker_class} workers"
                + (f" x {self.args.threads} threads" if self.args.worker_class == "gthread" else "")
            ),
            "load_at_start": load_average(),
        }

    def database(self) -> None:
        """A fresh database for the run (never the developer's), migrated; Redis emptied."""
        import psycopg
        import redis

        if not self.args.reuse:
            log(f"creating database {self.args.db}")
            with psycopg.connect(
                f"{self.args.postgres.rstrip('/')}/postgres", autocommit=True
            ) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.args.db}" WITH (FORCE)')
                if self.args.template:
                    # A copy of a database the same code migrated (the test run's).
                    conn.execute(
                        f'CREATE DATABASE "{self.args.db}" TEMPLATE "{self.args.template}"'
                    )
                else:
                    conn.execute(f'CREATE DATABASE "{self.args.db}"')
            if not self.args.template:
                self.run("migrate", [PYTHON, "manage.py", "migrate", "-v0"], timeout=300)
        redis.Redis.from_url(self.args.redis).flushdb()

    def season(self) -> None:
        s = self.sizes
        if self.args.reuse:
            log("reusing the season already in the database")
            return
        log(f"make_season: {s['players']} players, {s['evenings']} evenings, {s['hands']} hands")
        self.results["load"]["make_season"] = load_average()
        t0 = time.monotonic()
        cpu0 = os.times()
        out = self.run("make_season", [
            PYTHON, "manage.py", "make_season", "--players", str(s["players"]),
            "--evenings", str(s["evenings"]), "--hands", str(s["hands"]),
            "--seed", str(self.args.seed), "--club", self.args.club,
        ], timeout=1200)  # fmt: skip
        cpu1 = os.times()
        timings = re.search(r"Timings: (.*)\.", out).group(1)
        self.results["season"] = {
            "seconds": time.monotonic() - t0,
            "cpu": (cpu1.children_user + cpu1.children_system)
            - (cpu0.children_user + cpu0.children_system),
            "summary": out.strip().splitlines()[0],
            "timings": timings,
        }
        if self.args.smoke:  # written out while the standings are measured (`go` waits)
            self.checkpointing = threading.Thread(target=self.checkpoint)
            self.checkpointing.start()
        else:
            self.checkpoint()

    def checkpoint(self) -> None:
        """Write the season's pages out now (PostgreSQL's CHECKPOINT), outside every timed
        step, so that no step measures the load's write-back. (On 25 November's fourth
        session it found 0.7 s of writing left: the first run's higher recording p99
        there, 105 ms against 64 and 76 in two runs after it, was not that.)"""
        import psycopg

        t0 = time.monotonic()
        with psycopg.connect(self.db_url, autocommit=True) as conn:
            conn.execute("CHECKPOINT")
        self.results["season"]["checkpoint_seconds"] = time.monotonic() - t0
        log(f"checkpoint after the load: {time.monotonic() - t0:.1f} s")

    def standings(self) -> None:
        import redis

        log("full recalculation against the SQL baseline")
        self.results["standings"] = self.phase("standings", "--repeat", str(self.sizes["repeat"]))
        self.phase("explain", "--out", str(self.out / "explain.json"))
        log("incremental recalculation after one recorded hand")
        self.results["incremental"] = self.phase(
            "incremental", "--samples", str(self.sizes["samples"]),
            env={**self.env, "CELERY_QUEUE": self.discarded},
        )  # fmt: skip
        # Drop what the timed recordings enqueued (and their "queued" flags, which would
        # hold back the next minute's recalculations).
        cache = redis.Redis.from_url(self.args.redis)
        for pattern in ("bench:1:standings:queued:*", f"*{self.discarded}*"):
            for key in cache.scan_iter(pattern):
                cache.delete(key)

    def gunicorn_argv(self, port: int) -> list[str]:
        return [
            PYTHON, "-m", "gunicorn", "bench.wsgi:application", "--config", GUNICORN_CONFIG,
            "--bind", f"127.0.0.1:{port}", "--workers", str(self.args.workers), "--worker-class",
            self.args.worker_class, "--threads", str(self.args.threads), "--backlog", "2048",
            "--log-level", "warning",
        ]  # fmt: skip

    def serve(self) -> dict[str, Server]:
        """gunicorn with the bench URLconf, and a Celery worker against Redis (neither
        started yet)."""
        gunicorn = self.gunicorn_argv(self.port)
        worker = [
            PYTHON, "-m", "celery", "-A", "config", "worker", "--loglevel=INFO",
            "--concurrency=2", "--pool=prefork", "-Q", self.queue, "-n", f"{self.queue}@%h",
            "--without-gossip", "--without-mingle", "--without-heartbeat",
        ]  # fmt: skip
        worker_log = self.out / "celery.log"
        return {
            "gunicorn": self.new_server(
                "gunicorn", gunicorn, lambda: http_ok(f"{self.url}/bench/trivial/")
            ),
            "celery": self.new_server("celery", worker, lambda: "ready." in worker_log.read_text()),
        }

    def boot(self, steps: list[str], served: list[str]) -> dict[str, Server]:
        """A smoke run's servers (--smoke), started before the season is made: they boot
        while it is made and the standings are measured, which a smoke run's figures may
        show; a full run starts them after the standings, so that no figure has their
        booting in it. The hosts step's second gunicorn, the phases' process, and the
        standings' two measuring phases' processes (a process each still) too."""
        servers = self.serve() if served else {}
        if "hosts" in served:
            self.booted["gunicorn-2"], self.second_url = self.second_gunicorn()
        if "standings" in steps:
            discarded = {**self.env, "CELERY_QUEUE": self.discarded}
            for name, env in (("standings", self.env), ("incremental", discarded)):
                self.own[name] = PhaseProcess(
                    PYTHON, out=self.out, cwd=ROOT, env=env, name=f"phases-{name}"
                )
        for server in (*servers.values(), *self.booted.values(), *self.own.values(), self.phases):
            server.start()
        return servers

    def second_gunicorn(self) -> tuple[Server, str]:
        """The hosts step's second gunicorn, on a port of its own (not started yet)."""
        url = f"http://127.0.0.1:{free_port()}"
        argv = self.gunicorn_argv(int(url.rsplit(":", 1)[1]))
        return self.new_server("gunicorn-2", argv, lambda: http_ok(f"{url}/bench/trivial/")), url

    def prepare(self, name: str, clients: int) -> Path:
        """A plan for the load generator: `clients` new tables on the open evening, each
        with four players and a rubber begun. Loads that follow on the same plan carry
        on at the same tables (`load`), so the season's players are not used up."""
        plan = self.out / f"plan-{name}.json"
        self.phase("prepare-load", "--clients", str(clients), "--plan", str(plan))
        self.plan_results[plan] = []
        return plan

    def vacuum_churned(self) -> None:
        """Where the server's autovacuum is off (a CI machine's setting: this workplace's
        is), vacuum the tables the loads churn, as autovacuum would have since the last
        step: else the dead rows of every earlier step and run (the standings' outbox:
        127,000 dead rows for 200 live after a few runs) slow each read of them, and the
        figures drift with the machine's history rather than the code. Not counted in
        any step's CPU; autovacuum's own work during a step is (its workers are the
        database's backends)."""
        import psycopg

        if self.args.smoke:  # a few thousand rows, and figures nobody reads
            return
        with psycopg.connect(self.db_url, autocommit=True) as conn:
            if conn.execute("SHOW autovacuum").fetchone()[0] == "on":
                return
            for table in CHURNED:
                conn.execute(f"VACUUM (ANALYZE) {table}")
        self.results.setdefault("vacuumed", True)
        log(f"autovacuum is off on this server: vacuumed {len(CHURNED)} churned tables")

    def load(self, name: str, plan: Path, *, seconds: float, think: float,
             clients: int | None = None, urls: list[str] | None = None,
             freshness: bool = False) -> dict:  # fmt: skip
        """Tables of `plan` posting hands for `seconds` (to gunicorn, or spread over
        several), then every hand the plan's tables were ever answered 201 for checked
        against the stored ones (lost, doubled, changed). The figures of this load, its
        CPU by kind of process, and the raw record for freshness.

        The load generator waits, once its tables stop, until the reader has seen every
        hand on the standings: so the worker's catching up is counted in this load's CPU,
        not in the next load's. A smoke run (--smoke) waits so only where the freshness is
        read (`freshness`: the recording)."""
        import redis

        result = self.out / f"{name}.json"
        # Each load starts with the per-address throttles' windows empty, as the first
        # did: the same tables (addresses) must not be held back by an earlier step.
        cache = redis.Redis.from_url(self.args.redis)
        for key in cache.scan_iter("bench:*throttle_*"):
            cache.delete(key)
        cache.delete(BENCH_CPU_KEY)
        self.vacuum_churned()
        self.results["load"][name] = load_average()
        with self.cpu_watch() as used:
            self.run(name, [
                PYTHON, "bench/load.py", "--plan", str(plan), "--url", ",".join(urls or [self.url]),
                "--seconds", str(seconds), "--think", str(think), "--out", str(result),
                *(["--clients", str(clients)] if clients is not None else []),
                *(["--settle", "0"] if self.args.smoke and not freshness else []),
            ], timeout=seconds + 180)  # fmt: skip
        load = json.loads(result.read_text())
        # bench/wsgi.py's processes add up their last figures (every 0.2 s).
        made = {"record": len(load["latencies"]), "start": len(load["starts"])}
        by_kind = request_cpu(settled_hash(cache, BENCH_CPU_KEY, at_least=made))
        self.plan_results[plan].append(str(result))
        check = self.phase(
            "verify", "--plan", str(plan), "--result", ",".join(self.plan_results[plan])
        )
        # The tables carry on from where this load left them: their rubbers now.
        data = json.loads(plan.read_text())
        final = {f["table"]: f for f in load["final"]}
        for client in data["clients"]:
            if client["table"] in final:
                client["rubber"] = final[client["table"]]["rubber"]
                client["players"] = final[client["table"]]["players"]
        plan.write_text(json.dumps(data))
        latencies = sorted(load["latencies"])
        inside = sorted(ms / 1000 for ms in load.get("server_ms", []))
        figures = {
            "tables": load["clients"],
            "servers": load.get("servers", 1),
            "seconds": load["seconds"],
            "hands": len(latencies),
            "per_second": len(latencies) / load["seconds"],
            "p50": percentile(latencies, 50),
            "p99": percentile(latencies, 99),
            "max": latencies[-1] if latencies else None,
            # The same hands timed inside the application (bench/wsgi.py): what the tables
            # waited beyond it is the network, gunicorn's queue and the cores' queue.
            "server_p50": percentile(inside, 50),
            "server_p99": percentile(inside, 99),
            "errors": len(load["errors"]),
            "error_samples": load["errors"][:5],
            "starts": len(load["starts"]),
            "starts_p99": percentile(sorted(load["starts"]), 99),
            "cpu_ms_per_hand": {
                **{
                    k: 1000 * v / max(1, len(latencies) + len(load["starts"]))
                    for k, v in used.items()
                },
                "load generator": 1000 * load.get("cpu_seconds", 0) / max(1, len(latencies)),
            },
            "reader_polls": load["reader"]["polls"],
            "request_cpu": by_kind,
            "cpu_ms_recorded_hand": recorded_hand_cpu(by_kind, used, len(latencies)),
            **check,
        }
        figures["clean"] = not (
            figures["errors"] or figures["lost"] or figures["doubled"] or figures["changed"]
        )
        return {**figures, "raw": load}

    def record(self) -> None:
        s = self.sizes
        self.record_plan = self.prepare("record", s["clients"])
        log(f"{s['clients']} tables posting hands for {s['record']} s (think {self.args.think} s)")
        processes = {"gunicorn": self.groups["gunicorn"], "celery": self.groups["celery"]}
        with profile.recording(
            self.out, processes if self.args.profile else {}, s["record"]
        ) as top:
            figures = self.load(
                "record", self.record_plan, seconds=s["record"], think=self.args.think,
                freshness=True,
            )  # fmt: skip
        for name, entries in top.items():
            log(profile.format_entries(f"profile of {name} while recording", entries))
        if top:
            self.results["profile"] = top
        load = figures.pop("raw")
        freshness = sorted(load["freshness"])
        self.results["record"] = figures
        self.results["freshness"] = {
            "measured": len(freshness),
            "unseen": load["unseen"],
            "p50": percentile(freshness, 50),
            "p95": percentile(freshness + [float("inf")] * load["unseen"], 95),
            "max": freshness[-1] if freshness else None,
            "versions_seen": load["reader"]["versions"],
            "reader_errors": load["reader"]["errors"],
        }

    def mixed(self) -> None:
        """The recording's tables again, while wrk reads the public standings page: both
        figures, beside the same figures measured alone earlier in the run."""
        s = self.sizes
        plan = getattr(self, "record_plan", None) or self.prepare("record", s["clients"])
        page = f"{self.url}/clubs/{self.args.club}/tournaments/season/"
        http_ok(page)
        log(f"mixed: {s['clients']} tables recording while wrk reads the standings page, "
            f"{s['record']} s")  # fmt: skip
        self.results["load"]["mixed"] = load_average()
        wrk_log = (self.out / "wrk-mixed.log").open("w+")
        reader = subprocess.Popen(
            ["wrk", "-t2", f"-c{self.args.connections}", f"-d{s['record']}s", "--latency",
             "--timeout", "5s", page],
            stdout=wrk_log, stderr=subprocess.STDOUT, cwd=ROOT,
        )  # fmt: skip
        try:
            figures = self.load("load-mixed", plan, seconds=s["record"], think=self.args.think)
        finally:
            reader.wait(timeout=s["record"] + 60)
            wrk_log.seek(0)
            out = wrk_log.read()
            wrk_log.close()
        figures.pop("raw")
        self.results["mixed"] = {"record": figures, "page": parse_wrk(out)}

    def capacity(self) -> None:
        """More and more tables, each recording a hand every `--think` seconds, until the
        99th percentile of the recording passes 250 ms (or a hand is lost, doubled or
        refused): the last table count that held."""
        s = self.sizes
        plan = self.prepare("capacity", s["capacity_max"])
        steps, held = [], 0
        counts = range(s["capacity_start"], s["capacity_max"] + 1, s["capacity_step"])
        for tables in counts:
            log(f"capacity: {tables} tables for {s['capacity_seconds']} s")
            figures = self.load(
                f"load-capacity-{tables}", plan, seconds=s["capacity_seconds"],
                think=self.args.think, clients=tables,
            )  # fmt: skip
            figures.pop("raw")
            ok = figures["clean"] and figures["p99"] is not None and figures["p99"] < CAPACITY_P99
            steps.append({**figures, "held": ok})
            if not ok:
                break
            held = tables
        self.results["capacity"] = {
            "held": held,
            "limit_found": bool(steps) and not steps[-1]["held"],
            "steps": steps,
        }

    def hosts(self) -> None:
        """Recording as fast as the tables are answered (`--hosts-think`), against one
        gunicorn, then against two gunicorn instances on the one database with the tables
        dealt between them: the hands a second each way, and every hand checked once
        across both (none lost or doubled)."""
        s, think = self.sizes, self.args.hosts_think
        # The recording's tables, carrying on (the season's players are not used up).
        plan = getattr(self, "record_plan", None) or self.prepare("record", s["clients"])
        log(f"one gunicorn: {s['clients']} tables, think {think} s, {s['hosts_seconds']} s")
        one = self.load("load-one-host", plan, seconds=s["hosts_seconds"], think=think)
        one.pop("raw")
        # Started here, after the one gunicorn's load, so that its booting is in no
        # figure; a smoke run (--smoke) started it with the others (`boot`).
        web2, second = self.booted.get("gunicorn-2"), getattr(self, "second_url", None)
        if web2 is None:
            web2, second = self.second_gunicorn()
        try:
            self.groups["gunicorn-2"] = web2.wait().pid
            log(f"two gunicorns: the same tables dealt between them, {s['hosts_seconds']} s")
            two = self.load(
                "load-two-hosts", plan, seconds=s["hosts_seconds"], think=think,
                urls=[self.url, second],
            )  # fmt: skip
        finally:
            self.groups.pop("gunicorn-2", None)
            if self.args.smoke:  # ended at once, waited for at the end (`go`)
                web2.terminate(kill=True)
            else:
                web2.stop()
        two.pop("raw")
        self.results["hosts"] = {"think": think, "one": one, "two": two}

    def pages(self) -> None:

        s = self.sizes
        settled = self.phase("settle", "--timeout", "60")
        self.results["consistency"] = {
            "waiting": settled["waiting"],
            "wrong": settled["wrong_totals"],
            "players": settled["players"],
        }
        tslug = "season"
        page = f"{self.url}/clubs/{self.args.club}/tournaments/{tslug}/"
        trivial = f"{self.url}/bench/trivial/"
        http_ok(page)  # the slugs, the version and the whole page are cached from here on
        log(f"wrk: trivial view, then the cached standings page, {s['wrk']} s each")
        self.results["load"]["wrk"] = load_average()
        self.results["trivial"] = self.wrk("wrk-trivial", trivial)
        self.results["page"] = self.wrk("wrk-page", page)
        self.results["page"]["bytes"] = len(urllib.request.urlopen(page).read())
        # Pages 2 to 11, each asked for the first time: rendered from the database.
        times = []
        for number in range(2, 12):
            t0 = time.perf_counter()
            http_ok(f"{page}?page={number}")
            times.append(time.perf_counter() - t0)
        self.results["uncached"] = {"median": statistics.median(times), "max": max(times)}
        self.results["page"]["rows"] = settled["players"]

    def cpu(self) -> dict[str, dict[int, float]]:
        """CPU seconds so far of each process of gunicorn, of the Celery worker, and of
        the PostgreSQL backends serving the benchmark's database, these by the process
        they serve ("postgres:gunicorn", "postgres:celery"; "postgres:other" for the
        rest: the phases' own, autovacuum's)."""
        import psycopg

        with psycopg.connect(self.db_url) as conn:
            backends = conn.execute(
                "SELECT pid, application_name FROM pg_stat_activity WHERE datname = %s "
                "AND pid <> pg_backend_pid()",
                [self.args.db],
            ).fetchall()
        found = {name: group_cpu(pgid) for name, pgid in self.groups.items()}
        for pid, application in backends:
            served = application.removeprefix(APP_PREFIX)
            kind = f"postgres:{served.split('-')[0] if served in self.groups else 'other'}"
            if (seconds := cpu_of(pid)) is not None:
                found.setdefault(kind, {})[pid] = seconds
        return found

    @contextmanager
    def cpu_watch(self):
        """The CPU seconds gunicorn, the worker and their PostgreSQL backends use during
        the block, by kind (filled in when it ends). Sampled every two seconds, so that
        a backend that ends meanwhile (connections are recycled after a minute) counts
        up to its last sample."""
        used: dict[str, float] = {}
        before = self.cpu()
        last = {kind: dict(pids) for kind, pids in before.items()}
        stop = threading.Event()

        def sample():
            while not stop.wait(2):
                for kind, pids in self.cpu().items():
                    last.setdefault(kind, {}).update(pids)

        thread = threading.Thread(target=sample, daemon=True)
        thread.start()
        try:
            yield used
        finally:
            stop.set()
            thread.join()
            for kind, pids in self.cpu().items():
                last.setdefault(kind, {}).update(pids)
            used.update(cpu_used(before, last))

    def wrk(self, name: str, url: str) -> dict:
        with self.cpu_watch() as used:
            out = self.run(name, [
                "wrk", "-t2", f"-c{self.args.connections}", f"-d{self.sizes['wrk']}s",
                "--latency", "--timeout", "5s", url,
            ], timeout=self.sizes["wrk"] + 60)  # fmt: skip
        figures = parse_wrk(out)
        figures["cpu_ms_per_request"] = {
            k: 1000 * v / max(1, figures["requests"]) for k, v in used.items()
        }
        return figures

    def engine(self) -> None:
        log("the pure scoring engine")
        self.results["load"]["engine"] = load_average()
        out = self.run("score_engine", [
            PYTHON, "bench/score_engine.py", "--hands", str(self.sizes["engine"]),
        ], timeout=600)  # fmt: skip
        rates = {}
        for line in out.splitlines():
            match = re.match(r"(\w[\w -]*?(?:\(\d players\))?):\s+([\d,]+) (?:hands|deals)/s", line)
            if match:
                rates[" ".join(match.group(1).split())] = int(match.group(2).replace(",", ""))
        self.results["engine"] = rates

    def go(self) -> None:
        started = time.monotonic()
        skip = set(self.args.skip.split(",")) if self.args.skip else set()
        unknown = skip - set(STEPS)
        if unknown:
            raise SystemExit(f"--skip: no step {', '.join(sorted(unknown))}; steps: {STEPS}")
        steps = [step for step in STEPS if step not in skip]
        served = [step for step in steps if step not in ("standings", "engine")]
        servers: dict[str, Server] = {}
        try:
            # On a terminal, a bar over the run's steps (on standard error; none when piped).
            with progress_bar(total=2 + len(steps), unit="steps", desc="database") as bar:
                self.versions()
                self.database()
                if self.args.smoke:
                    servers = self.boot(steps, served)
                bar.update()
                bar.set_description("make_season")
                self.season()
                bar.update()

                def step(name: str) -> None:
                    bar.set_description(name)
                    getattr(self, name)()
                    bar.update()

                if "standings" in steps:
                    step("standings")
                if checkpointing := getattr(self, "checkpointing", None):
                    checkpointing.join()
                if served:
                    # One gunicorn and one worker serve every step (the hosts step adds
                    # its second gunicorn): both boot side by side and are waited for
                    # together, and are stopped so.
                    servers = servers or self.serve()
                    for server in servers.values():
                        server.start()
                    self.groups = {name: server.wait().pid for name, server in servers.items()}
                    for name in served:
                        step(name)
                    if self.args.smoke:  # ended at once, waited for at the end (`finally`)
                        for server in servers.values():
                            server.terminate(kill=True)
                    else:
                        stop_all(servers.values())
                if "engine" in steps:
                    step("engine")
        finally:
            stop_all([*servers.values(), *self.booted.values(), *self.own.values(), self.phases])
        self.results["machine"]["load_at_end"] = load_average()
        self.results["total_seconds"] = time.monotonic() - started
        (self.out / "results.json").write_text(json.dumps(self.results, indent=1, default=str))
        table = report(self.results, self.args)
        print(table)
        if not self.args.no_write:
            write_figures(ROOT / "BENCHMARKS.md", table)
            log("written to BENCHMARKS.md")


# helpers ----------------------------------------------------------------------------------


def cpu_of(pid: int) -> float | None:
    """User and system CPU seconds a process has used (Linux /proc), or None if gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def group_cpu(pgid: int) -> dict[int, float]:
    """CPU seconds of every process in a process group (a server and its workers)."""
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with suppress(OSError, IndexError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[2]) == pgid:
                    out[int(entry.name)] = (int(fields[11]) + int(fields[12])) / os.sysconf(
                        "SC_CLK_TCK"
                    )
    return out


APP_PREFIX = "bench-"  # the PostgreSQL application name of a served process: bench-gunicorn


def cpu_used(before: dict, after: dict) -> dict[str, float]:
    """CPU seconds used between two snapshots, by kind of process (a process that
    started meanwhile counts in full; one that ended meanwhile is missed)."""
    return {
        kind: sum(seconds - before.get(kind, {}).get(pid, 0.0) for pid, seconds in pids.items())
        for kind, pids in after.items()
    }


def cpu_model() -> str:
    with suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor()


def percentile(values: list[float], p: float) -> float | None:
    """The p-th percentile of sorted values (nearest rank)."""
    if not values:
        return None
    rank = max(1, round(p / 100 * len(values)))
    return values[min(rank, len(values)) - 1]


_UNITS = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}


def parse_wrk(out: str) -> dict:
    """Requests per second, latency percentiles (seconds) and errors from wrk's output."""

    def seconds(text: str) -> float:
        number, unit = re.match(r"([\d.]+)(us|ms|s|m)", text).groups()
        return float(number) * _UNITS[unit]

    figures = {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))}
    for p in ("50", "90", "99"):
        match = re.search(rf"^\s+{p}%\s+(\S+)", out, re.MULTILINE)
        figures[f"p{p}"] = seconds(match.group(1)) if match else None
    errors = re.search(r"Socket errors: (.*)", out)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    figures["errors"] = (errors.group(1) if errors else "none") + (
        f"; {non2xx.group(1)} non-2xx" if non2xx else ""
    )
    figures["requests"] = int(re.search(r"(\d+) requests in", out).group(1))
    return figures


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (about two minutes)")
    parser.add_argument("--players", type=int)
    parser.add_argument("--evenings", type=int)
    parser.add_argument("--hands", type=int)
    parser.add_argument("--clients", type=int)
    parser.add_argument("--record", type=int, help="seconds of recording")
    parser.add_argument("--wrk", type=int, help="seconds of each wrk run")
    parser.add_argument("--samples", type=int, help="incremental recalculations timed")
    parser.add_argument("--repeat", type=int, help="full recalculations timed")
    parser.add_argument("--engine", type=int, help="hands per game for bench/score_engine.py")
    parser.add_argument("--seed", type=int, default=1888)
    parser.add_argument("--club", default="season-club")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a table waits")
    # Production's settings (config/gunicorn.conf.py) unless told otherwise.
    production = runpy.run_path(GUNICORN_CONFIG)
    parser.add_argument(
        "--workers", type=int, default=production["workers"], help="gunicorn workers"
    )
    parser.add_argument(
        "--threads", type=int, default=production["threads"], help="threads per gunicorn worker"
    )
    parser.add_argument(
        "--worker-class",
        default=production["worker_class"],
        choices=["gthread", "sync"],
        help="gunicorn's",
    )
    parser.add_argument("--connections", type=int, default=16, help="wrk connections")
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--db", default="cardclub_bench")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--settings", default="bench.settings")
    parser.add_argument("--reuse", action="store_true", help="keep the database and its season")
    parser.add_argument(
        "--template",
        help="copy the database from this migrated one instead of migrating it (the tests')",
    )
    parser.add_argument(
        "--profile", action="store_true",
        help="py-spy records gunicorn and the worker during the recording step",
    )  # fmt: skip
    parser.add_argument("--no-write", action="store_true", help="do not write BENCHMARKS.md")
    parser.add_argument(
        "--smoke", action="store_true",
        help="the tests' check that every step runs (with --quick and small sizes): the "
        "servers boot while the season is made, no vacuum; figures not to be read, never "
        "written to BENCHMARKS.md",
    )  # fmt: skip
    parser.add_argument("--skip", help=f"steps to leave out, comma-separated: {','.join(STEPS)}")
    parser.add_argument("--capacity-start", type=int, help="capacity: the first table count (10)")
    parser.add_argument("--capacity-step", type=int, help="capacity: tables added each time (10)")
    parser.add_argument(
        "--capacity-max", type=int, help="capacity: the most tables tried (full 200, quick 20)"
    )
    parser.add_argument(
        "--capacity-seconds", type=int, help="capacity: seconds at each count (full 20, quick 5)"
    )
    parser.add_argument(
        "--hosts-seconds", type=int, help="hosts: seconds with one gunicorn, then with two"
    )
    parser.add_argument(
        "--hosts-think", type=float, default=0.2,
        help="hosts: seconds a table waits between hands (0.2: more than two cores take, "
        "and under the per-address throttle of 600 a minute)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    args.no_write = args.no_write or args.smoke
    if args.db in ("cardclub", "postgres"):
        raise SystemExit("the benchmark drops its database: give it one of its own")
    Bench(args).go()


if __name__ == "__main__":
    main()
