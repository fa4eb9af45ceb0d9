"""`season_make`: the tables loaded, the season generated into them in one transaction, the
standings recalculated."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.db import connection, transaction

from club.models import Club, Evening, Member, Table
from scoring.models import (
    SEAT_SUMS,
    Game,
    Hand,
    HandCorrection,
    HandScore,
    Rubber,
    RubberPlayer,
    Settlement,
)

# The service's own functions, so that a generated hand's rows are exactly the rows
# recording it through the API would write.
from tournaments.models import Round, RoundTable, Tournament, TournamentPlayer

from .bulk import (
    BulkTable,
    CopySink,
    InsertSink,
    Sink,
)
from .generator import Season
from .mix import SeasonReport

SEAT_COLUMNS = (*SEAT_SUMS, "evening_id", "finished", "won", "rubber_points", "round_won")


def loaded_tables() -> list[BulkTable]:
    """What the generator writes, table by table, in the order a chunk is written."""
    return [
        BulkTable.of(Member, ("id", "club_id", "name", "is_guest", "created_at")),
        BulkTable.of(
            Evening,
            (
                "id",
                "club_id",
                "title",
                "date",
                "ruleset",
                "options",
                "stake",
                "status",
                "created_at",
            ),
        ),
        BulkTable.of(
            Table,
            ("id", "club_id", "evening_id", "number", "token", "created_at", "link_issued_at"),
        ),
        BulkTable.of(
            Tournament,
            (
                "id",
                "club_id",
                "name",
                "slug",
                "kind",
                "ruleset",
                "is_public",
                "precedence",
                "movement",
                "rounds_planned",
                "deals_per_round",
                "standings_round",
                "standings_version",
                "created_at",
                "stake",
            ),
        ),
        BulkTable.of(Tournament.evenings.through, ("id", "tournament_id", "evening_id")),
        BulkTable.of(
            TournamentPlayer, ("id", "tournament_id", "member_id", "joined_round", "left_round")
        ),
        BulkTable.of(
            Rubber,
            (
                "id",
                "club_id",
                "evening_id",
                "table_id",
                "ruleset",
                "options",
                "players",
                "stake",
                "status",
                "winner",
                "value",
                "summary",
                "hand_count",
                "created_by_id",
                "created_at",
                "completed_at",
            ),
        ),
        BulkTable.of(Round, ("id", "tournament_id", "number", "seating", "created_at")),
        BulkTable.of(RoundTable, ("id", "round_id", "number", "rubber_id")),
        BulkTable.of(
            RubberPlayer, ("id", "rubber_id", "member_id", "side", "position", *SEAT_COLUMNS)
        ),
        BulkTable.of(
            Hand,
            (
                "id",
                "rubber_id",
                "number",
                "data",
                "tricks",
                "points",
                "lines",
                "facts",
                "game_won",
                "recorded_by_id",
                "recorded_at_table",
                "recorded_at",
                "correction_count",
            ),
        ),
        BulkTable.of(
            HandScore,
            (
                "id",
                "hand_id",
                "rubber_id",
                "member_id",
                "side",
                "points",
                "march",
                "lone_made",
                "euchred",
                "honours",
            ),
        ),
        BulkTable.of(
            Game, ("id", "rubber_id", "number", "winner", "value", "lap", "scores", "detail")
        ),
        BulkTable.of(Settlement, ("id", "rubber_id", "member_id", "amount")),
        BulkTable.of(
            HandCorrection,
            (
                "id",
                "hand_id",
                "previous_data",
                "previous_points",
                "data",
                "kind",
                "reason",
                "law",
                "by_user_id",
                "at_table",
                "at",
            ),
        ),
    ]


def season_make(
    *,
    club_slug: str,
    players: int,
    evenings: int,
    hands: int,
    seed: int = 1888,
    lines: bool = True,
    drop_constraints: bool = True,
    recalculate: bool = True,
    progress: Callable[[int], None] | None = None,
) -> SeasonReport:
    """Generate a season for a new club (or an empty one) and publish its standings.

    `lines=False` stores an empty explanation for each hand, to save the time and space of
    building them (about a quarter of the generator's time); a page would show no
    explanation for those hands. `drop_constraints` (PostgreSQL only) drops the loaded
    tables' foreign keys and non-unique indexes for the load and re-creates them before
    commit. Then each tournament's standings are fully recalculated, one by one.
    `progress`, if given, is called with the number of hands played since its last call
    (after each rubber), for a progress bar.
    """
    if players < 8:
        raise ValueError("a season needs at least eight players (two tables)")
    if evenings < 1 or hands < 1:
        raise ValueError("a season needs at least one evening and one hand")
    report = SeasonReport(club=club_slug, seed=seed)
    started = time.monotonic()
    with transaction.atomic():
        club = Club.objects.filter(slug=club_slug).first()
        if club is None:
            club = Club.objects.create(name=club_slug.replace("-", " ").title(), slug=club_slug)
        elif club.members.exists() or club.evenings.exists():
            raise ValueError(f"club {club_slug!r} has members or evenings already")
        tables = loaded_tables()
        if connection.vendor == "postgresql":
            sink: Sink = CopySink(tables, drop_constraints=drop_constraints)
        else:
            sink = InsertSink(tables)
        report.bulk = sink.describe
        sink.begin()
        season = Season(
            sink=sink,
            club=club,
            players=players,
            evenings=evenings,
            hands=hands,
            seed=seed,
            lines=lines,
            report=report,
            progress=progress,
        )
        season.members()
        plans = season.plan()
        season.tournaments(plans)
        generated = time.monotonic()
        season.play(plans)
        finishing = time.monotonic()
        sink.finish()
        report.timings["generate and write"] = finishing - generated
        report.timings["finish the load"] = time.monotonic() - finishing
        report.timings["commit"] = -time.monotonic()
    report.timings["commit"] += time.monotonic()
    _analyze(sink, report)
    if recalculate:
        from tournaments.services import standings_full_recalculation

        for tournament_id, slug in season.tournament_list:
            t0 = time.monotonic()
            version = standings_full_recalculation(tournament_id=tournament_id)
            report.tournaments.append(
                {
                    "id": tournament_id,
                    "slug": slug,
                    "players": version.players_recomputed if version else 0,
                    "seconds": round(time.monotonic() - t0, 3),
                }
            )
        report.timings["standings"] = sum(t["seconds"] for t in report.tournaments)
    report.timings["total"] = time.monotonic() - started
    return report


def _analyze(sink: Sink, report: SeasonReport) -> None:
    """Give the planner statistics for the new rows (and, outside a transaction, vacuum
    so that index-only scans work at once, as they would on a table autovacuum keeps)."""
    if connection.vendor != "postgresql":
        return
    t0 = time.monotonic()
    names = ", ".join(m._meta.db_table for m in sink.order)
    with connection.cursor() as cursor:
        if connection.in_atomic_block:
            cursor.execute(f"ANALYZE {names}")
        else:
            cursor.execute(f"VACUUM (ANALYZE) {names}")
    report.timings["vacuum analyze"] = time.monotonic() - t0
