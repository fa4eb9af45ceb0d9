"""Ranking the standings in SQL: every player by the tournament's precedence list,
head-to-head for the tied, and after a recalculation only the rows its changes can
move (`Moved`). `tournaments.metrics.rank` is the same rule in Python; the tests hold
the two to each other (tests/tournaments/test_standings_properties.py)."""

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import Case, IntegerField, Value, When

from tournaments.counting import compiled_read, counted_rows
from tournaments.metrics import METRICS, precedence_of
from tournaments.models import Tournament, TournamentTotal


@dataclass(frozen=True)
class Moved:
    """Where in the standings a recalculation's changes can move anyone: ranges of the
    ranked metrics' values, each (low, high), both included (None: no bound that way),
    disjoint. A value is the tuple of a row's `keys` (the precedence up to head-to-head),
    each turned so that more is better (`higher_is_better`: a metric where fewer is
    better, euchres suffered, is negated), so the standings are those tuples in
    descending order, head-to-head and what follows it breaking the ties.

    A changed player moves only the rows between his old and new values (a player
    coming into the standings or leaving them, every row below him); a row outside every
    range compares with every changed player, before and after, as it did: its place and
    tie stand. A group tied on the keys, whose head-to-head decides between them, is
    never cut by a range, whose bounds are the keys' values: it is ranked again whole or
    not at all. Inside a range, the rows are ranked again, after as many places as there
    are rows ranked above the range. A hand that ends no rubber leaves the players' net
    rubber points and rubbers won as they were (the default precedence's first two):
    each moves past only the players level with him on those whose points he passes,
    not every player level with him (early in a year's ladder, most of it)."""

    keys: tuple[str, ...]
    higher_is_better: tuple[bool, ...]
    ranges: tuple[tuple[Any, Any], ...]

    def sql(self, tournament_id: int) -> "RangesSQL":
        """The SQL that ranks these ranges apart (`RangesSQL`), for this tournament."""
        turned = (
            _column(key) if higher else f"-{_column(key)}"
            for key, higher in zip(self.keys, self.higher_is_better, strict=True)
        )
        # Row values compared in order, as PostgreSQL and SQLite (3.15 and later) both
        # write them: in brackets, not ROW(...), which SQLite has not.
        value = f"({', '.join(turned)})"
        given = f"({', '.join(['%s'] * len(self.keys))})"
        inside, bounds = [], []
        for low, high in self.ranges:
            limits = [(op, v) for op, v in ((">=", low), ("<=", high)) if v is not None]
            inside.append(" AND ".join(f"{value} {op} {given}" for op, _ in limits) or "true")
            bounds += [x for _, v in limits for x in v]
        if not inside:
            return RangesSQL("false", "0", [], "0", "SELECT 0 AS a0", [])
        part = "CASE " + " ".join(f"WHEN {c} THEN {k}" for k, c in enumerate(inside, 1)) + " END"
        # Every range's count of the rows above it, in one pass over the tournament's rows.
        counts, counts_params = [], []
        for k, (_, high) in enumerate(self.ranges, 1):
            if high is None:  # the range reaches the top
                counts.append(f"COUNT(*) FILTER (WHERE 1 = 0) AS a{k}")
            else:
                counts.append(f"COUNT(*) FILTER (WHERE {value} > {given}) AS a{k}")
                counts_params += list(high)
        return RangesSQL(
            inside="(" + " OR ".join(f"({c})" for c in inside) + ")",
            part=part,
            bounds=bounds,
            above="CASE part "
            + " ".join(f"WHEN {k} THEN above_counts.a{k}" for k in range(1, len(inside) + 1))
            + " ELSE 0 END",
            counts=(
                f"SELECT {', '.join(counts)} FROM {TournamentTotal._meta.db_table} "
                "WHERE tournament_id = %s"
            ),
            counts_params=[*counts_params, tournament_id],
        )


class RangesSQL(NamedTuple):
    """What ranks a `Moved`'s ranges apart: `inside`, the rows in a range; `part`, which
    range a row is in (1, 2, ...), both with `bounds` as parameters; `counts`, one row
    of each range's count of the rows ranked above it (`a1`, `a2`, ..., with
    `counts_params`), joined as `above_counts`; `above`, a row's count from it."""

    inside: str
    part: str
    bounds: list
    above: str
    counts: str
    counts_params: list


# Every row ranked as one range: the whole standings.
EVERYONE = RangesSQL("true", "1", [], "0", "SELECT 0 AS a0", [])


MAX_RANGES = 8  # ranked apart at most; more are merged, nearest first


