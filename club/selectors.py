"""Reads: which clubs a user may see and act for, which of their rubbers, and which table
a phone link opens. Every view scopes through here."""

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.db.models.fields.json import KT
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone

from club.models import Club, Evening, EveningEvent, Member, Table
from core.compiled import Compiled
from scoring.models import Rubber, RubberPlayer


def clubs_visible_to(*, user) -> QuerySet[Club]:
    """Public clubs, plus private ones the user is secretary or director of (staff see all)."""
    clubs = Club.objects.all()
    if user is not None and user.is_authenticated:
        if user.is_staff:
            return clubs
        return clubs.filter(Q(is_public=True) | Q(secretaries=user) | Q(directors=user)).distinct()
    return clubs.filter(is_public=True)


def clubs_managed_by(*, user) -> QuerySet[Club]:
    """Clubs the user may change: those he is secretary of (staff: all)."""
    if user is None or not user.is_authenticated:
        return Club.objects.none()
    if user.is_staff:
        return Club.objects.all()
    return Club.objects.filter(secretaries=user)


def club_is_managed_by(*, club: Club, user) -> bool:
    """True when the user is this club's secretary or staff."""
    if user is None or not user.is_authenticated:
        return False
    return user.is_staff or club.secretaries.filter(pk=user.pk).exists()


def clubs_directed_by(*, user) -> QuerySet[Club]:
    """Clubs whose tournaments the user may run: as a secretary or a director (staff: all)."""
    if user is None or not user.is_authenticated:
        return Club.objects.none()
    if user.is_staff:
        return Club.objects.all()
    return Club.objects.filter(Q(secretaries=user) | Q(directors=user)).distinct()


def club_is_directed_by(*, club: Club, user) -> bool:
    """True when the user may run this club's tournaments (secretary, director or staff)."""
    if user is None or not user.is_authenticated:
        return False
    return (
        user.is_staff
        or club.secretaries.filter(pk=user.pk).exists()
        or club.directors.filter(pk=user.pk).exists()
    )


#: The club's rubbers whose play is not public though the club is: each app that runs
#: rubbers of its own registers a function taking the club and returning the ids of those
#: it keeps from the public, as a values queryset (tournaments: a progressive's rounds'
#: rubbers while its standings are not public; tournaments/apps.py).
_HIDDEN_RUBBERS: list[Callable[..., QuerySet]] = []


def register_hidden_rubbers(rubber_ids: Callable[..., QuerySet]) -> None:
    if rubber_ids not in _HIDDEN_RUBBERS:
        _HIDDEN_RUBBERS.append(rubber_ids)


@dataclass(frozen=True)
class RubberPlace:
    """Where a rubber played at no evening's table was played, for the pages: `of`, what
    it belongs to (a progressive tournament's name), `of_url`, its page, and `at`, its
    place there ("round 2, table 1")."""

    of: str
    of_url: str
    at: str

    def __str__(self):
        return f"{self.of}, {self.at}"


#: Each app that runs rubbers away from an evening's tables registers a function taking
#: rubber ids and returning the places of those it runs (tournaments: a progressive's
#: round tables; tournaments/apps.py), so a page names them in words, not by number.
_RUBBER_PLACES: list[Callable[[list[int]], dict[int, RubberPlace]]] = []


def register_rubber_places(places: Callable[[list[int]], dict[int, RubberPlace]]) -> None:
    if places not in _RUBBER_PLACES:
        _RUBBER_PLACES.append(places)


def rubber_places(rubbers: Iterable[Rubber]) -> dict[int, RubberPlace]:
    """The places of those of `rubbers` played at no evening's table, by rubber id (one
    query for each registered app, none when every rubber is at an evening's table)."""
    ids = [rubber.pk for rubber in rubbers if rubber.table_id is None]
    found: dict[int, RubberPlace] = {}
    for places in _RUBBER_PLACES if ids else ():
        found.update(places(ids))
    return found


def rubbers_hidden_from(*, club: Club, user) -> QuerySet | None:
    """The ids of the club's rubbers this user may not read though he sees the club (a
    subquery for `exclude(pk__in=...)`), or None when he may read them all: the club's
    secretaries and tournament directors and staff read everything of it, as they see its
    private tournaments (tournaments.selectors.tournaments_visible)."""
    if not _HIDDEN_RUBBERS or club_is_directed_by(club=club, user=user):
        return None
    hidden = Q()
    for rubber_ids in _HIDDEN_RUBBERS:
        hidden |= Q(pk__in=rubber_ids(club=club))
    return Rubber.objects.filter(hidden).values("pk")


