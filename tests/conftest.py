"""Fixtures for the usual actors: clubs, secretaries, API clients, a real worker.

Tests that need PostgreSQL or a real Celery worker skip on a laptop's SQLite run;
under `.ci/run` (CARDCLUB_REQUIRE_SERVICES=1) such a skip is turned into a failure,
so CI can never pass by not running them.
"""

import contextlib
import os
import shutil
from pathlib import Path

import pytest

from tests import template_db

REQUIRE_SERVICES = os.environ.get("CARDCLUB_REQUIRE_SERVICES") == "1"


def needs(condition: bool, reason: str):
    """Skip when a service is missing, except in CI, where that is an error."""
    if condition:
        return
    if REQUIRE_SERVICES:
        pytest.fail(f"CI requires this test to run, but: {reason}")
    pytest.skip(reason)


CI_PROGRAMS = Path(__file__).resolve().parents[1] / ".ci" / "programs"


def ci_programs() -> dict[str, str]:
    """The programs `.ci/run` installs when missing: {program: Debian package}."""
    lines = CI_PROGRAMS.read_text().splitlines()
    pairs = [line.split() for line in lines if line.strip() and not line.startswith("#")]
    return dict(pairs)


def needs_program(program: str) -> str:
    """Require a program on the PATH (skip on a laptop, fail in CI) and return its path.

    A program that `.ci/programs` does not list is refused outright, so a new test
    cannot pass on a developer's machine and fail on a fresh CI machine.
    """
    package = ci_programs().get(program)
    assert package, f"{program!r} is not in .ci/programs: add it with its Debian package"
    path = shutil.which(program)
    needs(path is not None, f"needs {program}: apt-get install {package}")
    return path


DATABASE_FIXTURES = {"db", "transactional_db", "live_server", "django_db_reset_sequences"}


@pytest.fixture(scope="session")
def postgres_template():
    """The migrated PostgreSQL database the test databases are copied from (made by the
    first process to ask, kept while the migrations are the same); None without
    PostgreSQL."""
    return template_db.ensure()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, postgres_template):
    """Each process's test database is a copy of the migrated template, not migrated
    afresh (tests/template_db.py)."""
    if postgres_template:
        from django.conf import settings

        settings.DATABASES["default"].setdefault("TEST", {})["TEMPLATE"] = postgres_template


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session):
    """A SQLite run's test databases left by test processes that were killed (Django
    removes its own only at a normal end): `cardclub-test-<pid>.sqlite3` and its -wal and
    -shm files, in /dev/shm or the temporary folder (config/settings.py), taken away when
    no process has that pid any more. Each test process clears what it finds."""
    import tempfile

    for folder in {Path("/dev/shm"), Path(tempfile.gettempdir())}:
        for path in folder.glob("cardclub-test-*.sqlite3*"):
            pid = path.name.removeprefix("cardclub-test-").partition(".")[0]
            if pid.isdigit() and not _alive(int(pid)):
                path.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def pytest_collection_modifyitems(config, items):
    """Tests marked `long` (a minute or near it, and no test database) start first.

    Started last, such a test keeps one test process busy while the other, its queue
    empty, waits: xdist cannot hand over a test already queued behind a running one.
    pytest-django has put the tests in its order: those in a transaction rolled back, then
    those that flush the database, then those without a database, which a run ends with;
    a test that uses the test database is left where it is, since moving it would reorder
    those. (The random evenings' properties, without a database, were the last minute.)
    """
    first = [item for item in items if item.get_closest_marker("long")]
    for item in first:
        if DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())):
            raise pytest.UsageError(f"{item.nodeid}: a `long` test may not use the test database")
    items[:] = first + [item for item in items if not item.get_closest_marker("long")]


@pytest.fixture
def redis(settings):
    """Require Redis as the cache (config.throttles' and core.redisops' one round trips)."""
    needs(bool(settings.REDIS_URL), "needs Redis: set REDIS_URL=redis://...")


# Caches for the tests that change them: Django's local memory (the laptop default), and
# a Redis that does not answer (nothing listens on port 1), as the service configures it.
LOCAL_CACHE = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
REDIS_DOWN = {
    "default": {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.2, "IGNORE_EXCEPTIONS": True},
    }
}


@pytest.fixture
def postgres(settings):
    """Require PostgreSQL (locks, constraints PostgreSQL alone enforces)."""
    needs(settings.IS_POSTGRES, "needs PostgreSQL: set DATABASE_URL=postgres://...")


def _django_settings(request):
    """pytest-django's ``settings`` fixture; None when the run is without Django (the pure
    engines' tests: ``pytest -p no:django tests/scoring/rules ...``)."""
    if not request.config.pluginmanager.hasplugin("django"):
        return None
    return request.getfixturevalue("settings")


FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fast_passwords(request):
    """Tests hash passwords with a fast hasher; production keeps Django's default."""
    settings = _django_settings(request)
    if settings is None:
        return
    settings.PASSWORD_HASHERS = FAST_HASHERS


