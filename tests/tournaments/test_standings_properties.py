"""Properties of the standings (run on PostgreSQL in CI):

- after any sequence of records, corrections and removals, the standings kept
  incrementally equal a recalculation from scratch, and both equal the totals summed
  straight from the hands, games and settlements (the seats' roll-up is never behind);
- the SQL ranking places players exactly as `tournaments.metrics.rank`, the rule in
  Python, on any totals and any precedence list.
"""

import itertools
from collections import defaultdict

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from club import recording
from club.models import Member
from config.api import UserError
from scoring.models import HandScore, Rubber
from scoring.rules import ScoringError
from tests.factories import EveningFactory
from tests.tournaments.conftest import start
from tournaments import ranking, services
from tournaments.metrics import COLUMN_METRICS, rank
from tournaments.models import Tournament, TournamentTotal
from tournaments.selectors import standings_published

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
    return standings_published(tournament=tournament)["rows"]


TOTALS = [
    "points", "net_rubber_points", "rubbers_won", "rubbers_played", "games_won", "marches",
    "lone_hands", "euchres", "honours", "stake_won", "hands",
]  # fmt: skip


def totals(tournament):
    return sorted(
        TournamentTotal.objects.filter(tournament=tournament).values("member_id", *TOTALS),
        key=lambda row: row["member_id"],
    )


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
                commit(recording.hand_record, rubber_id=rubber.pk, data=op[2])
            elif op[0] == "correct":
                commit(recording.hand_correct, rubber_id=rubber.pk, number=op[2], data=op[3],
                       reason="property test", is_secretary=True)  # fmt: skip
            else:
                rubber.refresh_from_db()
                commit(recording.hand_remove, rubber_id=rubber.pk, number=rubber.hand_count,
                       reason="property test", is_secretary=True)  # fmt: skip
        except (UserError, ScoringError):
            pass  # an illegal step under the laws changes nothing
    incremental_rows, incremental_totals = published(ladder), totals(ladder)
    services.standings_full_recalculation(tournament_id=ladder.pk)
    assert published(ladder) == incremental_rows
    assert totals(ladder) == incremental_totals
    assert incremental_totals == from_the_hands(rubbers)


def from_the_hands(rubbers):
    """Each player's totals summed from the stored hand scores, games and settlements
    themselves, without the seats' roll-up."""
    rows = defaultdict(lambda: dict.fromkeys(TOTALS, 0))
    for score in HandScore.objects.filter(rubber__in=rubbers):
        row = rows[score.member_id]
        row["points"] += score.points
        row["marches"] += score.march
        row["lone_hands"] += score.lone_made
        row["euchres"] += score.euchred
        row["honours"] += score.honours
        row["hands"] += 1
    for rubber in Rubber.objects.filter(pk__in=[r.pk for r in rubbers]):
        for seat in rubber.seats.all():
            row = rows[seat.member_id]
            row["games_won"] += rubber.games.filter(winner=seat.side).count()
            if rubber.status == Rubber.Status.COMPLETE:
                row["rubbers_played"] += 1
                won = seat.side == rubber.winner
                row["rubbers_won"] += won
                row["net_rubber_points"] += rubber.value if won else -rubber.value
        for settlement in rubber.settlements.all():
            rows[settlement.member_id]["stake_won"] += settlement.amount
    return sorted(
        (
            {"member_id": member_id, **row}
            for member_id, row in rows.items()
            if row["hands"] or row["rubbers_played"]
        ),
        key=lambda row: row["member_id"],
    )


