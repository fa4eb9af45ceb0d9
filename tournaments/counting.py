"""Which rubbers and seats count in a tournament, and the recalculation's reads of them,
compiled once (tournaments.services totals them, tournaments.ranking ranks them)."""

from django.db.models import Q, QuerySet

from core.compiled import Compiled
from scoring.models import Rubber, RubberPlayer
from tournaments.models import RoundTable, Tournament

# --- which rubbers count ------------------------------------------------------------------


def _round_rubbers(tournament: Tournament):
    """A progressive's rubbers: those of its rounds, up to the round the director has
    selected (all when none is). Values of the rubbers' ids."""
    tables = RoundTable.objects.filter(round__tournament=tournament)
    if tournament.standings_round:
        tables = tables.filter(round__number__lte=tournament.standings_round)
    return tables.values("rubber_id")


def _season_evenings(tournament: Tournament):
    """A ladder's evenings: values of their ids (no join through club_evening)."""
    return Tournament.evenings.through.objects.filter(tournament=tournament).values("evening_id")


def counted_rubbers(tournament: Tournament) -> QuerySet[Rubber]:
    """The rubbers (and Call-Ace sittings) whose hands count in the tournament.

    Ladder: every rubber played in the season's evenings. Progressive: the rubbers of
    its rounds, up to the round the director has selected (all when none is).
    """
    if tournament.kind == Tournament.Kind.LADDER:
        return Rubber.objects.filter(evening_id__in=_season_evenings(tournament))
    return Rubber.objects.filter(pk__in=_round_rubbers(tournament))


def counted_seats(tournament: Tournament) -> QuerySet[RubberPlayer]:
    """The players' seats in the counted rubbers, found on the seats alone: each seat
    carries its rubber's evening (scoring.rollup), so a ladder needs no join."""
    # No ordering: the seats' default one (by rubber) would join the rubbers back in.
    seats = RubberPlayer.objects.order_by()
    if tournament.kind == Tournament.Kind.LADDER:
        return seats.filter(evening_id__in=_season_evenings(tournament))
    return seats.filter(rubber_id__in=_round_rubbers(tournament))


def tournaments_counting(rubber: Rubber) -> QuerySet[Tournament]:
    """The tournaments a rubber counts in (its evening's ladders, its progressive)."""
    condition = Q(kind=Tournament.Kind.PROGRESSIVE, rounds__tables__rubber=rubber)
    if rubber.evening_id:
        condition |= Q(kind=Tournament.Kind.LADDER, evenings=rubber.evening_id)
    return Tournament.objects.filter(condition).distinct()


# --- a recalculation's reads, compiled once ----------------------------------------------------
#
# An incremental recalculation reads the same few statements each time, for other
# players: building and compiling them cost the worker more than running them
# (BENCHMARKS.md, 25 November). Each is compiled once a thread and shape (core/compiled.py),
# the changed players given as one array (`member_id__any`).

_COMPILED: dict[tuple, Compiled] = {}


def compiled_read(key: tuple, build, *kinds: type) -> Compiled:
    found = _COMPILED.get(key)
    if found is None:
        found = _COMPILED[key] = Compiled(build, *kinds)
    return found


def counted_rows(name: str, tournament: Tournament, build, member_ids) -> list[tuple]:
    """`build(seats, member_ids)`'s rows, `seats` the tournament's `counted_seats`:
    compiled once for each kind of tournament (a progressive's selected round or not)."""
    kind = tournament.kind
    if kind != Tournament.Kind.LADDER and tournament.standings_round:  # up to a round

        def made(pk: int, standings_round: int, ids: list) -> QuerySet:
            shaped = Tournament(pk=pk, kind=kind, standings_round=standings_round)
            return build(counted_seats(shaped), ids)

        compiled = compiled_read((name, kind, "round"), made, int, int, list)
        return compiled.rows(tournament.pk, tournament.standings_round, list(member_ids))
    compiled = compiled_read(
        (name, kind),
        lambda pk, ids: build(counted_seats(Tournament(pk=pk, kind=kind)), ids),
        int,
        list,
    )
    return compiled.rows(tournament.pk, list(member_ids))
