"""The test databases are copies of one migrated template (tests/template_db.py)."""

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader


@pytest.mark.postgres
def test_the_test_database_is_a_copy_of_the_runs_migrated_template(
    db, postgres, postgres_template, settings
):
    assert settings.DATABASES["default"]["TEST"]["TEMPLATE"] == postgres_template
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT datallowconn FROM pg_database WHERE datname = %s", [postgres_template]
        )
        # Whole, and no one on it (a copy needs that); a process that waited for it
        # knows it is whole by this.
        assert cursor.fetchone() == (False,)
    # The copy carried every migration's record, the history's triggers with them.
    loader = MigrationLoader(connection)
    assert set(loader.graph.nodes) <= set(loader.applied_migrations)
    cursor = connection.cursor()
    cursor.execute("SELECT count(*) FROM pg_trigger WHERE tgname LIKE %s", ["pgtrigger_%"])
    assert cursor.fetchone()[0] > 0
