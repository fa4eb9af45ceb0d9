"""Settings read from the environment: the laptop default and the production posture."""

import contextlib
import os
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_check(env_overrides: dict, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, "manage.py", "check", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_refuses_to_start_without_a_real_secret_key():
    result = run_check({"DJANGO_ENV": "production", "ALLOWED_HOSTS": "club.example"})
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_production_refuses_the_development_key():
    result = run_check(
        {
            "DJANGO_ENV": "production",
            "SECRET_KEY": "dev-only-insecure-key-do-not-use-in-production",
            "ALLOWED_HOSTS": "club.example",
        }
    )
    assert result.returncode != 0


def test_check_deploy_is_clean_under_production_settings():
    result = run_check(
        {
            "DJANGO_ENV": "production",
            "SECRET_KEY": "k" * 20 + "x8#Qv!p2Lz@9wR$tY7uB^nM4cE&sJ1hG" + "f" * 10,
            "ALLOWED_HOSTS": "club.example",
        },
        "--deploy",
        "--fail-level",
        "WARNING",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_laptop_default_is_sqlite_with_eager_tasks(monkeypatch):
    code = (
        "from django.conf import settings as s; import django; django.setup();"
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER,"
        " s.CACHES['default']['BACKEND'])"
    )
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_ENV", "SECRET_KEY"}
    }
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.stdout.split() == [
        "django.db.backends.sqlite3",
        "True",
        "django.core.cache.backends.locmem.LocMemCache",
    ], out.stderr


def test_the_laptops_sqlite_waits_for_a_writer_and_tests_in_a_temporary_file(tmp_path):
    """The quickstart's SQLite file (db.sqlite3, here one in a temporary folder): WAL on the
    file, every transaction begun as a writer (BEGIN IMMEDIATE), 20 s waited for another,
    so that phones recording at once on its server wait, never fail "database is locked"
    (tests/club/test_phones_at_once.py: the same options on the test database, a file
    too). The tests' database is a file of each test process's own, in /dev/shm or the
    system's temporary folder, never in the checkout."""
    code = (
        "import django; django.setup(); from django.conf import settings as s;"
        "from django.db import connection as c; cursor = c.cursor();"
        "cursor.execute('PRAGMA journal_mode'); print(cursor.fetchone()[0], c.transaction_mode,"
        " s.DATABASES['default']['OPTIONS']['timeout'], s.DATABASES['default']['TEST']['NAME'])"
    )
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DJANGO_ENV"}}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    journal, transactions, timeout, test_name = out.stdout.split()
    assert (journal, transactions, timeout) == ("wal", "IMMEDIATE", "20"), out.stderr
    # WAL is kept in the file itself: a later connection, even sqlite3's own, finds it.
    with contextlib.closing(sqlite3.connect(tmp_path / "db.sqlite3")) as kept:
        assert kept.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    test_database = Path(test_name)
    assert test_database.parent in {Path("/dev/shm"), Path(tempfile.gettempdir())}
    assert test_database.name.startswith("cardclub-test-") and ROOT not in test_database.parents


def test_a_killed_runs_test_databases_are_cleared_by_the_next_run():
    """A SQLite run killed midway leaves its test database (and -wal, -shm) in /dev/shm or
    the temporary folder; the next run's processes clear those of processes gone
    (tests/conftest.py, pytest_sessionstart), never a live process's."""
    from tests.conftest import pytest_sessionstart

    folder = Path("/dev/shm") if os.access("/dev/shm", os.W_OK) else Path(tempfile.gettempdir())
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    left = [folder / f"cardclub-test-{gone}.sqlite3{end}" for end in ("", "-wal", "-shm")]
    alive = folder / f"cardclub-test-{os.getpid()}.sqlite3-kept-by-this-test"
    try:
        for path in [*left, alive]:
            path.write_bytes(b"")
        pytest_sessionstart(None)
        assert not any(path.exists() for path in left)
        assert alive.exists()  # this process's own: still running
    finally:
        for path in [*left, alive]:
            path.unlink(missing_ok=True)


@pytest.mark.parametrize(
    ("url", "engine"),
    [("postgres://postgres@127.0.0.1:5432/cardclub", "django.db.backends.postgresql")],
)
def test_database_url_selects_postgresql(url, engine):
    code = (
        "import django; django.setup(); from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER,"
        " s.CELERY_BROKER_URL, s.CACHES['default']['BACKEND'])"
    )
    env = dict(os.environ, DATABASE_URL=url, REDIS_URL="redis://127.0.0.1:6379/5")
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.stdout.split() == [
        engine,
        "False",
        "redis://127.0.0.1:6379/5",
        "django_redis.cache.RedisCache",
    ], out.stderr


def test_retry_backoff_stays_below_the_visibility_timeout(settings):
    from config.celery import ClubTask

    assert ClubTask.retry_backoff_max < settings.CELERY_VISIBILITY_TIMEOUT
    assert settings.CELERY_TASK_TIME_LIMIT < settings.CELERY_VISIBILITY_TIMEOUT
    assert settings.CELERY_TASK_SOFT_TIME_LIMIT < settings.CELERY_TASK_TIME_LIMIT
    assert ClubTask.acks_late and ClubTask.reject_on_worker_lost
    assert 0 < ClubTask.max_retries <= 10


def test_pages_carry_a_content_security_policy(client, settings, db):
    settings.CSP_ENABLED = True
    page = client.get("/")
    assert "script-src 'self';" in page["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in page["Content-Security-Policy"]
    docs = client.get("/api/docs/")
    assert "'unsafe-inline'" in docs["Content-Security-Policy"]  # Swagger UI's start-up script


@pytest.mark.parametrize(
    ("given", "worker", "with_pytest", "expected"),
    [
        ("redis://127.0.0.1:6379/0", "gw0", True, "redis://127.0.0.1:6379/1"),
        ("redis://127.0.0.1:6379/9", "gw1", True, "redis://127.0.0.1:6379/11"),
        ("redis://127.0.0.1:6379", "gw1", True, "redis://127.0.0.1:6379/2"),
        # A process a test starts (a Celery worker) inherits the variable but imports no
        # pytest: it keeps the URL it was handed, which is already the test process's.
        ("redis://127.0.0.1:6379/2", "gw1", False, "redis://127.0.0.1:6379/2"),
        ("redis://127.0.0.1:6379/0", "", True, "redis://127.0.0.1:6379/0"),
    ],
)
def test_each_test_process_of_a_parallel_run_has_its_own_redis_database(
    given, worker, with_pytest, expected
):
    """`pytest -n 2`: each test process empties its Redis database before every test, so
    two sharing one would wipe each other's throttles, pages and queues mid-test."""
    code = (
        ("import pytest\n" if with_pytest else "")
        + "import django\ndjango.setup()\nfrom django.conf import settings\n"
        "print(settings.REDIS_URL, settings.CELERY_BROKER_URL,\n"
        "      settings.CACHES['default']['LOCATION'])"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    env.update(
        REDIS_URL=given, PYTEST_XDIST_WORKER=worker, DJANGO_SETTINGS_MODULE="config.settings"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120, check=True,
    )  # fmt: skip
    assert out.stdout.split() == [expected] * 3


PRODUCTION = {
    "DJANGO_ENV": "production",
    "SECRET_KEY": "k" * 20 + "x8#Qv!p2Lz@9wR$tY7uB^nM4cE&sJ1hG" + "f" * 10,
    "ALLOWED_HOSTS": "club.example",
}
SECURE_AS_CLAIMED = (
    "from django.test import RequestFactory; "
    "r = RequestFactory().get('/', HTTP_HOST='club.example', HTTP_X_FORWARDED_PROTO='https'); "
    "print('secure' if r.is_secure() else 'plain')"
)


@pytest.mark.parametrize(("proxies", "taken_as"), [("0", "plain"), ("1", "secure")])
def test_x_forwarded_proto_is_believed_only_from_a_proxy_of_ours(proxies, taken_as):
    """With no proxy declared (TRUSTED_PROXY_COUNT 0) the caller writes X-Forwarded-Proto
    himself: a plain HTTP request claiming "https" is still plain, so the SSL redirect and
    the secure cookies hold; behind a declared proxy, the proxy's word is taken."""
    # One process does both, as two did (settings are read once a process): Django's
    # deploy checks at WARNING, then a request that claims https.
    code = (
        "from django.core.management import call_command; "
        "call_command('check', '--deploy', '--fail-level', 'WARNING'); " + SECURE_AS_CLAIMED
    )
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    env.update({**PRODUCTION, "TRUSTED_PROXY_COUNT": proxies})
    shell = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert shell.returncode == 0, shell.stderr
    assert shell.stdout.strip().splitlines()[-1] == taken_as
