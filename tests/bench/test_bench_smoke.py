"""The benchmark command runs from end to end (a smoke run: every step, a second of
load each), and the pieces that keep that run short work as they should: the untimed
phases answered one after another by one process, a table that stops when its load ends.

The run needs what the benchmark needs: PostgreSQL, Redis and Debian's wrk. It uses a
database and a Redis database of its own, never the test run's, and leaves
BENCHMARKS.md alone.
"""

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.load import Table
from bench.report import BY_PROCESS
from bench.servers import PhaseProcess
from tests.conftest import needs, needs_program

ROOT = Path(__file__).resolve().parents[2]
# A smoke run (--smoke): the servers boot while the season is made, and nothing is done
# that only a full run's figures need (bench/run.py); --smoke never writes BENCHMARKS.md.
# Each load lasts a second, and each gunicorn has two workers (production's shape, two
# a core, booted four Django processes an instance, a quarter of the run's CPU): every
# step still runs, prints its figures and has its hands checked.
SMOKE = [
    "--smoke", "--quick", "--hands", "5000", "--players", "200", "--evenings", "10",
    "--clients", "10", "--record", "1", "--wrk", "1", "--engine", "5000", "--samples", "3",
    "--repeat", "1", "--capacity-start", "3", "--capacity-step", "3", "--capacity-max", "6",
    "--capacity-seconds", "1", "--hosts-seconds", "1", "--workers", "2",
    "--redis", "redis://127.0.0.1:6379/13",
]  # fmt: skip


def postgres_server(settings) -> str:
    """The test run's PostgreSQL server, as a URL without a database."""
    db = settings.DATABASES["default"]
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"


