"""Property: after any sequence of records, corrections and removals, the standings kept
incrementally equal a recalculation from scratch (run on PostgreSQL in CI)."""

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.api import UserError
from scoring import services as scoring
from scoring.rules import ScoringError
from tests.factories import EveningFactory
from tests.tournaments.conftest import start
from tournaments import services
from tournaments.models import StandingsVersion, TournamentTotal

euchre_hand = st.fixed_dictionaries(
    {"makers": st.sampled_from(["NS", "EW"]), "alone": st.booleans(), "tricks": st.integers(0, 5)}
)
operation = st.one_of(
    st.tuples(st.just("record"), st.integers(0, 1), euchre_hand),
    st.tuples(st.just("correct"), st.integers(0, 1), st.integers(1, 12), euchre_hand),
    st.tuples(st.just("remove"), st.integers(0, 1)),
)
slugs = itertools.count()


def published(tournament):
    tournament.refresh_from_db()
    version = StandingsVersion.objects.get(
        tournament=tournament, number=tournament.standings_version
    )
    return version.rows


def totals(tournament):
    return sorted(
        TournamentTotal.objects.filter(tournament=tournament).values(
            "member_id", "points", "net_rubber_points", "rubbers_won", "rubbers_played",
            "games_won", "marches", "lone_hands", "euchres", "honours", "stake_won", "hands",
        ),
        key=lambda row: row["member_id"],
    )  # fmt: skip


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(operations=st.lists(operation, min_size=1, max_size=25))
def test_incremental_standings_equal_a_full_recalculation(club, roster, commit, operations):
    evening = EveningFactory(club=club)
    ladder = commit(
        services.tournament_create, club=club, name="L", slug=f"l{next(slugs)}", kind="ladder",
        evening_ids=[evening.pk], precedence=["points", "head_to_head", "rubbers_won"],
    )  # fmt: skip
    rubbers = [
        start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"]),
        start(club, evening, ["Ann", "Edith"], ["Frank", "Cora"]),
    ]
    for op in operations:
        rubber = rubbers[op[1]]
        try:
            if op[0] == "record":
                commit(scoring.rubber_record_hand, rubber_id=rubber.pk, data=op[2])
            elif op[0] == "correct":
                commit(scoring.hand_correct, rubber_id=rubber.pk, number=op[2], data=op[3],
                       reason="property test", is_secretary=True)  # fmt: skip
            else:
                rubber.refresh_from_db()
                commit(scoring.hand_remove_last, rubber_id=rubber.pk, number=rubber.hand_count,
                       reason="property test", is_secretary=True)  # fmt: skip
        except (UserError, ScoringError):
            pass  # an illegal step under the laws changes nothing
    incremental_rows, incremental_totals = published(ladder), totals(ladder)
    services.standings_full_recalculation(tournament_id=ladder.pk)
    assert published(ladder) == incremental_rows
    assert totals(ladder) == incremental_totals
