"""core.db.execute_prepared: hot raw statements planned once per database session."""

import pytest
from django.db import connection

from core.db import execute_prepared

# A session is closed mid-test: the test's rows cannot live in a transaction.
pytestmark = pytest.mark.django_db(transaction=True)


def _prepared_here() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM pg_prepared_statements")
        return {row[0] for row in cursor.fetchall()}


def test_a_statement_is_prepared_once_a_session_and_gives_the_plain_answer(postgres):
    sql = "SELECT %s::int + %s::int, %s::text"
    with connection.cursor() as cursor:
        first = execute_prepared(cursor, "cardclub_test_sum", sql, [2, 3, "x"]).fetchall()
    assert first == [(5, "x")]
    assert "cardclub_test_sum" in _prepared_here()
    with connection.cursor() as cursor:
        again = execute_prepared(cursor, "cardclub_test_sum", sql, [40, 2, "y"]).fetchall()
    assert again == [(42, "y")]
    # A new session prepares afresh (a prepared statement is the session's own).
    connection.close()
    assert "cardclub_test_sum" not in _prepared_here()
    with connection.cursor() as cursor:
        assert execute_prepared(cursor, "cardclub_test_sum", sql, [1, 1, "z"]).fetchall() == [
            (2, "z")
        ]


def test_parameters_must_match_the_statement(postgres):
    with connection.cursor() as cursor, pytest.raises(ValueError, match="cardclub_test_bad"):
        execute_prepared(cursor, "cardclub_test_bad", "SELECT %s, 5 % 2", [1])