@pytest.mark.long
@pytest.mark.postgres
def test_the_quick_benchmark_runs(settings, postgres_template):
    needs(settings.IS_POSTGRES and bool(settings.REDIS_URL), "needs PostgreSQL and Redis")
    needs_program("wrk")
    before = (ROOT / "BENCHMARKS.md").read_bytes() if (ROOT / "BENCHMARKS.md").exists() else None
    db = settings.DATABASES["default"]
    postgres = postgres_server(settings)
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    # A database named after the run's own: two checkouts' runs side by side (CI's and a
    # developer's) never drop each other's.
    done = subprocess.run(
        [sys.executable, "bench/run.py", *SMOKE, "--postgres", postgres,
         "--db", f"{db['NAME']}_bench_smoke", "--template", postgres_template],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "| Scoring engine" in done.stdout
    runs = sorted((ROOT / "artifacts" / "bench").iterdir())
    results = json.loads((runs[-1] / "results.json").read_text())
    hands = int(SMOKE[SMOKE.index("--hands") + 1])
    assert results["season"]["summary"].count(f"{hands:,} hands") == 1
    assert results["season"]["checkpoint_seconds"] >= 0  # the load written out before timing
    record = results["record"]
    assert record["accepted"] > 0
    # The tables send the phone's body (the hand and its expected number) and learn each
    # rubber's next hand: none refused. Each hand's time inside the application comes back
    # (bench/wsgi.py) and is never more than the table waited for it.
    assert record["errors"] == 0, record["error_samples"]
    assert 0 < record["server_p50"] <= record["p50"]
    assert record["server_p99"] <= record["p99"]
    assert (record["lost"], record["doubled"], record["changed"]) == (0, 0, 0)
    # Each hand's request is charged its own PostgreSQL backend's CPU (bench/wsgi.py),
    # not more than all the backends serving gunicorn used (those sampled every two
    # seconds: a backend closed between samples is short there, hence the margin).
    hand = record["cpu_ms_recorded_hand"]
    by_process = hand[BY_PROCESS]
    requests_own = hand["postgres"] - by_process.get("celery", 0)
    assert record["request_cpu"]["record"]["pg_ms"] > 0
    assert 0 < requests_own <= by_process["gunicorn"] * 1.2
    assert results["consistency"]["wrong"] == []
    assert results["page"]["rps"] > 0 and results["trivial"]["rps"] > 0
    assert results["engine"]["euchre apply"] > 0
    # Recording while wrk reads the standings; the capacity ramp; two gunicorns on one
    # database, every hand at their tables stored once.
    mixed = results["mixed"]
    assert mixed["record"]["hands"] > 0 and mixed["page"]["rps"] > 0
    assert (mixed["record"]["lost"], mixed["record"]["doubled"]) == (0, 0)
    capacity = results["capacity"]
    assert [step["tables"] for step in capacity["steps"]][:1] == [3]
    assert capacity["held"] in (0, 3, 6)
    hosts = results["hosts"]
    assert hosts["two"]["servers"] == 2 and hosts["one"]["servers"] == 1
    assert hosts["one"]["hands"] > 0 and hosts["two"]["hands"] > 0
    assert (hosts["two"]["lost"], hosts["two"]["doubled"], hosts["two"]["changed"]) == (0, 0, 0)
    for row in ("| Mixed:", "| Capacity:", "| Two gunicorn instances"):
        assert row in done.stdout
    assert "\r" not in done.stderr  # no progress bar: its output is not a terminal
    after = (ROOT / "BENCHMARKS.md").read_bytes() if (ROOT / "BENCHMARKS.md").exists() else None
    assert after == before


@pytest.mark.postgres
def test_the_phases_process_answers_each_phase_in_turn(settings, postgres_template, tmp_path):
    """bench/run.py's untimed phases run one after another in one process (`bench.phases
    serve`): each answered on a line of its own, a failing one with its traceback while
    the process carries on, and no PostgreSQL backend held between phases (a load's
    figures count every backend's CPU)."""
    import psycopg

    needs(settings.IS_POSTGRES, "needs PostgreSQL")
    server, name = postgres_server(settings), f"{settings.DATABASES['default']['NAME']}_phases"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{postgres_template}"')
    application = f"phases-test-{os.getpid()}"
    env = {**os.environ, "DATABASE_URL": f"{server}/{name}", "PGAPPNAME": application,
           "DJANGO_SETTINGS_MODULE": "bench.settings"}  # fmt: skip
    # Table 1 of an evening there is not: the check reads the database, and finds nothing.
    plan, result = tmp_path / "plan.json", tmp_path / "result.json"
    plan.write_text(json.dumps({"evening": 0, "clients": [{"table": 1}]}))
    result.write_text(json.dumps({"accepted": []}))
    verify = ["verify", "--plan", str(plan), "--result", str(result)]
    phases = PhaseProcess(sys.executable, out=tmp_path, cwd=ROOT, env=env)
    try:
        figures, error = phases.call(verify, timeout=60)
        assert error is None and (figures["accepted"], figures["lost"]) == (0, 0)
        pid = phases.pid
        with psycopg.connect(f"{server}/postgres") as conn:
            held = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
                [application],
            ).fetchone()[0]
        assert held == 0
        figures, error = phases.call(["no-such-phase"], timeout=60)
        assert figures is None and "invalid choice: 'no-such-phase'" in error
        figures, error = phases.call(verify, timeout=60)
        assert error is None and figures["stored"] == 0 and phases.pid == pid
    finally:
        phases.stop()
        with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_table_stops_when_its_load_ends():
    """A table whose next hand would come after its load's end stops at the end, not a
    think later (bench/load.py): a load lasts its seconds, whatever the tables' think.
    Here the server refuses every connection, and the table's first hand is due 19 s in
    (a think of 60 s: each table starts at its own moment within its first think)."""
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = {"table": 1, "token": "x", "rubber": 1, "players": {"NS": [], "EW": []},
              "member_ids": {}}  # fmt: skip
    stop_at = time.time() + 0.5
    table = Table(0, {"club": "c"}, client, f"http://127.0.0.1:{port}", stop_at, 60, 1888)
    started = time.monotonic()
    table.run()
    assert time.monotonic() - started < 5
    assert time.time() >= stop_at
