"""The roll-up: what each rubber has given each of its players, kept on his seat.

Standings sum these per-seat totals instead of every hand: a ladder player who comes
most weeks has some twenty thousand hand scores in a season but a few hundred seats,
so bringing his totals up to date after one hand reads hundreds of rows, not tens of
thousands (BENCHMARKS.md, "Incremental recalculation").

`rollup_rubbers` rewrites the columns of `scoring.models.SEAT_TOTALS` from the rubber
and its own rows, with one UPDATE, in the transaction of every write to the rubber (record,
correct, remove, close, abandon: `scoring.services._write_rubber`), so the roll-up is
never behind the hands it sums. A bulk load (`make_season`, `import_club`) calls it once
for all rubbers. It recomputes, never adds: running it twice changes nothing.
"""

import functools
from collections.abc import Iterable

from django.db import connection

from scoring.models import Game, HandScore, Rubber, RubberPlayer, Settlement

CHUNK = 2000  # rubbers per statement (SQLite allows 32,766 parameters)

_SQL = """
UPDATE {seat} SET
    points = COALESCE(t.points, 0),
    marches = COALESCE(t.marches, 0),
    lone_hands = COALESCE(t.lone_hands, 0),
    euchres = COALESCE(t.euchres, 0),
    honours = COALESCE(t.honours, 0),
    hands = COALESCE(t.hands, 0),
    games_won = COALESCE(t.games_won, 0),
    stake_won = COALESCE(t.stake_won, 0),
    evening_id = t.evening_id,
    finished = t.finished,
    won = t.won,
    rubber_points = t.rubber_points,
    round_won = t.round_won
FROM (
    SELECT s.id AS seat_id, h.points, h.marches, h.lone_hands, h.euchres, h.honours,
           h.hands, g.games_won, r.evening_id,
           (r.status = 'complete') AS finished,
           (r.status = 'complete' AND s.side <> '' AND s.side = r.winner) AS won,
           CASE WHEN r.status = 'complete' AND s.side <> '' THEN
               CASE WHEN s.side = r.winner THEN COALESCE(r.value, 0)
                    ELSE -COALESCE(r.value, 0) END
           ELSE 0 END AS rubber_points,
           CASE WHEN s.side = '' THEN (1 = 0)
                WHEN r.deal_limit IS NULL THEN (r.status = 'complete' AND s.side = r.winner)
                WHEN COALESCE(h.hands, 0) < r.deal_limit AND r.status <> 'complete'
                     THEN (1 = 0)
                ELSE (COALESCE(h.points, 0) > COALESCE(o.points, 0)
                      OR (COALESCE(h.points, 0) = COALESCE(o.points, 0)
                          AND r.status = 'complete' AND s.side = r.winner)) END AS round_won,
           CASE WHEN r.deal_limit IS NOT NULL AND s.side <> ''
                     AND (COALESCE(h.hands, 0) >= r.deal_limit OR r.status = 'complete') THEN
               (COALESCE(h.points, 0) - COALESCE(o.points, 0)) * r.stake
           ELSE m.amount END AS stake_won
    FROM {seat} s
    JOIN {rubber} r ON r.id = s.rubber_id
    LEFT JOIN (
        SELECT rubber_id, member_id, SUM(points) AS points, SUM(march) AS marches,
               SUM(lone_made) AS lone_hands, SUM(euchred) AS euchres,
               SUM(honours) AS honours, COUNT(*) AS hands
        FROM {hand_score} WHERE {where} GROUP BY rubber_id, member_id
    ) h ON h.rubber_id = s.rubber_id AND h.member_id = s.member_id
    LEFT JOIN (
        SELECT rubber_id, winner, COUNT(*) AS games_won
        FROM {game} WHERE {where} GROUP BY rubber_id, winner
    ) g ON g.rubber_id = s.rubber_id AND g.winner = s.side
    LEFT JOIN (
        SELECT rubber_id, side, SUM(points) / COUNT(DISTINCT member_id) AS points
        FROM {hand_score} WHERE {where} AND side <> '' GROUP BY rubber_id, side
    ) o ON o.rubber_id = s.rubber_id AND s.side <> '' AND o.side <> s.side
    LEFT JOIN {settlement} m ON m.rubber_id = s.rubber_id AND m.member_id = s.member_id
    WHERE {where_seat}
) t
WHERE {seat}.id = t.seat_id
"""


def rollup_rubbers(rubber_ids: Iterable[int] | None = None) -> int:
    """Recompute the seat totals of these rubbers (all rubbers when None) from their
    hand scores, games and settlements; return the number of seats written.

    A player's points, marches, lone hands, euchres and Bridge honours are the sums of
    his hand scores (see `HandScore`); his games won are the games whose winner is his
    side (Euchre, Bridge); his stake won is his settlement (ruling M1; Call-Ace, C5).
    From the rubber: its evening; finished; won by his side; and its value to him, +
    when his side won it, - when it lost (rulings E4, B7; Call-Ace sittings have no
    sides and no rubber value). Whether his side won the table (`round_won`): the
    rubber, or a progressive's round of fixed deals once all its deals are played and
    his side is ahead (ruling P1), or once its rubber is won before they run out (no deal
    may follow: then ahead, or level, the rubber's winner); such a round settles at the
    difference of the sides' points times the stake (ruling P2, as M1 settles a rubber at
    its value).
    """
    if rubber_ids is None:
        return _rollup("1 = 1", "1 = 1", [])
    ids = sorted(set(rubber_ids))
    if len(ids) == 1:  # every write of a rubber: the same statement, prepared (settings.py)
        return _rollup("rubber_id = %s", "s.rubber_id = %s", ids * 4)
    written = 0
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        marks = ", ".join(["%s"] * len(chunk))
        written += _rollup(f"rubber_id IN ({marks})", f"s.rubber_id IN ({marks})", chunk * 4)
    return written


def _rollup(where: str, where_seat: str, params: list) -> int:
    with connection.cursor() as cursor:
        cursor.execute(_rollup_sql(where, where_seat), params)
        return cursor.rowcount


@functools.lru_cache(maxsize=16)
def _rollup_sql(where: str, where_seat: str) -> str:
    """The roll-up for these conditions (built once a process: it is on every hand's path)."""
    return _SQL.format(
        seat=RubberPlayer._meta.db_table,
        rubber=Rubber._meta.db_table,
        hand_score=HandScore._meta.db_table,
        game=Game._meta.db_table,
        settlement=Settlement._meta.db_table,
        where=where,
        where_seat=where_seat,
    )


def rollup_rubber(rubber) -> None:
    """Recompute one rubber's seat totals (called after every write to the rubber)."""
    rollup_rubbers([rubber.pk])
