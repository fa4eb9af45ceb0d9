"""The worker's statements for one recorded hand, fixed however large the ladder (issue 17).

A hand recorded leaves its players in the standings' outbox of each tournament it counts
in (here the season's ladder and the year's); the Celery task
(`tournaments.tasks.recalculate_standings`) then brings those tournaments up to date and
publishes each a new version, and after each commit tells the crowd's pages
(`tournaments.pagecache.announce`). Its statements are counted here in a small ladder
and in one ten times larger: a statement per player, or per row ranked again, would show
in the larger at once. A change that adds a statement to the worker's path must raise
the bound here, on purpose.
"""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from club import recording
from club.models import Club, Evening, Member, Table
from scoring import services as scoring
from scoring.models import Rubber
from scoring.rules import EUCHRE
from tournaments.counting import tournaments_counting
from tournaments.management.season import season_make
from tournaments.models import StandingsDirty, TournamentTotal
from tournaments.tasks import recalculate_standings

# For each tournament (11 here): the transaction's BEGIN and COMMIT, the lock, the
# tournament, its outbox, the changed players' totals, one statement that reads their old
# values, writes their totals and empties the outbox, the tied players' head-to-head, the
# ranking, the version published, and the crowd's lookup told. A tie broken head to head
# adds its players' seats (and their figures written), every tenth version the oldest
# pruned. (Before issue 17's work: 14, and one more a task.)
MOST_A_TOURNAMENT = 13
TIE = 300


def _one_hand(club_slug: str) -> tuple[list[int], int]:
    """A rubber begun at a new table of the club's open evening, one hand recorded at it:
    the tournaments that hand counts in, and how many players the season's ladder ranks."""
    club = Club.objects.get(slug=club_slug)
    evening = Evening.objects.get(club=club, status=Evening.Status.OPEN)
    busy = set(
        Rubber.objects.filter(club=club, status="in_progress").values_list(
            "seats__member_id", flat=True
        )
    )
    four = [m.name for m in Member.objects.filter(club=club).exclude(pk__in=busy).order_by("pk")][
        :4
    ]
    table = Table.objects.create(club=club, evening=evening, number=500)
    rubber = scoring.rubber_start(
        club=club, evening=evening, table=table, ruleset=EUCHRE.key,
        players={"NS": four[:2], "EW": four[2:]},
    )  # fmt: skip
    recording.hand_record(rubber_id=rubber.pk, data={"makers": "NS", "tricks": 4})
    ids = sorted(tournaments_counting(rubber).values_list("pk", flat=True))
    ranked = TournamentTotal.objects.filter(tournament__club=club, tournament__slug="season")
    return ids, ranked.count()


def _worker_statements(ids: list[int], capture_on_commit) -> list[str]:
    """The statements of the task that recalculates `ids`, its commits' callbacks run."""
    with CaptureQueriesContext(connection) as queries, capture_on_commit(execute=True):
        numbers = recalculate_standings(*ids)
    assert all(numbers), numbers  # each tournament published a new version
    assert not StandingsDirty.objects.filter(tournament_id__in=ids).exists()
    return [query["sql"] for query in queries.captured_queries]


def test_the_worker_sends_as_many_statements_for_a_hand_however_many_players(
    db, postgres, redis, django_capture_on_commit_callbacks
):
    season_make(club_slug="small", players=40, evenings=4, hands=1600, seed=5, lines=False)
    season_make(club_slug="large", players=400, evenings=4, hands=12000, seed=5, lines=False)
    small_ids, small_players = _one_hand("small")
    large_ids, large_players = _one_hand("large")
    assert len(small_ids) == len(large_ids) == 2  # the season's ladder and the year's
    assert large_players >= 8 * small_players
    small = _worker_statements(small_ids, django_capture_on_commit_callbacks)
    large = _worker_statements(large_ids, django_capture_on_commit_callbacks)
    assert len(large) <= len(small)
    # The task's own statements beside each tournament's: none, once the outbox is empty.
    assert len(large) <= MOST_A_TOURNAMENT * len(large_ids), "\n".join(large)


def _rows_read(plan: dict, table: str) -> int:
    """The rows a plan's nodes read from `table`, each as often as the node ran."""
    read = 0
    if plan.get("Relation Name") == table:
        per_loop = plan.get("Actual Rows", 0) + plan.get("Rows Removed by Filter", 0)
        read += per_loop * plan.get("Actual Loops", 1)
    for child in plan.get("Plans", []):
        read += _rows_read(child, table)
    return read


def test_ranking_a_long_tie_reads_the_standings_a_few_times_not_once_a_row(db, postgres, club):
    """A player moving through a long tie (everyone on 0 net rubber points early in a
    year's ladder) has every row of it ranked again, after as many places as there are
    rows above it. That count was the inner side of a join, run again for each row
    ranked, when the table's statistics were taken before the tie was long (autovacuum
    off, or not yet come round): 383 rows ranked read 431,000 rows, 254 ms of
    PostgreSQL's CPU (issue 17). It is counted once."""
    from tournaments import ranking, services
    from tournaments.models import Tournament

    members = Member.objects.bulk_create(
        [Member(club=club, name=f"Player {i}") for i in range(TIE)]
    )
    season = Tournament.objects.create(club=club, name="Season", slug="season", kind="ladder")
    TournamentTotal.objects.bulk_create(  # every player apart on net rubber points
        [
            TournamentTotal(tournament=season, member=m, hands=1, net_rubber_points=i)
            for i, m in enumerate(members)
        ]
    )
    with connection.cursor() as cursor:  # the statistics, taken then
        cursor.execute(f"ANALYZE {TournamentTotal._meta.db_table}")
    year = Tournament.objects.create(club=club, name="Year", slug="year", kind="ladder")
    TournamentTotal.objects.bulk_create(  # everyone on 0 net rubber points
        [
            TournamentTotal(tournament=year, member=m, hands=1, points=i)
            for i, m in enumerate(members)
        ]
    )
    ranking.standings_rank(year)
    last = members[0].pk  # the foot of the tie goes to its head
    nothing = dict.fromkeys(services.TOTAL_FIELDS, 0)
    changed = {last: {**nothing, "hands": 2, "points": 1000}}
    moved = ranking.moved_within(year, changed)
    services._write_totals(year, changed, replace_all=False)
    with CaptureQueriesContext(connection) as queries:
        ranking.standings_rank(year, moved)
    (update,) = [q["sql"] for q in queries.captured_queries if "SET rank" in q["sql"]]
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + update)
        (plan,) = cursor.fetchone()[0]
    assert _rows_read(plan["Plan"], TournamentTotal._meta.db_table) <= 4 * 2 * TIE
    places = TournamentTotal.objects.filter(tournament=year).values_list("member_id", "rank")
    assert sorted(rank for _, rank in places) == list(range(1, TIE + 1))
    assert dict(places)[last] == 1
