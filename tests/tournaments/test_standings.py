"""Standings: each metric, precedence and ties, recalculation and publication."""

from decimal import Decimal

import pytest

from club import recording
from tests.tournaments.conftest import hand, record, start, sweep
from tournaments import services
from tournaments.models import StandingsDirty, StandingsVersion, TournamentTotal
from tournaments.selectors import standings_published

# The rubber worked by hand in tests/scoring/test_api_rubbers.py: NS win 2+2 (double
# games) and lose the third single; the rubber is worth 5 (ruling E4).
RUBBER = [
    hand("NS", 5), hand("NS", 5), hand("NS", 3),
    hand("NS", 5), hand("NS", 5), hand("NS", 5),
    hand("EW", 5, alone=True), hand("EW", 3),
]  # fmt: skip


def rows_by_name(tournament):
    tournament.refresh_from_db()
    return {row["name"]: row for row in standings_published(tournament=tournament)["rows"]}


def test_every_metric_from_a_whole_rubber(club, evening, ladder, commit):
    rubber = start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"])
    record(commit, rubber, *RUBBER)
    rows = rows_by_name(ladder)
    ann, bob = rows["Ann"]["metrics"], rows["Bob"]["metrics"]
    # Points: NS 2+2+1+2+2+2 = 11 (hand 6's second point is its lap, ruling E6); EW 4+1.
    assert (ann["points"], bob["points"]) == (11, 5)
    assert (ann["net_rubber_points"], bob["net_rubber_points"]) == (5, -5)
    assert (ann["rubbers_won"], bob["rubbers_won"]) == (1, 0)
    assert (ann["games_won"], bob["games_won"]) == (2, 1)
    assert (ann["marches"], bob["marches"]) == (5, 1)  # EW's lone march counts too
    assert (ann["lone_hands"], bob["lone_hands"]) == (0, 1)
    assert (ann["euchres"], bob["euchres"]) == (0, 0)
    assert (Decimal(ann["stake_won"]), Decimal(bob["stake_won"])) == (
        Decimal("1.25"), Decimal("-1.25")
    )  # fmt: skip
    # Default precedence: net rubber points first; partners tie and show "=1", "=3".
    assert [rows[n]["display_rank"] for n in ["Ann", "Cora", "Bob", "Dan"]] == [
        "=1", "=1", "=3", "=3"
    ]  # fmt: skip


def test_euchres_suffered_rank_lower_first(club, evening, ladder, commit):
    commit(services.tournament_update, tournament=ladder, precedence=["euchres", "points"])
    rubber = start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"])
    record(commit, rubber, hand("NS", 2), hand("EW", 3))  # NS euchred: EW 2; then EW 1
    rows = rows_by_name(ladder)
    assert rows["Ann"]["metrics"]["euchres"] == 1
    assert rows["Bob"]["display_rank"] == "=1"
    assert rows["Ann"]["display_rank"] == "=3"


def test_head_to_head_ranks_players_by_their_meetings(club, evening, ladder, commit):
    commit(services.tournament_update, tournament=ladder, precedence=["head_to_head"])
    for ns, ew in [(["Ann", "Cora"], ["Bob", "Dan"]), (["Ann", "Dan"], ["Bob", "Cora"]),
                   (["Ann", "Cora"], ["Bob", "Dan"])]:  # fmt: skip
        record(commit, start(club, evening, ns, ew), *sweep("NS"))
    rows = rows_by_name(ladder)
    # Each rubber counts once: won +1, lost -1, against the others of the group, however
    # many of them were opponents (tests/tournaments/test_standings_head_to_head.py).
    assert {n: rows[n]["metrics"]["head_to_head"] for n in ["Ann", "Cora", "Dan", "Bob"]} == {
        "Ann": 3, "Cora": 1, "Dan": -1, "Bob": -3
    }  # fmt: skip
    assert [rows[n]["rank"] for n in ["Ann", "Cora", "Dan", "Bob"]] == [1, 2, 3, 4]


def test_a_rubber_outside_the_ladder_does_not_count(club, evening, ladder, commit):
    from tests.factories import EveningFactory

    other_evening = EveningFactory(club=club)
    record(commit, start(club, other_evening, ["Ann", "Cora"], ["Bob", "Dan"]), *sweep("NS"))
    assert not TournamentTotal.objects.filter(tournament=ladder).exists()
    assert not StandingsDirty.objects.exists()


def test_correction_and_removal_update_the_standings(club, evening, ladder, commit):

    rubber = start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"])
    record(commit, rubber, hand("NS", 3), hand("NS", 3))
    commit(recording.hand_correct, rubber_id=rubber.pk, number=2, data=hand("NS", 5),
           reason="", is_secretary=True)  # fmt: skip
    assert rows_by_name(ladder)["Ann"]["metrics"]["points"] == 3
    commit(recording.hand_remove, rubber_id=rubber.pk, number=2, is_secretary=True)
    assert rows_by_name(ladder)["Ann"]["metrics"]["points"] == 1
    # Hand 2 was recorded after hand 1: taking hand 1 off too needs the referee's reason
    # (ruling E9), hand 2 taken off or not.
    commit(recording.hand_remove, rubber_id=rubber.pk, number=1, is_secretary=True,
           reason="no hand was played")  # fmt: skip
    assert "Ann" not in rows_by_name(ladder)


