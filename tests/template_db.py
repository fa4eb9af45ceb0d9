"""One migrated PostgreSQL database that a test run's databases are copied from.

Migrating a database from nothing takes fifteen seconds or more here (44 migrations, the
history's triggers among them). With two test processes each migrated its own test
database, side by side on two cores, and the benchmark's smoke test migrated a third. Now
the first process to need a database migrates one template, under an advisory lock the
others wait on, and every test database is a copy of it (`CREATE DATABASE ... TEMPLATE`,
a fraction of a second; Django's own migrate then finds every migration applied).

The template is named after the run's database (`test_<name>_template`), dropped by the
run's first process when it starts (a run that crashed may have left one, perhaps of
older migrations) and when it ends: nothing is kept from one run to the next. Without
PostgreSQL (SQLite), nothing here is used.

No Django at import: `.ci/run` loads the tests' conftest without Django for the engines.
"""

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]


def _postgres_url() -> str | None:
    url = os.environ.get("DATABASE_URL", "")
    return url if urlsplit(url).scheme in ("postgres", "postgresql", "pgsql") else None


def template_name(database: str) -> str:
    """The template for the run whose database is `database` (Django's test database
    is `test_<database>`, and a test process's `test_<database>_gw0`)."""
    return f"test_{database}_template"


def _with_database(url: str, database: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{database}"))


def _connect(url: str):
    import psycopg

    return psycopg.connect(_with_database(url, "postgres"), autocommit=True)


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def drop() -> None:
    """Drop the run's template if there is one (the run's first process, at its start and
    its end)."""
    url = _postgres_url()
    if url is None:
        return
    name = template_name(urlsplit(url).path.lstrip("/"))
    with _connect(url) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {_quoted(name)} WITH (FORCE)")


def ensure() -> str | None:
    """The run's migrated template, made by the first process to ask for it; None
    without PostgreSQL. A process that finds it being made waits for it."""
    url = _postgres_url()
    if url is None:
        return None
    name = template_name(urlsplit(url).path.lstrip("/"))
    with _connect(url) as conn:
        conn.execute("SELECT pg_advisory_lock(hashtext(%s))", [name])
        try:
            made = conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s AND NOT datistemplate"
                " AND NOT datallowconn",
                [name],
            ).fetchone()
            if not made:
                conn.execute(f"DROP DATABASE IF EXISTS {_quoted(name)} WITH (FORCE)")
                conn.execute(f"CREATE DATABASE {_quoted(name)}")
                migrated = subprocess.run(
                    [sys.executable, "manage.py", "migrate", "-v0"],
                    cwd=ROOT,
                    env={**os.environ, "DATABASE_URL": _with_database(url, name)},
                    capture_output=True,
                    text=True,
                )
                if migrated.returncode:
                    conn.execute(f"DROP DATABASE IF EXISTS {_quoted(name)} WITH (FORCE)")
                    raise RuntimeError(
                        f"migrating the test template {name} failed:\n"
                        + migrated.stdout
                        + migrated.stderr
                    )
                # Finished: no one may connect to it from now on, which is also how a
                # process that waited knows it is whole (and a copy needs no one on it).
                conn.execute(f"ALTER DATABASE {_quoted(name)} WITH ALLOW_CONNECTIONS false")
        finally:
            conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", [name])
    return name
