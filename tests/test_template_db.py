"""The test databases are copies of one migrated template (tests/template_db.py)."""

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from tests import template_db


@pytest.mark.postgres
def test_the_test_database_is_a_copy_of_the_runs_migrated_template(
    db, postgres, postgres_template, settings
):
    assert settings.DATABASES["default"]["TEST"]["TEMPLATE"] == postgres_template
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT datallowconn, shobj_description(oid, 'pg_database') FROM pg_database"
            " WHERE datname = %s",
            [postgres_template],
        )
        # Whole, and no one on it (a copy needs that), marked with what its schema is made
        # of: a later run with other migrations or packages makes it again.
        assert cursor.fetchone() == (False, template_db.fingerprint())
    # The copy carried every migration's record, the history's triggers with them.
    loader = MigrationLoader(connection)
    assert set(loader.graph.nodes) <= set(loader.applied_migrations)
    cursor = connection.cursor()
    cursor.execute("SELECT count(*) FROM pg_trigger WHERE tgname LIKE %s", ["pgtrigger_%"])
    assert cursor.fetchone()[0] > 0


def test_the_fingerprint_follows_the_migrations(tmp_path, monkeypatch):
    """A migration added (or changed) makes another fingerprint, so the template is made
    again; the same files make the same one."""
    before = template_db.fingerprint()
    assert template_db.fingerprint() == before
    root = tmp_path / "project"
    made_of = [*template_db.ROOT.glob("*/migrations/*.py"), template_db.ROOT / "config/settings.py"]
    for path in made_of:
        copy = root / path.relative_to(template_db.ROOT)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(path.read_bytes())
    monkeypatch.setattr(template_db, "ROOT", root)
    assert template_db.fingerprint() == before
    (root / "club/migrations/9999_more.py").write_text("# a new migration\n")
    assert template_db.fingerprint() != before