metric_value = st.integers(-3, 3)  # few values: ties on every metric are common
totals_row = st.fixed_dictionaries(dict.fromkeys(COLUMN_METRICS, metric_value))
precedences = st.permutations([*COLUMN_METRICS, "head_to_head"]).flatmap(
    lambda keys: st.integers(1, len(keys)).map(lambda n: keys[:n])
)
slow_examples = settings(  # the parent of each test's settings
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _places(tournament) -> dict[int, tuple[int, bool]]:
    return {
        row["member_id"]: (row["rank"], row["tied"])
        for row in TournamentTotal.objects.filter(tournament=tournament).values(
            "member_id", "rank", "tied"
        )
    }


@settings(slow_examples, max_examples=40)
@given(players=st.lists(totals_row, max_size=12), precedence=precedences)
def test_the_sql_ranking_places_players_as_the_rule_does(club, players, precedence):
    tournament = Tournament.objects.create(
        club=club, name="R", slug=f"r{next(slugs)}", kind="ladder", precedence=precedence
    )
    members = [Member.objects.create(club=club, name=f"P{next(slugs)}") for _ in players]
    for member, values in zip(members, players, strict=True):
        TournamentTotal.objects.create(tournament=tournament, member=member, hands=1, **values)
    ranking.standings_rank(tournament)
    expected = rank(
        [
            {
                "member": m.pk,
                "name": m.name,
                "metrics": {**values, "stake_won": str(values["stake_won"])},
            }
            for m, values in zip(members, players, strict=True)
        ],
        precedence,
        head_to_head=lambda ids: dict.fromkeys(ids, 0),  # no rubbers: nobody met
    )
    assert _places(tournament) == {row["member"]: (row["rank"], row["tied"]) for row in expected}


@settings(slow_examples, max_examples=60)
@given(
    players=st.lists(totals_row, max_size=12),
    # (which player, his new totals): an index past the list is a player coming into the
    # standings; None is a player leaving them (every hand of his removed).
    changes=st.lists(st.tuples(st.integers(0, 13), st.none() | totals_row), max_size=4),
    precedence=precedences,
)
def test_ranking_the_moved_range_alone_places_everyone_as_ranking_them_all(
    club, players, changes, precedence
):
    """An incremental recalculation ranks only the rows between the changed players' old
    and new values of the first ranked metric (`ranking.Moved`): whatever the changes
    (players coming into the standings or leaving them included) and whatever the
    precedence (lower-is-better metrics first, head-to-head first), every place and tie
    is the one ranking all the rows gives."""
    tournament = Tournament.objects.create(
        club=club, name="M", slug=f"m{next(slugs)}", kind="ladder", precedence=precedence
    )
    members = [Member.objects.create(club=club, name=f"P{next(slugs)}") for _ in range(14)]
    for member, values in zip(members, players, strict=False):
        TournamentTotal.objects.create(tournament=tournament, member=member, hands=1, **values)
    ranking.standings_rank(tournament)
    changed = {}
    for index, values in changes:
        nothing = dict.fromkeys(services.TOTAL_FIELDS, 0)
        changed[members[index].pk] = {**nothing, **values, "hands": 1} if values else nothing
    moved = ranking.moved_within(tournament, changed)
    services._write_totals(tournament, changed, replace_all=False)
    ranking.standings_rank(tournament, moved)
    limited = _places(tournament)
    ranking.standings_rank(tournament)
    assert limited == _places(tournament)


def test_ranges_that_share_a_value_are_merged():
    assert ranking.merged_ranges([(1, 3), (2, 5)]) == ((1, 5),)
    assert ranking.merged_ranges([(3, 3), (1, 2)]) == ((1, 2), (3, 3))
    assert ranking.merged_ranges([(1, 2), (2, 4), (4, 4)]) == ((1, 4),)
    assert ranking.merged_ranges([(None, 2), (1, 3), (7, 8)]) == ((None, 3), (7, 8))
    assert ranking.merged_ranges([(5, None), (1, 2), (6, 9)]) == ((1, 2), (5, None))
    assert ranking.merged_ranges([(2, 6), (3, 4)]) == ((2, 6),)
    assert ranking.merged_ranges([(None, 5), (None, 8), (9, 9)]) == ((None, 8), (9, 9))
    assert ranking.merged_ranges([(None, 5), (None, None)]) == ((None, None),)
    assert ranking.merged_ranges([(4, None), (6, None), (1, 1)]) == ((1, 1), (4, None))
    assert ranking.merged_ranges([(4, None), (4, 5), (4, 4)]) == ((4, None),)
    assert ranking.merged_ranges([]) == ()
    # Tuples (`Moved`'s values) as numbers are, nearest by their first differing place.
    assert ranking.merged_ranges([((1, 5), (2, 0)), ((2, 0), (2, 3)), ((4, 1), (4, 1))]) == (
        ((1, 5), (2, 3)), ((4, 1), (4, 1)),
    )  # fmt: skip
    # More than MAX_RANGES: the nearest merged first, every value still inside one.
    many = [(10 * i, 10 * i) for i in range(ranking.MAX_RANGES + 2)] + [(95, 96)]
    merged = ranking.merged_ranges(many)
    assert len(merged) == ranking.MAX_RANGES and (90, 96) in merged
    assert all(any(low <= v <= high for low, high in merged) for r in many for v in r)


def test_a_player_whose_first_value_stands_moves_only_those_equal_to_him(club):
    """Two players change but keep their net rubber points (a hand that ends no rubber):
    only the rows equal to one of them on it are ranked again. A player between them,
    whose place cannot have changed, is not touched (his place, spoiled on purpose
    below, stays spoiled); everyone else's place is the one ranking all the rows gives."""
    tournament = Tournament.objects.create(
        club=club, name="R", slug=f"r{next(slugs)}", kind="ladder", precedence=[]
    )
    members = [Member.objects.create(club=club, name=f"Q{next(slugs)}") for _ in range(5)]
    first = {0: 30, 1: 30, 2: 20, 3: 10, 4: 10}  # net rubber points
    for i, member in enumerate(members):
        TournamentTotal.objects.create(
            tournament=tournament, member=member, hands=1, net_rubber_points=first[i], points=i
        )
    ranking.standings_rank(tournament)
    assert _places(tournament)[members[2].pk] == (3, False)
    TournamentTotal.objects.filter(member=members[2]).update(rank=99)  # not to be touched
    nothing = dict.fromkeys(services.TOTAL_FIELDS, 0)
    changed = {  # points up, net rubber points as they were: each passes his equal
        members[1].pk: {**nothing, "hands": 2, "net_rubber_points": 30, "points": 50},
        members[4].pk: {**nothing, "hands": 2, "net_rubber_points": 10, "points": 50},
    }
    moved = ranking.moved_within(tournament, changed)
    # (net rubber points, rubbers won, points): each from his old points to his new.
    assert moved.ranges == (((10, 0, 4), (10, 0, 50)), ((30, 0, 1), (30, 0, 50)))
    services._write_totals(tournament, changed, replace_all=False)
    ranking.standings_rank(tournament, moved)
    places = _places(tournament)
    assert places[members[2].pk] == (99, False)
    assert [places[m.pk][0] for m in (members[1], members[0], members[4], members[3])] == [
        1, 2, 4, 5,
    ]  # fmt: skip


def test_a_player_passing_some_of_his_equals_moves_only_those_he_passes(club):
    """Early in a year's ladder most players are level on net rubber points and rubbers
    won (none has finished a rubber), ranked by their points (the default precedence). A
    hand moves its players' points: each changes places only with the rows between his
    old and new values of the metrics ranked before head-to-head. Those above where he
    now stands keep their places untouched (spoiled on purpose below, they stay
    spoiled); every other place is the one ranking all the rows gives."""
    tournament = Tournament.objects.create(
        club=club, name="R", slug=f"r{next(slugs)}", kind="ladder", precedence=[]
    )
    members = [Member.objects.create(club=club, name=f"S{next(slugs)}") for _ in range(6)]
    for i, member in enumerate(members):  # 10, 20, ... 60 points: sixth to first
        TournamentTotal.objects.create(
            tournament=tournament, member=member, hands=1, points=10 * (i + 1)
        )
    ranking.standings_rank(tournament)
    above = members[3:]  # 40, 50 and 60 points
    TournamentTotal.objects.filter(member__in=above).update(rank=99)  # not to be touched
    nothing = dict.fromkeys(services.TOTAL_FIELDS, 0)
    changed = {members[0].pk: {**nothing, "hands": 2, "points": 35}}  # passes 20 and 30
    moved = ranking.moved_within(tournament, changed)
    services._write_totals(tournament, changed, replace_all=False)
    ranking.standings_rank(tournament, moved)
    places = _places(tournament)
    assert [places[m.pk][0] for m in above] == [99, 99, 99]
    assert [places[m.pk][0] for m in (members[0], members[2], members[1])] == [4, 5, 6]
