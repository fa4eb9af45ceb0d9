"""Who may do what. Reads follow club visibility; writes need the club's secretary.

A request for a club the user may not see answers 404 — the same as a club that
does not exist — so nothing leaks about private clubs, list endpoints included.
"""

from django.http import Http404
from rest_framework import exceptions

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


def club_for_request(request, slug: str, *, write: bool = False) -> Club:
    """Load the club named in the URL as this request may see it.

    Invisible clubs answer 404; a visible club the user may not change answers 403
    to a write.
    """
    table = table_of_request(request)
    if table is not None and table.club.slug == slug:
        club = table.club  # a table's link always sees its own club, read with the table
    else:
        club = clubs_visible_to(user=request.user).filter(slug=slug).first()
    if club is None:
        raise Http404("No such club.")
    if write and not manages_club(request, club):
        raise exceptions.PermissionDenied("Only the club's secretary may change this.")
    return club


def club_for_director(request, slug: str, *, write: bool = False) -> Club:
    """`club_for_request` for the tournaments' endpoints: a write needs the club's
    secretary or one of its tournament directors (403 for others who can see the club)."""
    club = club_for_request(request, slug)
    if write and not (
        manages_club(request, club) or club_is_directed_by(club=club, user=request.user)
    ):
        raise exceptions.PermissionDenied(
            "Only the club's secretaries and tournament directors may change this."
        )
    return club
