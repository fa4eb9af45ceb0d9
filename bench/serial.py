"""One hand after another, in process: what a recorded hand costs when nothing else runs.

    python bench/serial.py --plan PLAN.json [--hands 300] [--profile OUT.prof]

Runs the load generator's tables (bench/load.py, the same requests: the phone's body
with its Idempotency-Key and table token) through Django's test client in this process,
against the benchmark's database (`DATABASE_URL`, as bench/run.py leaves it; PLAN.json
is the plan its recording step wrote), one hand at a time, the tables in turn. Prints
per recorded hand: this process's CPU (the request's whole Python path: middleware,
DRF, the service, the ORM, psycopg), its PostgreSQL backend's CPU (read from
/proc: the server must be on this machine), and the statements sent. With `--profile`,
cProfile's figures for the same hands go to OUT.prof (`python -m pstats OUT.prof`).

The first `--warm` hands are not counted (the connection's caches, the prepared
statements). No Celery worker is needed: the outbox rows the hands leave are swept by
the next recalculation, as after any load.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

if __name__ == "__main__":
    # The repository, not bench/ (whose profile.py would hide the standard library's).
    sys.path[0] = str(Path(__file__).resolve().parent.parent)
# As bench/run.py runs gunicorn: one proxy of ours in front (each table's address in
# X-Forwarded-For, so the per-address throttles count the tables apart), no DEBUG.
# Set when run as a script, never on import: a test process that imports this module
# must not hand them to the processes it starts (a Celery worker with another cache
# prefix would never see the test's keys).
SCRIPT_ENVIRONMENT = {
    "DJANGO_SETTINGS_MODULE": "bench.settings",
    "TRUSTED_PROXY_COUNT": "1",
    "DJANGO_ENV": "development",
    "DEBUG": "false",
    "LOG_LEVEL": "WARNING",
    "CACHE_KEY_PREFIX": "bench",
}


def script_environment() -> None:
    """The environment's defaults for a benchmark run as a script (SCRIPT_ENVIRONMENT's
    values where the caller's environment does not set them)."""
    for name, value in SCRIPT_ENVIRONMENT.items():
        os.environ.setdefault(name, value)


class InProcess:
    """bench/load.py's `Http`, answered by Django's test client in this process."""

    class Answer:
        def __init__(self, response):
            self.response = response

        def getheader(self, name: str):
            return self.response.headers.get(name)

    def __init__(self, client):
        self.client = client

    def request(self, method: str, path: str, body=None, headers=None):
        extra = {"HTTP_" + k.upper().replace("-", "_"): v for k, v in (headers or {}).items()}
        payload = json.dumps(body) if body is not None else None
        call = getattr(self.client, method.lower())
        response = call(path, payload, content_type="application/json", **extra)
        return response.status_code, self.Answer(response), response.content


def backend_cpu(pid: int) -> float:
    """Seconds of CPU (user and system) PostgreSQL's backend `pid` has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def in_process_tables(plan: dict, count: int) -> Callable[[int], None]:
    """The plan's first `count` tables (bench/load.py's), answered by Django's test client
    in this process and brought up to date with their rubbers: a function that records
    that many hands, the tables in turn (raising SystemExit if one is refused)."""
    from django.test import Client

    from bench.load import Table

    client = Client()
    tables = [
        Table(i, plan, c, "http://in-process", float("inf"), 0.0, 1888)
        for i, c in enumerate(plan["clients"][:count])
    ]
    for table in tables:
        table.http = InProcess(client)
        table._resync(wait=0)

    def hands(n: int) -> None:
        done = 0
        while done < n:
            for table in tables:
                if not table.one_hand():
                    raise SystemExit(f"refused: {table.errors[-1]}")
                done += 1

    return hands


def table_arguments(parser: argparse.ArgumentParser) -> None:
    """The in-process tables' arguments (`warmed_tables`): the plan, the warming, how many."""
    parser.add_argument("--plan", required=True)
    parser.add_argument("--warm", type=int, default=30, help="hands before counting")
    parser.add_argument("--tables", type=int, default=10, help="the plan's first N tables")


def warmed_tables(args) -> tuple[Callable[[int], None], int]:
    """Django set up, `in_process_tables` for `table_arguments`' values, their first
    `--warm` hands recorded: (the function recording hands, the PostgreSQL backend's pid,
    for `backend_cpu`)."""
    import django

    django.setup()
    from django.db import connection

    hands = in_process_tables(json.loads(Path(args.plan).read_text()), args.tables)
    hands(args.warm)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return hands, cursor.fetchone()[0]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    table_arguments(parser)
    parser.add_argument("--hands", type=int, default=300, help="hands counted")
    parser.add_argument("--profile", help="write cProfile's figures to this file")
    args = parser.parse_args(argv)
    hands, pid = warmed_tables(args)
    import cProfile

    from django.db import connection

    profiler = cProfile.Profile(time.process_time) if args.profile else None
    pg0, cpu0, wall0 = backend_cpu(pid), time.process_time(), time.perf_counter()
    sent = []

    def count(execute, sql, params, many, context):
        # Counted, not captured: Django's debug cursor (CaptureQueriesContext) renders
        # every statement with its parameters, which would be counted as the hand's CPU.
        sent.append(1)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        if profiler:
            profiler.enable()
        hands(args.hands)
        if profiler:
            profiler.disable()
    cpu, pg = time.process_time() - cpu0, backend_cpu(pid) - pg0
    wall = time.perf_counter() - wall0
    if profiler:
        profiler.dump_stats(args.profile)
    n = args.hands
    print(
        f"{n} hands in process: Python {1000 * cpu / n:.2f} ms a hand, PostgreSQL backend "
        f"{1000 * pg / n:.2f} ms, together {1000 * (cpu + pg) / n:.2f} ms; wall "
        f"{1000 * wall / n:.2f} ms; {len(sent) / n:.1f} statements a hand"
        + (" (cProfile on: Python's figure is inflated)" if profiler else "")
    )


if __name__ == "__main__":
    script_environment()
    main()
