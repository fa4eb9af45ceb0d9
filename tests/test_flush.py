"""The test database emptied after each test that commits (tests/conftest.py's
`_emptied_by_delete`): by DELETE with no trigger firing, every table as empty as
Django's TRUNCATE leaves it, the history's tables too."""

import pytest
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection

from tests.worlds import club_in_play

pytestmark = pytest.mark.postgres


def filled_tables() -> list[str]:
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            " UNION ALL ".join(
                f"(SELECT '{table}' FROM {quote(table)} LIMIT 1)" for table in sorted(tables)
            )
        )
        return [row[0] for row in cursor.fetchall()]


def test_a_committed_club_in_play_is_emptied_by_delete_history_and_all(
    transactional_db, postgres, django_capture_on_commit_callbacks
):
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    statements = connection.ops.sql_flush(no_style(), tables)
    assert statements[0] == "SET LOCAL session_replication_role = replica"
    assert all(sql.startswith("DELETE FROM ") for sql in statements[1:])
    assert len(statements) == 1 + len(tables)

    club_in_play(django_capture_on_commit_callbacks)
    filled = filled_tables()
    assert {"club_club", "scoring_hand", "club_eveninghistory"} <= set(filled)
    # As TransactionTestCase empties the database after each test (django.test.testcases).
    call_command("flush", verbosity=0, interactive=False, reset_sequences=False)
    # What post_migrate makes again after every flush, and nothing else.
    assert filled_tables() == ["auth_permission", "django_content_type"]
    # Triggers fire again after the flush's transaction: the history records a new club.
    club_in_play(django_capture_on_commit_callbacks)
    assert "club_clubhistory" in filled_tables()


def test_a_flush_that_resets_the_sequences_keeps_djangos_truncate(db, postgres):
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    [statement] = connection.ops.sql_flush(no_style(), tables, reset_sequences=True)
    assert statement.startswith("TRUNCATE ") and "RESTART IDENTITY" in statement
