"""The registered standings metrics, and ranking by a director's precedence list.

Each metric is a column of `TournamentTotal` that SQL computes (see
`tournaments.services.compute_totals`), except head-to-head, which only means
something among players tied on everything before it and is computed for those
groups alone. Ranking is pure: rows in, ranked rows out, ties kept as
(rank, tied) and shown as "=3".
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any


@dataclass(frozen=True)
class Metric:
    """A standings metric: its key, title, and whether more is better."""

    key: str
    title: str
    higher_is_better: bool = True
    description: str = ""


METRICS: dict[str, Metric] = {
    m.key: m
    for m in [
        Metric("points", "Points won", description="every point scored on the player's hands"),
        Metric(
            "net_rubber_points",
            "Net rubber points",
            description="rubber values won less rubber values lost (rulings E4, B7)",
        ),
        Metric("rubbers_won", "Rubbers won"),
        Metric("games_won", "Games won"),
        Metric("marches", "Marches", description="hands in which his side took all five tricks"),
        Metric("lone_hands", "Lone hands made", description="laws 3 and 45"),
        Metric("euchres", "Euchres suffered", higher_is_better=False),
        Metric("honours", "Bridge honours", description="honours scored above the line (B3)"),
        Metric(
            "head_to_head",
            "Head-to-head",
            description="among tied players: rubbers won less rubbers lost against each other",
        ),
        Metric("stake_won", "Stake won", description="money won at the stake (ruling M1)"),
    ]
}

DEFAULT_PRECEDENCE = ["net_rubber_points", "rubbers_won", "points", "head_to_head"]
COLUMN_METRICS = [key for key in METRICS if key != "head_to_head"]


def validate_precedence(precedence: Any) -> list[str]:
    """A list of distinct known metric keys; raise ValueError naming the bad one."""
    if not isinstance(precedence, list) or not precedence:
        raise ValueError("precedence is a non-empty list of metric keys")
    seen = set()
    for key in precedence:
        if key not in METRICS:
            raise ValueError(f"unknown metric {key!r}: use one of {', '.join(METRICS)}")
        if key in seen:
            raise ValueError(f"metric {key!r} is listed twice")
        seen.add(key)
    return list(precedence)


def _sort_value(metric: Metric, value) -> Any:
    value = Decimal(value) if isinstance(value, str) else value
    return -value if metric.higher_is_better else value


def rank(
    rows: Sequence[dict],
    precedence: Sequence[str],
    head_to_head: Callable[[list[int]], dict[int, int]] | None = None,
) -> list[dict]:
    """Rank rows ({"member", "name", "metrics": {...}}) by the precedence list.

    Players equal on every metric share a rank and are marked tied: two players
    equal at third are both (3, tied) and the next is fifth. Head-to-head is
    computed only for each group tied on the metrics before it, through the
    callback (member ids -> their head-to-head scores). Ties are broken by nothing
    else; names order tied players for display only.
    """
    rows = [dict(row, metrics=dict(row["metrics"])) for row in rows]

    def key_until(row, upto: int):
        return tuple(_sort_value(METRICS[k], row["metrics"][k]) for k in precedence[:upto])

    if "head_to_head" in precedence:
        position = list(precedence).index("head_to_head")
        groups: dict[tuple, list[dict]] = {}
        for row in rows:
            row["metrics"]["head_to_head"] = 0
            groups.setdefault(key_until(row, position), []).append(row)
        for group in groups.values():
            if len(group) > 1 and head_to_head is not None:
                scores = head_to_head([row["member"] for row in group])
                for row in group:
                    row["metrics"]["head_to_head"] = scores.get(row["member"], 0)

    full = len(precedence)
    rows.sort(key=lambda row: (key_until(row, full), row["name"].casefold()))
    ranked = []
    previous_key, previous_rank = None, 0
    for index, row in enumerate(rows, 1):
        key = key_until(row, full)
        current_rank = previous_rank if key == previous_key else index
        ranked.append({**row, "rank": current_rank})
        previous_key, previous_rank = key, current_rank
    counts: dict[int, int] = {}
    for row in ranked:
        counts[row["rank"]] = counts.get(row["rank"], 0) + 1
    for row in ranked:
        row["tied"] = counts[row["rank"]] > 1
        row["display_rank"] = f"={row['rank']}" if row["tied"] else str(row["rank"])
    return ranked