def rows_for_the_module(build):
    """A module-scoped fixture of the rows `build(capture_on_commit)` makes, made once for
    the module's tests as Django's TestCase.setUpTestData makes them for a class: inside a
    transaction rolled back when the module's last test is done. Each test's own changes
    are rolled back to a savepoint within it by its `db` fixture, which each test using
    the rows must ask for. Every other test of the module sees them too, so a module whose
    tests make their own club of the same slug cannot use it. While the rows are made,
    tasks run in-process and passwords hash fast, as in a test. `capture_on_commit` is
    Django's captureOnCommitCallbacks."""

    @pytest.fixture(scope="module")
    def fixture(django_db_setup, django_db_blocker):
        from django.db import transaction
        from django.test import TestCase, override_settings

        from config.celery import app

        eager = app.conf.task_always_eager
        with django_db_blocker.unblock():
            outer = transaction.atomic()
            outer.__enter__()
            app.conf.task_always_eager = True
            try:
                with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
                    rows = build(TestCase.captureOnCommitCallbacks)
            except BaseException:
                transaction.set_rollback(True)
                outer.__exit__(None, None, None)
                raise
            finally:
                app.conf.task_always_eager = eager
        try:
            yield rows
        finally:
            with django_db_blocker.unblock():
                transaction.set_rollback(True)
                outer.__exit__(None, None, None)

    return fixture


@pytest.fixture
def rates(monkeypatch):
    """The API's rates small enough to reach in a test, anonymous 3 and logged in 5 a
    minute (DRF reads them when the throttle classes are made)."""
    from rest_framework.settings import api_settings

    from config.throttles import AnonRateThrottle, UserRateThrottle

    small = {**api_settings.DEFAULT_THROTTLE_RATES, "anon": "3/min", "user": "5/min"}
    for throttle in (AnonRateThrottle, UserRateThrottle):
        monkeypatch.setattr(throttle, "THROTTLE_RATES", small)


def committed_for_the_module(build):
    """For a module of browser tests that only read one world: a module-scoped fixture of
    the rows `build()` makes, committed once before the module's first test (the live
    server's thread reads them on a connection of its own, so they cannot wait in a
    transaction as `rows_for_the_module`'s do) and deleted by a flush of the test database
    after its last; and, to be named `_live_server_helper` in the module, pytest-django's
    fixture of that name made over again without the flush it asks for after every test
    that uses the live server (`transactional_db`), which deleted the world after the
    first. Each test may use the database, as the live server does, but must change
    nothing. While the rows are made, tasks run in-process and passwords hash fast."""

    @pytest.fixture(scope="module")
    def rows(django_db_setup, django_db_blocker):
        from django.core.management import call_command
        from django.test import override_settings

        from config.celery import app

        eager = app.conf.task_always_eager
        with django_db_blocker.unblock():
            app.conf.task_always_eager = True
            try:
                with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
                    made = build()
            except BaseException:
                call_command("flush", interactive=False, verbosity=0)
                raise
            finally:
                app.conf.task_always_eager = eager
        try:
            yield made
        finally:
            with django_db_blocker.unblock():
                call_command("flush", interactive=False, verbosity=0)

    @pytest.fixture(autouse=True, name="_live_server_helper")
    def live_server_over_the_rows(request, django_db_blocker):
        if "live_server" not in request.fixturenames:
            yield
            return
        live_server = request.getfixturevalue("live_server")
        live_server._live_server_modified_settings.enable()
        with django_db_blocker.unblock():
            yield
        live_server._live_server_modified_settings.disable()

    return rows, live_server_over_the_rows


@pytest.fixture(autouse=True)
def _eager_celery_and_fresh_cache(request):
    """Run tasks in-process unless a test starts a real worker; start each test with an
    empty cache so throttles and cached pages do not leak between tests."""
    if _django_settings(request) is None:
        yield
        return
    from django.core.cache import cache

    from config.celery import app
    from tournaments.pagecache import public_memo, ranked_rows, rendered_copies

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    cache.clear()
    for memo in (rendered_copies, ranked_rows, public_memo):  # this process's page caches
        memo.clear()
    yield
    app.conf.task_always_eager = previous


@pytest.fixture
def api():
    """An anonymous API client."""
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def club(db):
    from tests.factories import ClubFactory

    return ClubFactory(name="Somerset Club", slug="somerset")


@pytest.fixture
def evening(club):
    """An evening of Euchre at the club (Somerset, 1888), a quarter a point, nobody yet
    arrived. Directories with evenings of their own (tests/tournaments) override it."""
    import datetime
    from decimal import Decimal

    from club import evenings

    return evenings.evening_open(
        club=club, date=datetime.date(1888, 11, 21), ruleset="euchre-somerset-1888",
        stake=Decimal("0.25"),
    )  # fmt: skip


@pytest.fixture
def other_club(db):
    from tests.factories import ClubFactory

    return ClubFactory(name="Tremont Club", slug="tremont")


@pytest.fixture
def secretary(club):
    from tests.factories import UserFactory

    user = UserFactory(username="secretary")
    club.secretaries.add(user)
    return user


