"""Public tournament pages: standings that update themselves while play goes on.

The standings are shown a hundred places to a page (`?page=2`), and a player's line is
found by name (`?player=ann`). The page polls its table every two seconds (htmx) with
the version's ETag and gets 304 while nothing has changed.

For the crowd (visitors who are not logged in) a page is served whole from the cache:
the club's and the tournament's slugs lead to the tournament's id (cached briefly), the
id to its latest standings version (cached until the next recalculation), and the
(id, version, page) to the rendered page, so a request makes no query and renders no
template (BENCHMARKS.md, "Public standings page"). A new version makes new keys; the
old pages expire. Logged-in secretaries, who may see private tournaments and whose
pages name them, get the page rendered for them.
"""

from django.core.cache import cache
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.template.loader import render_to_string
from django.utils.http import quote_etag
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from club.selectors import clubs_visible_to
from tournaments import selectors
from tournaments.models import Tournament
from tournaments.services import WHERE_KEY

PAGE_KEY = "standings:{}:{}:{}:{}"  # tournament id, version, page, "page" or "fragment"
WHERE_SECONDS = 30  # a club made private drops out of the cache within this
PAGE_SECONDS = 300  # a renamed player shows within this, if no hand comes first
MAX_PAGE = 1000  # 100,000 places


def _tournament(request, slug: str, tslug: str) -> Tournament:
    club = clubs_visible_to(user=request.user).filter(slug=slug).first()
    if club is None:
        raise Http404("No such club.")
    return selectors.tournament_for(club=club, slug=tslug, user=request.user)


def public_tournament_id(slug: str, tslug: str) -> int | None:
    """The id of a public tournament of a public club, by their slugs (cached)."""
    key = WHERE_KEY.format(slug, tslug)
    found = cache.get(key)
    if found is None:
        found = (
            Tournament.objects.filter(
                club__slug=slug, club__is_public=True, slug=tslug, is_public=True
            )
            .values_list("pk", flat=True)
            .first()
        ) or 0
        cache.set(key, found, WHERE_SECONDS)
    return found or None


def _etag(tournament_id: int, number: int, page: int) -> str:
    return quote_etag(f"standings-{tournament_id}-{number}-{page}")


def _page(request) -> int:
    try:
        return min(max(1, int(request.GET.get("page", 1))), MAX_PAGE)
    except ValueError:
        return 1


def _render(
    request, tournament: Tournament, number: int, page: int, *, fragment: bool, crowd: bool
) -> str:
    """The page (or its table). For the crowd it is rendered without the request, so
    nothing of one visitor's (a message, a login) is kept in the copy all are served."""
    player = request.GET.get("player", "").strip()[:80]
    standings = selectors.standings_published(
        tournament=tournament, number=number, page=page, name=player
    )
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "standings": standings,
        "player": player,
        "etag": _etag(tournament.pk, number, standings["page"]),
    }
    template = "tournaments/_standings.html" if fragment else "tournaments/standings.html"
    return render_to_string(template, context, request=None if crowd else request)


def _serve(request, slug: str, tslug: str, *, fragment: bool) -> HttpResponse:
    page = _page(request)
    crowd = not request.user.is_authenticated and not request.GET.get("player")
    if crowd:
        tournament_id = public_tournament_id(slug, tslug)
        if tournament_id is None:
            raise Http404("No such tournament.")
        tournament = None
    else:
        tournament = _tournament(request, slug, tslug)
        tournament_id = tournament.pk
    number = selectors.standings_version_number(tournament_id=tournament_id)
    etag = _etag(tournament_id, number, page)
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
        response["ETag"] = etag
        return response
    key = PAGE_KEY.format(tournament_id, number, page, "fragment" if fragment else "page")
    html = cache.get(key) if crowd else None
    if html is None:
        if tournament is None:
            tournament = Tournament.objects.select_related("club").get(pk=tournament_id)
        html = _render(request, tournament, number, page, fragment=fragment, crowd=crowd)
        if crowd:
            cache.set(key, html, PAGE_SECONDS)
    response = HttpResponse(html)
    response["ETag"] = etag
    return response


@require_GET
@cache_control(no_cache=True)
def tournament_standings(request, slug: str, tslug: str):
    """A tournament's public standings page."""
    return _serve(request, slug, tslug, fragment=False)


@require_GET
@cache_control(no_cache=True)
def tournament_standings_fragment(request, slug: str, tslug: str):
    """The standings table alone, for polling: 304 while the version is unchanged."""
    return _serve(request, slug, tslug, fragment=True)