def merged_ranges(ranges: list[tuple[Any, Any]]) -> tuple[tuple[Any, Any], ...]:
    """Ranges (low, high; None: unbounded) merged where they share a value, in order,
    and then the nearest merged until there are at most MAX_RANGES: ranking a range
    again is right for any rows it holds, and each range costs the statement a
    condition on every row. The values are numbers or tuples of them (`Moved`'s), nearest
    by their first differing place."""
    merged: list[list] = []
    unbounded_first = sorted((r for r in ranges if r[0] is None), key=lambda r: r[1] is None)
    bounded = sorted((r for r in ranges if r[0] is not None), key=lambda r: r[0])
    for low, high in unbounded_first + bounded:
        last = merged[-1] if merged else None
        if last is not None and (last[1] is None or low is None or low <= last[1]):
            if last[1] is not None and (high is None or high > last[1]):
                last[1] = high
            continue
        merged.append([low, high])
    while len(merged) > MAX_RANGES:  # the two nearest merged (the rows between them too)
        gaps = [_gap(merged[i][1], merged[i + 1][0]) for i in range(len(merged) - 1)]
        i = gaps.index(min(gaps))
        merged[i : i + 2] = [[merged[i][0], merged[i + 1][1]]]
    return tuple((low, high) for low, high in merged)


def _gap(high, low):
    """How far apart two values are: numbers' difference, or tuples' place by place (and
    so compared first by their first place)."""
    if isinstance(high, tuple):
        return tuple(b - a for a, b in zip(high, low, strict=True))
    return low - high


def ranked_keys(precedence: list[str]) -> list[str]:
    """The metrics ranked before head-to-head (all of them, without it): the values a
    `Moved`'s ranges bound, which head-to-head only breaks ties of."""
    if "head_to_head" in precedence:
        return precedence[: precedence.index("head_to_head")]
    return list(precedence)


def moved_within(
    tournament: Tournament, totals: dict[int, dict], *, was: dict[int, list] | None = None
) -> Moved | None:
    """The ranges the changed players' totals move within (`Moved`), from their values
    before they are written (`was`, each player's values of `ranked_keys` as stored; read
    here when not given); None to rank everyone (the first ranked metric is
    head-to-head, which moves whole tied groups)."""
    keys = tuple(ranked_keys(precedence_of(tournament)))
    if not keys:
        return None
    higher = tuple(METRICS[key].higher_is_better for key in keys)
    signs = [1 if better else -1 for better in higher]
    if was is None:
        was = _was(tournament, keys, totals)

    def value(values) -> tuple:
        return tuple(sign * v for sign, v in zip(signs, values, strict=True))

    ranges = []
    for member_id, now in totals.items():
        stays = bool(now["hands"] or now["rubbers_played"])  # as _write_totals keeps him
        new = value(now[key] for key in keys)
        if member_id in was and stays:
            old = value(was[member_id])
            ranges.append((min(old, new), max(old, new)))
        elif member_id in was or stays:
            # A player who comes into the standings or leaves them moves everyone below him.
            ranges.append((None, value(was[member_id]) if member_id in was else new))
    return Moved(keys, higher, merged_ranges(ranges))


def _was(tournament: Tournament, keys: tuple[str, ...], totals: dict[int, dict]) -> dict:
    """The changed players' stored values of `keys`, before their totals are written."""
    return {
        member_id: values
        for member_id, *values in compiled_read(
            ("was", keys),
            lambda pk, ids: TournamentTotal.objects.filter(
                tournament_id=pk, member_id__any=ids
            ).values_list("member_id", *keys),
            int,
            list,
        ).rows(tournament.pk, list(totals))
    }


def head_to_head(tournament: Tournament, groups: list[list[int]]) -> dict[int, int]:
    """Within each group of tied players: the tables each won less those he lost against
    the others of his group (one query for all the groups).

    A table is won as the rounds won metric has it (the seat's `round_won`): its rubber,
    or, at a progressive of fixed deals, which plays no rubber out, its round once it is
    over, by the side ahead on points (ruling P1). A table where players of the group sat
    on both sides counts once its result is known (one of them won it), once for each of
    them: +1 won, -1 lost, however many of the others he met there ("rubbers won less
    rubbers lost against each other", issue #5). Partners are not opponents."""
    group_of = {member_id: i for i, group in enumerate(groups) for member_id in group}
    seats = counted_rows(
        "head_to_head",
        tournament,
        lambda seats, ids: (
            seats.filter(member_id__any=ids)
            .exclude(side="")
            .values_list("member_id", "rubber_id", "side", "round_won")
        ),
        group_of,
    )
    by_rubber: dict[tuple[int, int], list[tuple[int, str, bool]]] = defaultdict(list)
    for member_id, rubber_id, side, won in seats:
        by_rubber[rubber_id, group_of[member_id]].append((member_id, side, won))
    score = dict.fromkeys(group_of, 0)
    for players in by_rubber.values():
        # With the group on both sides, one of its players won the table once it was
        # decided (a finished rubber, a round of fixed deals over); none before.
        met = len({side for _, side, _ in players}) == 2
        if met and any(won for _, _, won in players):
            for member_id, _, won in players:
                score[member_id] += 1 if won else -1
    return score


def _column(key: str) -> str:
    """A metric's column (metric keys are validated against the registry, never input)."""
    return connection.ops.quote_name(TournamentTotal._meta.get_field(key).column)