@pytest.fixture
def other_secretary(other_club):
    from tests.factories import UserFactory

    user = UserFactory(username="other-secretary")
    other_club.secretaries.add(user)
    return user


@pytest.fixture
def staff(db):
    from tests.factories import UserFactory

    return UserFactory(username="staff", is_staff=True)


def token_client(user):
    """An API client authenticated by a token of the user's, as a secretary's script would
    be after logging in (club.secretary_tokens)."""
    from rest_framework.test import APIClient

    from club.secretary_tokens import token_issue

    client = APIClient()
    key, _ = token_issue(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def table_client(table):
    """An API client authenticated as the phone at `table` (`Authorization: Table <its
    link's token>`), as the table's phone is."""
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {table.token}")
    return client


@pytest.fixture
def secretary_api(secretary):
    return token_client(secretary)


@pytest.fixture
def other_secretary_api(other_secretary):
    return token_client(other_secretary)


@pytest.fixture
def staff_api(staff):
    return token_client(staff)


@pytest.fixture(scope="session")
def chromium():
    """Debian's chromium, driven by Playwright, launched once for a test process (see
    tests/browser.py); each test's pages are in browser contexts of their own.

    Playwright's sync API marks its event loop as running in this thread between its
    calls, and Django then refuses database calls. Between browser tests the mark is
    taken off, so the tests that follow in this process run as without a browser; a
    browser test puts it back for its own calls (`browser_page`)."""
    import asyncio

    from tests.browser import ARGS, CHROMIUM, SHOTS

    needs_program("chromedriver")  # Debian's chromium and its driver, installed together
    needs(Path(CHROMIUM).exists(), "needs Debian's chromium: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        loop = asyncio.get_running_loop()
        asyncio._set_running_loop(None)
        yield browser, loop
        asyncio._set_running_loop(loop)
        browser.close()


@contextlib.contextmanager
def browser_context(chromium, monkeypatch):
    """A browser context of Debian's chromium (`chromium`) of its own: cookies, storage and
    service workers start empty. Every context opened meanwhile (a second phone at the
    table) is closed at its end."""
    import asyncio

    from django.db import connections

    browser, loop = chromium
    asyncio._set_running_loop(loop)
    # With Playwright's loop marked as running, Django refuses database calls unless told
    # they are safe. They are: nothing in the service or its tests is asynchronous.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        yield context
    finally:
        for opened in list(browser.contexts):
            opened.close()
        # The test's ORM calls made while Playwright's loop was marked as running opened
        # a connection of their own (asgiref keeps one per context then); close it while
        # the mark is still on, or it outlives the test database.
        connections.close_all()
        asyncio._set_running_loop(None)


@pytest.fixture
def browser_page(live_server, chromium, monkeypatch):
    """A page of Debian's chromium in a browser context of the test's own
    (`browser_context`)."""
    with browser_context(chromium, monkeypatch) as context:
        page = context.new_page()
        page.set_default_timeout(10_000)
        yield page


def _emptied_by_delete(truncate):
    """PostgreSQL's `sql_flush` for the tests: the tables emptied by DELETE, each in turn,
    in place of one TRUNCATE of them all.

    A test on the live server or a real worker (`transaction=True`) is followed by a flush
    of the test database's sixty tables. TRUNCATE gives every table and index new files,
    full or empty: two to three seconds a test on the CI machine, for 200 tests. A DELETE
    of the few rows a test made takes milliseconds. With `session_replication_role` at
    `replica` for the flush's transaction no trigger fires, as under TRUNCATE: neither
    the history's (pghistory) nor the foreign keys' checks, and nothing is left. Setting
    it needs a superuser (CI's `postgres`); for another user, and for a flush that resets
    the sequences or cascades, Django's TRUNCATE is kept."""

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        original = truncate(
            self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
        )
        if reset_sequences or allow_cascade or not tables:
            return original
        if not hasattr(self.connection, "_tests_superuser"):
            with self.connection.cursor() as cursor:
                cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
                self.connection._tests_superuser = bool(cursor.fetchone()[0])
        if not self.connection._tests_superuser:
            return original
        return [
            "SET LOCAL session_replication_role = replica",
            *(f"DELETE FROM {self.quote_name(table)}" for table in tables),
        ]

    return sql_flush


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, and at its end no other session may still hold it
    (issue #12): threads, the live server and real workers close their connections, so
    the test database is dropped cleanly. Waits a little for processes still exiting.
    Flushed after each test that commits by DELETE, not TRUNCATE (`_emptied_by_delete`)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        yield
        return
    operations = type(connection.ops)
    truncate = operations.sql_flush
    operations.sql_flush = _emptied_by_delete(truncate)
    try:
        yield
    finally:
        operations.sql_flush = truncate
    import time

    with django_db_blocker.unblock():
        for _ in range(50):
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pid, application_name, state, left(query, 200) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
                others = cursor.fetchall()
            if not others:
                return
            time.sleep(0.1)
    pytest.fail(f"sessions left on the test database: {others}")
