"""Reads for tournaments: who may see which, and the published standings."""

from collections.abc import Sequence
from decimal import Decimal

from django.core.cache import cache
from django.db.models import Count, OuterRef, QuerySet, Subquery, Sum
from django.db.models.functions import Lower
from django.http import Http404
from django.urls import reverse

from club.models import Club
from club.selectors import RubberPlace, club_is_directed_by
from tournaments.counting import counted_seats
from tournaments.metrics import FIGURES, METRICS, precedence_of, still_ranking
from tournaments.models import (
    RoundTable,
    StandingsVersion,
    Tournament,
    TournamentPlayer,
    TournamentTotal,
)
from tournaments.pagecache import VERSION_KEY
from tournaments.services import TOTAL_FIELDS


def tournaments_visible(*, club: Club, user) -> QuerySet[Tournament]:
    """The club's tournaments this user may see: private ones only for its secretaries and
    directors."""
    tournaments = Tournament.objects.filter(club=club).select_related("club")
    if not club_is_directed_by(club=club, user=user):
        tournaments = tournaments.filter(is_public=True)
    return tournaments


def tournament_for(*, club: Club, slug: str, user) -> Tournament:
    """One tournament of the club as this user may see it, or 404."""
    tournament = tournaments_visible(club=club, user=user).filter(slug=slug).first()
    if tournament is None:
        raise Http404("No such tournament.")
    return tournament


def member_places(*, member, user) -> list[dict]:
    """The tournaments of his club this user may see where the member is ranked, with his
    place as the last recalculation ranked him ("=1 of 4"), the newest first: a reader
    who came to his page from a ladder's standings finds his way back to them."""
    visible = tournaments_visible(club=member.club, user=user)
    ranked = (  # how many each tournament ranks, in the same statement
        TournamentTotal.objects.filter(tournament=OuterRef("tournament"))
        .order_by()
        .values("tournament")
        .annotate(n=Count("pk"))
        .values("n")
    )
    totals = (
        TournamentTotal.objects.filter(member=member, tournament__in=visible)
        .select_related("tournament")
        .annotate(ranked=Subquery(ranked))
        .order_by("-tournament__created_at", "tournament__name")
    )
    return [
        {
            "tournament": total.tournament,
            "place": f"={total.rank}" if total.tied else str(total.rank),
            "of": total.ranked,
        }
        for total in totals
    ]


#: What "Public standings" off hides, in words for whoever switches it (the director's form,
#: the API's schema).
PUBLIC_STANDINGS = (
    "Off: the standings, the room display and a progressive's tables and rubbers are for "
    "the club's secretaries and tournament directors alone, and so is a guest entered "
    "there (added to the club's players) until he plays at an evening or a public "
    "tournament; a ladder's evenings stay on the club's public pages."
)


def rubbers_of_private_progressives(*, club: Club) -> QuerySet:
    """The ids of the rubbers played at the rounds of the club's progressives whose
    standings are not public: a progressive's tables and rubbers are its own, seated by
    its director for it alone, so its play is as private as its standings and kept from
    the club's public pages and the API (club.selectors.rubbers_hidden_from).

    A ladder's evenings are not: an evening is the club's own, opened by its secretary
    and played in its room, on its home page, its room display and its ledger whether or
    not a ladder counts it; a ladder only ranks evenings, a director (who runs no evening)
    would otherwise hide the club's evenings by counting them in a private ladder, and
    one evening may count in several ladders, public and not. Switching a ladder's
    standings off hides its standings and its room, not the club's evenings."""
    return RoundTable.objects.filter(
        round__tournament__club=club, round__tournament__is_public=False
    ).values("rubber_id")


def round_table_places(rubber_ids: list[int]) -> dict[int, RubberPlace]:
    """The progressive's round and table each of these rubbers was played at (a round
    table's rubber is at no evening's table), for club.selectors.rubber_places."""
    tables = RoundTable.objects.filter(rubber_id__in=rubber_ids).select_related(
        "round__tournament__club"
    )
    return {
        table.rubber_id: RubberPlace(
            of=table.round.tournament.name,
            of_url=reverse(
                "tournament-standings",
                args=[table.round.tournament.club.slug, table.round.tournament.slug],
            ),
            at=f"round {table.round.number}, table {table.number}",
        )
        for table in tables
    }


def guests_of_private_progressives(*, club: Club) -> QuerySet:
    """The ids of the club's members entered at its progressives whose standings are not
    public and at none of its public tournaments: entering a name the roster lacks adds
    him as a guest (tournaments.rounds.tournament_enter), and his name on the club's
    public pages would tell who played at the private event. club.selectors.
    members_hidden_from hides such a guest while he has no other appearance at the club
    (a seat in a rubber the public reads, an arrival at an evening)."""
    entries = TournamentPlayer.objects.filter(tournament__club=club)
    return (
        entries.filter(tournament__is_public=False)
        .exclude(member_id__in=entries.filter(tournament__is_public=True).values("member_id"))
        .values("member_id")
    )