def _rank_head_to_head(tournament: Tournament, precedence: list[str], moved: Moved | None) -> None:
    """Head-to-head for the players tied on every metric before it; 0 for the rest. With
    `moved`, only the rows in its range: a tie elsewhere has none of the changed players
    in it, before or after, so its head-to-head stands."""
    before = ranked_keys(precedence)
    ranges = EVERYONE if moved is None else moved.sql(tournament.pk)
    inside, inside_params = ranges.inside, ranges.bounds
    keys = ", ".join(f"{_column(key)} AS k{i}" for i, key in enumerate(before))
    partition = ", ".join(f"k{i}" for i in range(len(before)))
    # Only the rows in a tie, or holding a head-to-head from an earlier tie, come back.
    # (In SQL, as `standings_rank` is: the ORM's window query cost the worker more to
    # build than PostgreSQL took to run it.)
    sql = f"""
        SELECT member_id, h2h, equal{"".join(f", k{i}" for i in range(len(before)))}
        FROM (
            SELECT member_id, h2h, {partition + "," if before else ""}
                   COUNT(*) OVER ({"PARTITION BY " + partition if before else ""}) AS equal
            FROM (
                SELECT member_id, {_column("head_to_head")} AS h2h{", " + keys if before else ""}
                FROM {TournamentTotal._meta.db_table} WHERE tournament_id = %s AND {inside}
            ) ranked
        ) counted
        WHERE equal > 1 OR h2h <> 0
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [tournament.pk, *inside_params])
        candidates = cursor.fetchall()
    groups: dict[tuple, list[int]] = defaultdict(list)
    current = {}
    for member_id, h2h, equal, *key in candidates:
        current[member_id] = h2h
        if equal > 1:
            groups[tuple(key)].append(member_id)
    scores = head_to_head(tournament, list(groups.values())) if groups else {}
    changed = {m: scores.get(m, 0) for m, h2h in current.items() if scores.get(m, 0) != h2h}
    if changed:  # one statement, each row its own value
        TournamentTotal.objects.filter(tournament=tournament, member_id__in=list(changed)).update(
            head_to_head=Case(
                *(When(member_id=m, then=Value(v)) for m, v in changed.items()),
                output_field=IntegerField(),
            )
        )


def standings_rank(tournament: Tournament, moved: Moved | None = None) -> None:
    """Rank every player by the precedence list, in SQL: players equal on all of it share
    the place and are marked tied (two at third are both "=3", the next is fifth).
    Only rows whose place changed are written. With `moved` (an incremental
    recalculation), only the rows in its range are ranked again (`Moved`).
    `tournaments.metrics.rank` is the same rule in Python (the tests hold the two to
    each other)."""
    precedence = precedence_of(tournament)
    if "head_to_head" in precedence:
        _rank_head_to_head(tournament, precedence, moved)
    order = ", ".join(
        f"{_column(key)} {'DESC' if METRICS[key].higher_is_better else 'ASC'}" for key in precedence
    )
    table = TournamentTotal._meta.db_table
    ranges = EVERYONE if moved is None else moved.sql(tournament.pk)
    # Each range of `moved` is ranked apart (`part`), after the rows above it (`above`,
    # from its count in `above_counts`, which is read in one pass over the rows).
    # The rows whose place moved are picked out inside the subquery (from the place each
    # had), so the join to the table touches those alone: half the statement's time.
    # `equal` counts a row's peers in the ranking's own order (the rows equal to it on
    # every ranked metric), so both windows read the rows in one sort. The join names the
    # tournament too, so that it reads this tournament's rows by its index, not every
    # tournament's (the season's ranking, 666 rows moved: 2,000 rows read, not 12,615).
    # The counts are a CTE MATERIALIZED: worked out once. As a subquery joined, with
    # statistics taken before a long tie was long, it was the inner side of a nested
    # loop, run again for every row ranked (383 rows ranked: 431,000 read, 254 ms).
    sql = f"""
        WITH above_counts AS MATERIALIZED ({ranges.counts})
        UPDATE {table} SET rank = r.place, tied = (r.equal > 1)
        FROM (
            SELECT id, rank AS was, tied AS was_tied,
                   RANK() OVER w + {ranges.above} AS place,
                   COUNT(*) OVER (w RANGE BETWEEN CURRENT ROW AND CURRENT ROW) AS equal
            FROM (
                SELECT *, {ranges.part} AS part FROM {table}
                WHERE tournament_id = %s AND ({ranges.inside})
            ) ranged
            CROSS JOIN above_counts
            WINDOW w AS (PARTITION BY part ORDER BY {order})
        ) r
        WHERE {table}.tournament_id = %s AND {table}.id = r.id
          AND (r.was <> r.place OR r.was_tied <> (r.equal > 1))
    """
    with connection.cursor() as cursor:
        params = [
            *ranges.counts_params, *ranges.bounds, tournament.pk, *ranges.bounds, tournament.pk
        ]  # fmt: skip
        cursor.execute(sql, params)
