"""The room display of an evening: a page for the club's projector or television, public
when the club is, that shows the tables, the waiting list, the rubbers finished and the
money in large type, and refreshes itself.

The page polls its live part every three seconds with the evening's version as ETag, as
the secretary's board does: 304 while nothing has changed, so a room left on all evening
costs the server one small query every three seconds.
"""

from django.http import HttpResponseNotModified
from django.shortcuts import get_object_or_404, render
from django.utils.http import quote_etag
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from club import selectors_room
from club.models import Evening
from club.views import _visible_club
from scoring.rules import get_ruleset
from scoring.rules.games import get_game

POLL_SECONDS = 3


def _evening(request, slug: str, pk: int) -> Evening:
    club = _visible_club(request, slug)  # 404 for a private club, but to its secretaries
    evening = get_object_or_404(Evening, club=club, pk=pk)
    evening.club = club
    return evening


def _etag(evening: Evening) -> str:
    return quote_etag(f"room-{evening.pk}-{evening.version}-{evening.status}")


def _context(evening: Evening) -> dict:
    return {
        "evening": evening,
        "club": evening.club,
        "room": selectors_room.evening_room(evening=evening),
        "rules_title": get_ruleset(evening.ruleset).title,
        "game": get_game(evening.ruleset),  # Call-Ace plays sittings (ruling C5)
        "etag": _etag(evening),
        "poll": POLL_SECONDS,
    }


@require_GET
@cache_control(no_cache=True)
def evening_room(request, slug: str, pk: int):
    """The room display of an evening."""
    evening = _evening(request, slug, pk)
    response = render(request, "club/room.html", _context(evening))
    response["ETag"] = _etag(evening)
    return response


@require_GET
@cache_control(no_cache=True)
def evening_room_live(request, slug: str, pk: int):
    """The room display's live part, for polling: 304 while the evening is unchanged."""
    evening = _evening(request, slug, pk)
    etag = _etag(evening)
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
        response["ETag"] = etag
        return response
    response = render(request, "club/_room.html", _context(evening))
    response["ETag"] = etag
    return response
