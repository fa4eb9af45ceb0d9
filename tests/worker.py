"""A real Celery worker, started as a subprocess against Redis and the test database.

The worker gets its own queue name, so a developer's worker on the same Redis
never steals the test's tasks, and the DATABASE_URL of the test database, so
what it writes is what the test reads.
"""

import os
import subprocess
import sys
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def test_database_url() -> str:
    """The URL of the database the test process is using right now."""
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}{port}/{db['NAME']}"


@contextmanager
def celery_worker(
    *,
    concurrency: int = 1,
    extra_env: dict | None = None,
    pool: str = "prefork",
    queue: str | None = None,
):
    """Start `celery -A config worker` on a private queue; yield (process, queue, log path).

    Tasks the test enqueues go to that queue (the app's default queue is switched
    for the duration). The worker is stopped (TERM, then KILL) on exit.
    """
    from config.celery import app

    queue = queue or f"test-{uuid.uuid4().hex[:12]}"
    env = dict(
        os.environ,
        DATABASE_URL=test_database_url(),
        REDIS_URL=settings.REDIS_URL,
        # The test's own cache keys, whatever the environment says: a worker with
        # another prefix would never see the flags and progress the test reads.
        CACHE_KEY_PREFIX=settings.CACHES["default"].get("KEY_PREFIX", ""),
        CELERY_QUEUE=queue,
        DJANGO_ENV="test",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra_env or {})
    log = (ROOT / "artifacts").joinpath(f"worker-{queue}-{uuid.uuid4().hex[:6]}.log")
    log.parent.mkdir(exist_ok=True)
    handle = log.open("w")
    process = subprocess.Popen(
        [
            sys.executable, "-m", "celery", "-A", "config", "worker",
            "--loglevel=INFO", f"--concurrency={concurrency}", f"--pool={pool}",
            "-Q", queue, "-n", f"{queue}@%h",
            "--without-gossip", "--without-mingle", "--without-heartbeat",
        ],
        cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT,
    )  # fmt: skip
    previous = (app.conf.task_always_eager, app.conf.task_default_queue)
    app.conf.task_always_eager = False
    app.conf.task_default_queue = queue
    try:
        _wait_until_ready(log, process)
        yield process, queue, log
    finally:
        app.conf.task_always_eager, app.conf.task_default_queue = previous
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        handle.close()


def _wait_until_ready(log: Path, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"celery worker exited early:\n{log.read_text()}")
        if "ready." in log.read_text():
            return
        time.sleep(0.2)
    raise RuntimeError(f"celery worker not ready after {timeout}s:\n{log.read_text()}")


def wait_for(predicate, *, timeout: float = 30, interval: float = 0.1):
    """Poll until predicate() is truthy; return its value or raise AssertionError."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"condition not met within {timeout}s")
