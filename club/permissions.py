"""Who may do what. Reads follow club visibility; writes need the club's secretary.

A request for a club the user may not see answers 404 — the same as a club that
does not exist — so nothing leaks about private clubs, list endpoints included.

A table's phone link (club.auth.TableTokenAuthentication) is no one's login: beyond what
the public may read, it opens only its own table's rubbers and hands on its own evening,
through the views that ask for it (`for_table=True`). Everywhere else its caller is the
anonymous public, so of a private club it sees nothing (404).
"""

from collections.abc import Callable

from django.http import Http404
from rest_framework import exceptions
from rest_framework.permissions import SAFE_METHODS

from club.models import Club, Table
from club.selectors import club_is_directed_by, club_is_managed_by, clubs_visible_to


def table_of_request(request) -> Table | None:
    """The table whose token authenticated this request, if any."""
    return request.auth if isinstance(request.auth, Table) else None


def manages_club(request, club: Club) -> bool:
    """Is the caller the club's secretary (or staff)? `club_is_managed_by`, asked of the
    database once per request and club however often a view and its checks ask it."""
    known = request.__dict__.setdefault("_manages_club", {})
    if club.pk not in known:
        known[club.pk] = club_is_managed_by(club=club, user=request.user)
    return known[club.pk]


def club_for_request(request, slug: str, *, write: bool = False, for_table: bool = False) -> Club:
    """Load the club named in the URL as this request may see it.

    Invisible clubs answer 404; a visible club the user may not change answers 403
    to a write. `for_table`: the view itself keeps a table's link to its own table's
    rubbers and hands, so the link may see its own (even private) club here.
    """
    table = table_of_request(request)
    if for_table and not write and table is not None and table.club.slug == slug:
        club = table.club  # read with the table
    else:
        club = clubs_visible_to(user=request.user).filter(slug=slug).first()
    if club is None:
        raise Http404("No such club.")
    if write and not manages_club(request, club):
        raise exceptions.PermissionDenied(f"Only the club's secretary may {_doing(request)} this.")
    return club


def _doing(request) -> str:
    """What the refused caller tried: a read of what is the officers' alone (an evening's
    log, its tables' links) is no change, and the refusal says which."""
    return "read" if request.method in SAFE_METHODS else "change"


def club_for_director(request, slug: str, *, write: bool = False) -> Club:
    """`club_for_request` for the tournaments' endpoints: a write needs the club's
    secretary or one of its tournament directors (403 for others who can see the club)."""
    club = club_for_request(request, slug)
    if write and not (
        manages_club(request, club) or club_is_directed_by(club=club, user=request.user)
    ):
        raise exceptions.PermissionDenied(
            f"Only the club's secretaries and tournament directors may {_doing(request)} this."
        )
    return club


#: Who besides the secretary and a table's link may record a club's rubbers, rubber by
#: rubber: each app that runs rubbers of its own registers a test taking (user, club)
#: and returning None (not such a caller) or a check of one rubber (tournaments: a
#: club's directors, at a progressive's round tables; tournaments/apps.py).
_RECORDERS: list[Callable] = []


def register_recorder(test: Callable) -> None:
    if test not in _RECORDERS:
        _RECORDERS.append(test)


def recorder_check(user, club: Club) -> Callable | None:
    """The check of a rubber for a caller who records some of the club's rubbers without
    being its secretary (a director), or None."""
    checks = [check for test in _RECORDERS if (check := test(user, club)) is not None]
    if not checks:
        return None
    return lambda rubber: any(check(rubber) for check in checks)