def without_hidden(rows: QuerySet, *, hidden: QuerySet | None, field: str = "rubber_id"):
    """`rows` (rubbers, or rows of one rubber each at `field`: seats, hands' scores)
    without those of the `hidden` rubbers (`rubbers_hidden_from`; None hides none)."""
    return rows if hidden is None else rows.exclude(**{f"{field}__in": hidden})


#: The club's members whom only its private play shows: each app that enters players in
#: play of its own registers a function taking the club and returning, as a values
#: queryset, the ids of the members it entered only in play it keeps from the public
#: (tournaments: those entered at progressives whose standings are not public and at no
#: public tournament; tournaments/apps.py).
_PRIVATE_ENTRIES: list[Callable[..., QuerySet]] = []


def register_private_entries(member_ids: Callable[..., QuerySet]) -> None:
    if member_ids not in _PRIVATE_ENTRIES:
        _PRIVATE_ENTRIES.append(member_ids)


def members_hidden_from(*, club: Club, hidden: QuerySet | None) -> QuerySet | None:
    """The ids of the club's members a user may not see though he sees the club (a
    subquery for `exclude(pk__in=...)`), or None when he may see them all; `hidden`, the
    club's rubbers he may not read (`rubbers_hidden_from`, asked once by the caller).

    A guest entered at a private progressive joins the roster, and his name alone would
    tell the public who played there (docs/security.md). So a guest is hidden from a
    user who may not read the club's private play (`hidden` not None) while every
    appearance of his at the club is in that play: entered only where a registered app
    keeps it private, seated in no rubber this user may read, and arrived at none of the
    club's evenings (an evening is the club's own, public with it, his name on its room
    display). The moment he plays or arrives where the public sees, he is listed like any
    guest. A member who is no guest is the club's, listed whatever he played. The club's
    secretaries, directors and staff see everyone, as they see its private play."""
    if hidden is None or not _PRIVATE_ENTRIES:
        return None
    entered = Q()
    for member_ids in _PRIVATE_ENTRIES:
        entered |= Q(pk__in=member_ids(club=club))
    seated = RubberPlayer.objects.filter(member_id=OuterRef("pk")).exclude(rubber_id__in=hidden)
    # An arrival is logged under the roster's spelling of his name (club.evenings._arrival),
    # which is unique in the club whatever its case.
    arrived = (
        EveningEvent.objects.filter(evening__club=club, type="arrive")
        .annotate(player=Lower(KT("data__player")))
        .filter(player=Lower(OuterRef("name")))
    )
    return (
        Member.objects.filter(entered, club=club, is_guest=True)
        .exclude(Exists(seated))
        .exclude(Exists(arrived))
        .values("pk")
    )


def members_of(*, club: Club, hidden: QuerySet | None) -> QuerySet[Member]:
    """The club's roster as a user may see it, by name (`hidden`: the club's rubbers he may
    not read, `rubbers_hidden_from`): every reader of the roster for someone who may not be
    the club's officer (the players' page and its search, a player's page, the API's
    members and player records) reads it here, so that none lists a guest
    `members_hidden_from` hides."""
    members = club.members.order_by("name")
    hidden_members = members_hidden_from(club=club, hidden=hidden)
    return members if hidden_members is None else members.exclude(pk__in=hidden_members)


# Why a table's phone link no longer works, in words for the phone (the API's error code,
# and the phone page's refusal).
DEAD_LINK = {
    "unknown_link": "This link opens no table.",
    "link_replaced": "This table's link was replaced by a new one.",
    "evening_closed": "This table's link stopped working when the evening was closed.",
    "table_broken_up": "This table's link stopped working when the table broke up.",
    "link_expired": "This table's link has expired.",
}
ASK_FOR_NEW_CARD = "Ask the club's secretary for the table's new card."
# What the players may do instead, where no new card can be had: a closed evening's tables
# have none (its results are read on the club's page, if the public sees the club), and a
# table broken up has none (its players sit at other tables).
DEAD_LINK_ASK = {
    "table_broken_up": "The table broke up: ask the club's secretary where to sit.",
}
EVENING_OVER = "The evening is over: its results are on the club's page."
EVENING_OVER_PRIVATE = "The evening is over: ask the club's secretary for its results."


