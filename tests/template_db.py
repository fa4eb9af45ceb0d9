"""One migrated PostgreSQL database that a test run's databases are copied from.

Migrating a database from nothing takes fifteen seconds or more here (44 migrations, the
history's triggers among them). With two test processes each migrated its own test
database, side by side on two cores, and the benchmark's smoke test migrated a third. Now
the first process to need a database migrates one template, under an advisory lock the
others wait on, and every test database is a copy of it (`CREATE DATABASE ... TEMPLATE`,
a fraction of a second; Django's own migrate then finds every migration applied).

The template is named after the run's database (`test_<name>_template`) and kept from one
run to the next, marked with a fingerprint of what makes its schema: every migration file,
the settings module and the installed packages' versions. A run whose fingerprint differs
(a migration added or changed, a package upgraded), or that finds a template left half
made, makes it again. Without PostgreSQL (SQLite), nothing here is used.

No Django at import: `.ci/run` loads the tests' conftest without Django for the engines.
"""

import hashlib
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


def fingerprint() -> str:
    """What the template's schema is made of: the migrations, the settings, the packages."""
    from importlib import metadata

    digest = hashlib.sha256()
    files = sorted(
        path
        for path in ROOT.glob("*/migrations/*.py")
        if not path.relative_to(ROOT).parts[0].startswith(".")
    )
    for path in [*files, ROOT / "config" / "settings.py"]:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    packages = sorted(f"{d.name}=={d.version}" for d in metadata.distributions())
    digest.update("\n".join(packages).encode())
    return f"migrated {digest.hexdigest()}"


def ensure() -> str | None:
    """The run's migrated template, made by the first process to ask for it; None
    without PostgreSQL. A process that finds it being made waits for it."""
    url = _postgres_url()
    if url is None:
        return None
    name = template_name(urlsplit(url).path.lstrip("/"))
    from psycopg import sql

    with _connect(url) as conn:
        conn.execute("SELECT pg_advisory_lock(hashtext(%s))", [name])
        try:
            # Whole (no one may connect to it once made) and of this schema.
            made = conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s AND NOT datallowconn"
                " AND shobj_description(oid, 'pg_database') = %s",
                [name, fingerprint()],
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
                # later process knows it is whole (and a copy needs no one on it).
                conn.execute(f"ALTER DATABASE {_quoted(name)} WITH ALLOW_CONNECTIONS false")
                conn.execute(
                    sql.SQL("COMMENT ON DATABASE {} IS {}").format(
                        sql.Identifier(name), sql.Literal(fingerprint())
                    )
                )
        finally:
            conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", [name])
    return name
