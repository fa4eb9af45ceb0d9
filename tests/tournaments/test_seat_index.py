"""The standings read a player's seats from one index alone.

`compute_totals` (every recalculation, for the players a hand changed) and `head_to_head`
(for the tied players in the range that moved) read the seats of a few players by member
and evening. `RubberPlayer`'s index `rubberplayer_member_seats` carries every column they
read, so PostgreSQL can answer them with an index-only scan instead of fetching each
seat's row from wherever it lies in the table (on the benchmark's season: 5 ms a
recalculation to 1.5; BENCHMARKS.md). A column added to what they read, and not to the
index, fails here.
"""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import RubberPlayer
from tests.tournaments.conftest import record, start, sweep
from tournaments import ranking, services

INDEX = "rubberplayer_member_seats"
COLUMN = re.compile(r'"scoring_rubberplayer"\."(\w+)"')


def _index():
    (index,) = [i for i in RubberPlayer._meta.indexes if i.name == INDEX]
    return index


def _covered() -> set[str]:
    index = _index()
    return {RubberPlayer._meta.get_field(name).column for name in (*index.fields, *index.include)}


def _columns_read(function) -> set[str]:
    """The seat columns the statements `function` sends name."""
    with CaptureQueriesContext(connection) as captured:
        function()
    reads = [q["sql"] for q in captured if 'FROM "scoring_rubberplayer"' in q["sql"]]
    assert reads, "no statement read the seats"
    return {column for sql in reads for column in COLUMN.findall(sql)}


@pytest.fixture
def played(club, ladder, evening, commit):
    """Two rubbers of the ladder's evening, the second still going."""
    record(commit, start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"]), *sweep("NS"))
    going = start(club, evening, ["Ann", "Bob"], ["Cora", "Dan"])
    record(commit, going, *sweep("EW")[:2])
    return ladder, list(going.seats.values_list("member_id", flat=True))


def test_a_recalculations_totals_read_only_columns_the_index_carries(played):
    ladder, members = played
    read = _columns_read(lambda: services.compute_totals(ladder, members))
    assert {"member_id", "evening_id", "points", "rubber_points"} <= read
    assert read <= _covered(), f"not in {INDEX}: {read - _covered()}"


def test_head_to_head_reads_only_columns_the_index_carries(played):
    ladder, members = played
    read = _columns_read(lambda: ranking.head_to_head(ladder, [members]))
    # Whether his side won the table (a rubber, or a round of fixed deals: ruling P1).
    assert {"member_id", "rubber_id", "side", "round_won"} <= read
    assert read <= _covered(), f"not in {INDEX}: {read - _covered()}"


def test_the_database_has_the_index_with_every_column_included(postgres, db):
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_get_indexdef(%s::regclass)", [INDEX])
        (definition,) = cursor.fetchone()
    keys, _, included = definition.partition(" INCLUDE ")
    assert keys.endswith("(member_id, evening_id)"), definition
    named = {name.strip() for name in included.strip("()").split(",")}
    assert named | {"member_id", "evening_id"} == _covered(), definition
