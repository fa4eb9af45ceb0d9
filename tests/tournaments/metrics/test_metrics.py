"""The metric registry and the pure ranking (no Django: `pytest -p no:django` runs these)."""

import pytest

from tournaments.metrics import (
    COLUMN_METRICS,
    DEFAULT_PRECEDENCE,
    METRICS,
    AmongTied,
    SeatCount,
    SeatSum,
    rank,
    validate_precedence,
)


def test_every_metric_is_described_computed_and_ordered_once():
    for key, metric in METRICS.items():
        assert metric.key == key
        assert metric.title and metric.description, key
        assert isinstance(metric.computed, SeatSum | SeatCount | AmongTied), key
        assert str(metric.computed), key  # how it is computed, in words
        assert metric.as_dict() == {
            "key": key,
            "title": metric.title,
            "description": metric.description,
            "higher_is_better": metric.higher_is_better,
        }
    assert [key for key in METRICS if key != "head_to_head"] == COLUMN_METRICS
    assert [key for key, m in METRICS.items() if not m.higher_is_better] == ["euchres"]
    assert validate_precedence(DEFAULT_PRECEDENCE) == DEFAULT_PRECEDENCE


@pytest.mark.parametrize(
    ("precedence", "message"),
    [
        ([], "Choose at least one metric to rank by"),
        ("points", "Choose at least one metric to rank by"),
        (["points", "luck"], "'luck' is none of the metrics to rank by"),
        (["points", ["luck"]], r"\['luck'\]\" is none of the metrics to rank by"),
        (["points", "points"], "listed twice"),
    ],
)
def test_a_bad_precedence_list_names_what_is_wrong(precedence, message):
    with pytest.raises(ValueError, match=message):
        validate_precedence(precedence)


def test_fewer_euchres_rank_higher():
    rows = [
        {"member": 1, "name": "A", "metrics": {"euchres": 3}},
        {"member": 2, "name": "B", "metrics": {"euchres": 1}},
    ]
    assert [r["name"] for r in rank(rows, ["euchres"])] == ["B", "A"]


def test_rank_keeps_ties_and_skips_places():
    rows = [
        {"member": i, "name": name, "metrics": {"points": points, "euchres": 0}}
        for i, (name, points) in enumerate([("A", 9), ("B", 7), ("C", 7), ("D", 7), ("E", 1)])
    ]
    ranked = {row["name"]: row for row in rank(rows, ["points"])}
    assert [ranked[n]["display_rank"] for n in "ABCDE"] == ["1", "=2", "=2", "=2", "5"]
    assert [ranked[n]["tied"] for n in "ABCDE"] == [False, True, True, True, False]


def test_head_to_head_is_asked_only_for_tied_groups():
    asked = []

    def h2h(ids):
        asked.append(sorted(ids))
        return {ids[0]: 1}

    rows = [
        {"member": i, "name": n, "metrics": {"points": p}}
        for i, (n, p) in enumerate([("A", 5), ("B", 3), ("C", 3)])
    ]
    ranked = rank(rows, ["points", "head_to_head"], head_to_head=h2h)
    assert asked == [[1, 2]]
    assert [r["name"] for r in ranked] == ["A", "B", "C"]
    assert [r["display_rank"] for r in ranked] == ["1", "2", "3"]
