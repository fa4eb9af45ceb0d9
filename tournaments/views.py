"""Public tournament pages: standings that update themselves while play goes on.

The standings fragment is cached under the tournament's standings version, so a
version is read from the database once, however many readers poll; the page
polls the fragment every two seconds (htmx) with the version's ETag and gets 304
while nothing has changed.
"""

from django.core.cache import cache
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.http import quote_etag
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from club.selectors import clubs_visible_to
from tournaments import selectors
from tournaments.models import Tournament

FRAGMENT_KEY = "standings:html:{}:{}"


def _tournament(request, slug: str, tslug: str) -> Tournament:
    club = clubs_visible_to(user=request.user).filter(slug=slug).first()
    if club is None:
        raise Http404("No such club.")
    return selectors.tournament_for(club=club, slug=tslug, user=request.user)


def _etag(tournament_id: int, number: int) -> str:
    return quote_etag(f"standings-{tournament_id}-{number}")


def standings_fragment_html(*, tournament: Tournament, number: int) -> str:
    """The standings table of one published version, rendered once and cached for good
    (a version never changes; a new hand makes a new version and a new key)."""
    key = FRAGMENT_KEY.format(tournament.pk, number)
    html = cache.get(key)
    if html is None:
        standings = selectors.standings_published(tournament=tournament, number=number)
        html = render_to_string(
            "tournaments/_standings.html",
            {
                "tournament": tournament,
                "standings": standings,
                "etag": _etag(tournament.pk, number),
            },
        )
        cache.set(key, html, 24 * 3600)
    return html


@require_GET
def tournament_standings(request, slug: str, tslug: str):
    """A tournament's public standings page."""
    tournament = _tournament(request, slug, tslug)
    number = selectors.standings_version_number(tournament_id=tournament.pk)
    return render(
        request,
        "tournaments/standings.html",
        {
            "club": tournament.club,
            "tournament": tournament,
            "fragment": standings_fragment_html(tournament=tournament, number=number),
        },
    )


@require_GET
@cache_control(no_cache=True)
def tournament_standings_fragment(request, slug: str, tslug: str):
    """The standings table alone, for polling: 304 while the version is unchanged."""
    tournament = _tournament(request, slug, tslug)
    number = selectors.standings_version_number(tournament_id=tournament.pk)
    etag = _etag(tournament.pk, number)
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
        response["ETag"] = etag
        return response
    response = HttpResponse(standings_fragment_html(tournament=tournament, number=number))
    response["ETag"] = etag
    return response