def test_full_recalculation_equals_incremental(club, evening, ladder, commit):
    rubber = start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"])
    record(commit, rubber, *RUBBER)
    record(commit, start(club, evening, ["Edith", "Bob"], ["Frank", "Ann"]), *sweep("EW"))
    incremental = rows_by_name(ladder)
    version = services.standings_full_recalculation(tournament_id=ladder.pk)
    assert version.kind == "full"
    assert rows_by_name(ladder) == incremental


def test_changing_the_evenings_recalculates_in_full(club, evening, ladder, commit):
    from tests.factories import EveningFactory

    other = EveningFactory(club=club)
    record(commit, start(club, other, ["Ann", "Cora"], ["Bob", "Dan"]), *sweep("NS"))
    commit(services.tournament_update, tournament=ladder, evening_ids=[evening.pk, other.pk])
    assert rows_by_name(ladder)["Ann"]["metrics"]["rubbers_won"] == 1
    assert services.standings_progress(tournament_id=ladder.pk)["state"] == "done"


def test_old_versions_are_pruned(club, evening, ladder, commit):
    for _ in range(3):  # 36 hands, 36 versions
        rubber = start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"])
        record(commit, rubber, *([hand("NS", 3), hand("EW", 3)] * 6))
    kept = StandingsVersion.objects.filter(tournament=ladder)
    assert kept.count() <= services.KEEP_VERSIONS + services.PRUNE_EVERY
    ladder.refresh_from_db()
    assert ladder.standings_version > services.KEEP_VERSIONS + services.PRUNE_EVERY
    assert kept.filter(number=ladder.standings_version).exists()  # the latest stays


@pytest.mark.parametrize("precedence", [[], ["nonsense"], ["points", "points"]])
def test_bad_precedence_names_the_field(ladder, precedence):
    from config.api import UserError

    with pytest.raises(UserError) as error:
        services.tournament_update(tournament=ladder, precedence=precedence)
    assert error.value.field == "precedence"


def test_bridge_honours_are_summed_per_player(club, ladder, commit):
    from scoring import services as scoring
    from tests.factories import EveningFactory

    bridge = EveningFactory(club=club, ruleset="bridge-elwell-1907")
    commit(services.tournament_update, tournament=ladder, evening_ids=[bridge.pk])
    rubber = scoring.rubber_start(
        club=club, evening=bridge, ruleset="bridge-elwell-1907",
        players={"NS": ["Ann", "Cora"], "EW": ["Bob", "Dan"]},
    )  # fmt: skip
    # Ruling B3: hearts (v = 8); four honours in one hand 8v = 64, to NS, who hold them.
    record(commit, rubber, {"declarer": "EW", "trump": "H", "tricks": {"NS": 6, "EW": 7},
                            "honours": {"side": "NS", "held": 4, "in_one_hand": 4}})  # fmt: skip
    rows = rows_by_name(ladder)
    assert rows["Ann"]["metrics"]["honours"] == 64
    assert rows["Bob"]["metrics"]["honours"] == 0


def test_the_standings_describe_their_metrics_as_the_registry_does(ladder, api):
    from tournaments.metrics import METRICS

    standings = standings_published(tournament=ladder)
    assert standings["precedence"] == [
        METRICS[entry["key"]].as_dict() for entry in standings["precedence"]
    ]
    assert standings["precedence"]
    schema = api.get("/api/schema/?format=json").content.decode()
    for metric in METRICS.values():
        assert metric.description in schema


def test_every_column_metric_is_a_stored_total_computed_from_its_registration():
    from tournaments.metrics import COLUMN_METRICS

    columns = {field.name for field in TournamentTotal._meta.get_fields()}
    assert {*COLUMN_METRICS, "head_to_head"} <= columns
    assert set(services._aggregates()) == set(services.TOTAL_FIELDS)


def test_a_recalculation_writes_no_history_row_of_its_tournament(
    club, evening, ladder, commit, postgres
):
    """Each recalculation moves the tournament's standings version and is a
    StandingsVersion row of its own: the move alone writes no history row of the
    tournament (core.audit's `counters`); a director's change does, the version with it."""
    from tournaments.models import TournamentHistory

    def history():
        return list(TournamentHistory.objects.filter(pgh_obj=ladder).order_by("pgh_id"))

    before = len(history())
    rubber = start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"])
    record(commit, rubber, *RUBBER[:3])
    ladder.refresh_from_db()
    versions = StandingsVersion.objects.filter(tournament=ladder).count()
    assert versions >= 2 and ladder.standings_version >= versions  # it was recalculated
    assert len(history()) == before
    commit(services.tournament_update, tournament=ladder, name="Spring ladder")
    rows = history()
    assert len(rows) == before + 1
    assert rows[-1].name == "Spring ladder"
    assert rows[-1].standings_version == ladder.standings_version