def standings_version_number(*, tournament_id: int) -> int:
    """The latest published standings version, from the cache when it has it."""
    key = VERSION_KEY.format(tournament_id)
    number = cache.get(key)
    if number is None:
        number = (
            Tournament.objects.filter(pk=tournament_id)
            .values_list("standings_version", flat=True)
            .first()
        ) or 0
        # add, not set: a recalculation that published meanwhile has written a newer one.
        cache.add(key, number, None)
    return number


STANDINGS_PAGE = 100  # rows on a page of the public standings (and of the API's)
MAX_PAGE = 1000  # 100,000 places
SHOWN = [*TOTAL_FIELDS, "head_to_head"]  # every metric, whatever the precedence list


def standings_published(
    *,
    tournament: Tournament,
    number: int | None = None,
    name: str = "",
    lazy: bool = False,
    totals: QuerySet[TournamentTotal] | None = None,
) -> dict:
    """The published standings as the API and the pages show them: every ranked row (only
    players whose name contains `name` when it is given, or the rows of `totals`, the
    tournament's totals as a filter left them, `tournaments.filters`); `standings_page`
    cuts a page. `metrics` describes every figure of a row, `precedence` those ranked by.

    The rows are the tournament's totals as the last recalculation ranked them; `number`
    is the version they are shown under (the caller's, read from the cache). `lazy`:
    the rows stay plain tuples, dressed as dicts when read, so that a page dresses only
    its hundred (the crowd's pages cut every page of a version from one read).
    """
    number = tournament.standings_version if number is None else number
    version = StandingsVersion.objects.filter(tournament=tournament, number=number).first()
    # What the ranking used (tournaments.metrics.precedence_of): a metric that no longer
    # ranks the tournament, in a version published before it stopped, is not shown either.
    precedence = (
        still_ranking(tournament, version.precedence) if version else precedence_of(tournament)
    )
    totals = (TournamentTotal.objects if totals is None else totals).filter(tournament=tournament)
    if name:
        totals = totals.filter(member__name__icontains=name)
    rows = _Rows(
        totals.order_by("rank", Lower("member__name"), "member_id").values_list(
            "member_id", "member__name", "rank", "tied", *SHOWN
        ),
        precedence,
    )
    return {
        "tournament": tournament.slug,
        "version": number,
        "computed_at": version.created_at.isoformat() if version else None,
        "precedence": [METRICS[key].as_dict() for key in precedence],
        "metrics": [
            FIGURES[key].as_dict() if key in FIGURES else METRICS[key].as_dict() for key in SHOWN
        ],
        "rows": rows if lazy else rows[:],
    }


class _Rows(Sequence):
    """Ranked rows kept as the database gave them, dressed as dicts when read."""

    def __init__(self, ranked, precedence: list[str]):
        self.ranked, self.precedence = list(ranked), precedence

    def __len__(self) -> int:
        return len(self.ranked)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [_dressed(row, self.precedence) for row in self.ranked[index]]
        return _dressed(self.ranked[index], self.precedence)


def _dressed(row: tuple, precedence: list[str]) -> dict:
    member_id, name, rank, tied, *values = row
    metrics = {key: _shown(value) for key, value in zip(SHOWN, values, strict=True)}
    return {
        "member": member_id,
        "name": name,
        "rank": rank,
        "tied": tied,
        "display_rank": f"={rank}" if tied else str(rank),
        "metrics": metrics,
        "values": [metrics[key] for key in precedence],
    }


def standings_pages(standings: dict, per_page: int = STANDINGS_PAGE) -> int:
    """How many pages published standings fill (one at least)."""
    return max(1, -(-len(standings["rows"]) // per_page))


def standings_page(standings: dict, page: int, per_page: int = STANDINGS_PAGE) -> dict:
    """One page of published standings (a page past the end is the last one)."""
    count = len(standings["rows"])
    pages = standings_pages(standings, per_page)
    page = min(max(1, page), pages)
    rows = standings["rows"][(page - 1) * per_page : page * per_page]
    return {**standings, "rows": rows, "count": count, "page": page, "pages": pages}


def _shown(value):
    """Money as its string ("1.50"), counts as they are."""
    return str(value) if isinstance(value, Decimal) else value


def tournament_ledger(*, tournament: Tournament) -> dict[str, Decimal]:
    """Each player's winnings (+) and losses (-) at a progressive's stake per point (ruling
    P2, settled as an evening's rubbers are, M1), or a ladder's at its evenings' stakes: the
    sum of what his seats in the counted rubbers settled; a round of fixed deals settles at
    the difference of the sides' points (`scoring.rollup`). They add to zero."""
    rows = (
        counted_seats(tournament)
        .values("member__name")
        .annotate(total=Sum("stake_won"))
        .order_by("member__name")
    )
    return {row["member__name"]: Decimal(row["total"]).quantize(Decimal("0.01")) for row in rows}