class TableLinkDead(Exception):
    """A table's phone link that opens nothing, with the reason (`code`, a key of
    DEAD_LINK) in words and what to do now (`ask`): an evening's table asks its secretary
    for a new card, where to sit (a table broken up), or reads the evening's results
    (`results_url`, its public page) once it is closed; another kind of table (a
    progressive's, tournaments.table_links) says its own `reason` and `ask`."""

    def __init__(
        self,
        code: str,
        *,
        reason: str | None = None,
        ask: str | None = None,
        results_url: str | None = None,
    ):
        self.code = code
        self.reason = reason or DEAD_LINK[code]
        self.ask = ask or DEAD_LINK_ASK.get(code, ASK_FOR_NEW_CARD)
        self.results_url = results_url
        self.message = f"{self.reason} {self.ask}"
        super().__init__(self.message)


def _evening_over(evening: Evening) -> TableLinkDead:
    """A closed evening's table link: no new card, but the evening's results, on its
    public page if the public sees the club (else its secretary has them)."""
    club = evening.club
    if not club.is_public:
        return TableLinkDead("evening_closed", ask=EVENING_OVER_PRIVATE)
    url = reverse("evening-results", args=[club.slug, evening.pk])
    return TableLinkDead("evening_closed", ask=EVENING_OVER, results_url=url)


def table_link_expires_at(*, table: Table) -> datetime.datetime:
    """When a table's link dies of age: the club's `table_link_hours` after the end of the
    evening's day in the site's time zone, or after the link was issued if that is later
    (an evening entered after the day it was played on, a fresh link). The links of an
    evening dated at the end of the calendar (9999-12-31 is a date the doors take) never
    die of age, as their hours would run past the last moment Python can count; they die
    as any other does when the evening closes, the table breaks up or the link is renewed."""
    zone = timezone.get_default_timezone()
    try:
        day_ends = datetime.datetime.combine(
            table.evening.date + datetime.timedelta(days=1), datetime.time(), tzinfo=zone
        )
        start = max(day_ends, table.link_issued_at)
        return start + datetime.timedelta(hours=table.club.table_link_hours)
    except OverflowError:
        return datetime.datetime.max.replace(tzinfo=datetime.UTC)


def table_link_refusal(*, table: Table, now: datetime.datetime | None = None) -> str | None:
    """Why this table's link opens nothing now (a key of DEAD_LINK), or None while it lives:
    its evening is open, the table still stands, and the link has not expired."""
    evening = table.evening
    if evening.status != Evening.Status.OPEN:
        return "evening_closed"
    standing = evening.state.get("tables") if evening.state else None
    if standing is not None and table.number not in {t["number"] for t in standing}:
        return "table_broken_up"  # table numbers are never reused within an evening
    if (now or timezone.now()) >= table_link_expires_at(table=table):
        return "link_expired"
    return None


# Every request from a table's phone reads its table here: compiled once (core/compiled.py).
_TABLE_BY_TOKEN = Compiled(
    lambda token: Table.objects.select_related("evening", "club").filter(token=token)[:1], str
)


def _could_be_token(token: str) -> bool:
    """Whether `token` could be a table's link at all: no longer than the column holds and
    without NUL, which PostgreSQL's text cannot hold (`/t/%00/` was a 500, not a 404)."""
    return bool(token) and len(token) <= Table.token.field.max_length and "\x00" not in token


def table_by_link(*, token: str) -> Table:
    """The table a live phone link opens (its evening and club read with it), or
    TableLinkDead saying why not. The API's `Table` authentication and the phone page
    both ask here, so a link lives and dies the same on both."""
    if not _could_be_token(token):
        raise TableLinkDead("unknown_link")  # asked of no database (a NUL was a 500)
    table = _TABLE_BY_TOKEN.first(token)
    if table is None:
        if token and Table.objects.filter(replaced_token=token).exists():
            raise TableLinkDead("link_replaced")
        raise TableLinkDead("unknown_link")
    table.evening.club = table.club  # one club, read once
    if code := table_link_refusal(table=table):
        raise _evening_over(table.evening) if code == "evening_closed" else TableLinkDead(code)
    return table
