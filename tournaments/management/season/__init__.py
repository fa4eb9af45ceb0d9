"""A whole club season, generated: members, evenings, tables, rubbers, hands, tournaments.

`season_make` fills the database with a realistic, seeded season for benchmarks and
demonstrations (`manage.py make_season`). Every hand is a raw scoresheet hand checked
by the real rule set (`validate_hand`) and scored by it (`apply`, `summary`, `settle`),
and every row is what `scoring.services` would have written for the same hands: the
hand's canonical data, tricks, points, explanation lines, facts and game won; each
player's `HandScore` (from the service's own `player_scores`); the games, the rubber's
summary, status, winner, value and completion, its seats and its settlement. So the
standings computed over a generated season are right.

The season is written in bulk, never one request per hand: on PostgreSQL by COPY
(psycopg 3), in chunks handed to a writer thread so that the server parses one chunk
while Python scores the next; elsewhere (SQLite, for tests) by `executemany`. On
PostgreSQL the loaded tables' foreign keys and non-unique indexes are dropped for
the load and re-created (and so re-checked) before the one transaction commits, the
way PostgreSQL's manual advises for populating a database: checking a foreign key
row by row at commit costs more than generating the season. The tables are locked
meanwhile, so load a benchmark or demonstration database, not a live one.

Seeded: the same arguments give the same season, row for row, on any database (the
ids follow whatever rows are there already; table tokens are secrets, from `secrets`).
"""

from .load import season_make
from .mix import SeasonReport

__all__ = ["SeasonReport", "season_make"]
