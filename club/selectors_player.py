"""A player's record, evening by evening: the scorecard of his season (issue #15).

For each evening he played: the tables he sat at, his partners and his opponents, the
rubbers he won and lost, his points and his money; and the season's totals. A season is
a calendar year of the club's evenings. Rubbers played outside an evening are grouped by
the day they began: a progressive tournament's rounds under the tournament's name (its
place, club.selectors.rubber_places), a rubber scored on its own as such.
"""

from collections import defaultdict, namedtuple
from decimal import Decimal

from django.db.models import DateField, Q, QuerySet
from django.db.models.functions import Cast, Coalesce, ExtractYear, Lower

from club.models import Club, Evening, Member
from club.selectors import members_of, rubber_places, rubbers_hidden_from, without_hidden
from scoring.models import Rubber, RubberPlayer

# What club.selectors.rubber_places reads of a rubber.
_Rubber = namedtuple("_Rubber", "pk table_id")

# What the scorecard reads of each seat, in the order its loop takes them.
_SEAT_COLUMNS = (
    "rubber_id", "day", "side", "points", "stake_won", "rubber__evening_id",
    "rubber__table_id", "rubber__table__number", "rubber__status", "rubber__winner",
    "rubber__evening__title", "rubber__hand_count",
)  # fmt: skip

INDEX_LIMIT = 200  # names listed on the players' page at once; the search finds the rest


def _day():
    """The day a seat was played: its evening's date, else the day its rubber began."""
    return Coalesce("rubber__evening__date", Cast("rubber__created_at", DateField()))


def player_seasons(*, member: Member, hidden: QuerySet | None) -> list[int]:
    """The seasons (years) in which the player sat at a rubber, newest first (of the
    rubbers not `hidden`: club.selectors.rubbers_hidden_from)."""
    years = (
        without_hidden(RubberPlayer.objects.filter(member=member), hidden=hidden)
        .annotate(year=ExtractYear(_day()))
        .values_list("year", flat=True)
        .distinct()
    )
    return sorted({year for year in years if year}, reverse=True)


def player_scorecard(*, member: Member, season: int, hidden: QuerySet | None) -> dict:
    """The player's evenings of one season, newest first, and the season's totals, of the
    rubbers not `hidden` (club.selectors.rubbers_hidden_from).

    Each row: the date, the evening (None for rubbers outside one), the place of rubbers
    outside one (`place`, a progressive's: its name and page; None for a rubber scored on
    its own, or at an evening), the tables, partners
    and opponents (names, in the order first met), rubbers played, won and lost (a rubber
    unfinished or abandoned is neither; a Call-Ace sitting is neither won nor lost, it is
    settled, ruling C5), points scored and money won (+) or lost (-) at the stake.
    """
    # Plain values, not models: a season of some six hundred seats built five models a seat
    # (seat, rubber, evening, club, table), most of the page's time (docs/security.md,
    # "Floods"). An evening's day is its date (`_day`).
    seats = list(
        without_hidden(RubberPlayer.objects.filter(member=member), hidden=hidden)
        .annotate(day=_day())
        .filter(
            Q(rubber__evening__date__year=season)
            | Q(rubber__evening__isnull=True, rubber__created_at__year=season)
        )
        .order_by("day", "rubber__created_at", "rubber_id")
        .values_list(*_SEAT_COLUMNS)
    )
    others = defaultdict(list)
    for rubber_id, side, name in (
        RubberPlayer.objects.filter(rubber_id__in=[seat[0] for seat in seats])
        .exclude(member=member)
        .order_by("rubber_id", "position")
        .values_list("rubber_id", "side", "member__name")
    ):
        others[rubber_id].append((side, name))
    # Each evening once, as the page names it (its title, or the club and its date).
    evenings_of = {}
    for seat in seats:
        if seat[5] and seat[5] not in evenings_of:
            evenings_of[seat[5]] = Evening(
                pk=seat[5], club=member.club, title=seat[10], date=seat[1]
            )

    # A progressive's rounds are named by the tournament, not "outside an evening" (no
    # query when every rubber was at an evening's table).
    places = rubber_places(_Rubber(pk=seat[0], table_id=seat[6]) for seat in seats)
    rows: dict = {}
    for seat in seats:
        rubber_id, day, my_side, points, money, evening_id, _, number, status, winner = seat[:10]
        hands = seat[11]
        place = places.get(rubber_id)
        key = ("evening", evening_id) if evening_id else ("day", day, place.of_url if place else "")
        row = rows.get(key)
        if row is None:
            row = rows[key] = {
                "date": day,
                "evening": evenings_of.get(evening_id),
                "place": place,
                "tables": [],
                "partners": [],
                "opponents": [],
                "rubbers": 0,
                "won": 0,
                "lost": 0,
                "points": 0,
                "money": Decimal("0.00"),
            }
        if number is not None and number not in row["tables"]:
            row["tables"].append(number)
        for side, name in others[rubber_id]:
            group = "partners" if my_side and side == my_side else "opponents"
            if name not in row[group]:
                row[group].append(name)
        # A Call-Ace sitting ended before any deal was played is no sitting played: it
        # settles nothing (ruling C5, UNPLAYED_SITTING), and the evening's ledger counts
        # only those played (club.selectors_public.PLAYED).
        if hands or status != Rubber.Status.COMPLETE:
            row["rubbers"] += 1
        if status == Rubber.Status.COMPLETE and my_side and winner:
            row["won" if winner == my_side else "lost"] += 1
        row["points"] += points
        row["money"] += money
    evenings = sorted(rows.values(), key=lambda r: r["date"], reverse=True)
    totals = {
        key: sum((row[key] for row in evenings), start)
        for key, start in (
            ("rubbers", 0),
            ("won", 0),
            ("lost", 0),
            ("points", 0),
            ("money", Decimal("0.00")),
        )
    }
    totals["evenings"] = sum(1 for row in evenings if row["evening"] is not None)
    # A progressive's days are no evening of the club's: counted apart, not left out.
    totals["progressives"] = len({row["place"].of_url for row in evenings if row["place"]})
    return {"season": season, "evenings": evenings, "totals": totals}


def players_named(*, club: Club, user, name: str = "") -> tuple[list[Member], int]:
    """The club's players this user may see (club.selectors.members_of: not a guest whom
    only a private progressive shows) whose name contains `name` (all when it is empty),
    in alphabetical order, at most INDEX_LIMIT of them, and how many match in all."""
    players = members_of(club=club, hidden=rubbers_hidden_from(club=club, user=user))
    if name:
        players = players.filter(name__icontains=name)
    return list(players.order_by(Lower("name"), "pk")[:INDEX_LIMIT]), players.count()
