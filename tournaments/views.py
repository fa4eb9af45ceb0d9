"""Public tournament pages: standings that update themselves while play goes on.

The standings are shown a hundred places to a page (`?page=2`), and a player's line is
found by name (`?player=ann`). The page polls its table every two seconds (htmx) with
the version's ETag and gets 304 while nothing has changed.

For the crowd (visitors who are not logged in) a page is served whole from the caches
of `tournaments.pagecache`: the slugs lead to the tournament's id and latest version,
and (id, version, page) to the rendered page, from the process's memory or Redis. A
warm request makes no query, at most one Redis read, and renders no template
(BENCHMARKS.md, "Public standings page"). Logged-in secretaries, who may see private
tournaments and whose pages name them, get the page rendered for them.
"""

import html
from decimal import Decimal

from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from club.selectors import clubs_visible_to
from club.selectors_room import money_words
from config.ratelimit import public_render_counted, public_render_throttled
from core.inputs import search_text
from tournaments import pagecache, selectors
from tournaments.filters import PLAYER_MAX
from tournaments.models import Tournament
from tournaments.pagecache import standings_etag
from tournaments.selectors import MAX_PAGE
from tournaments.table_links import final_when, tournament_over


def _tournament(request, slug: str, tslug: str) -> Tournament:
    club = clubs_visible_to(user=request.user).filter(slug=slug).first()
    if club is None:
        raise Http404("No such club.")
    return selectors.tournament_for(club=club, slug=tslug, user=request.user)


def _page(request) -> int:
    try:
        return min(max(1, int(request.GET.get("page", 1))), MAX_PAGE)
    except ValueError:
        return 1


def _player(request) -> str:
    return search_text(request.GET, "player", max_length=PLAYER_MAX)  # no NUL (core.inputs)


def _render(
    request, tournament: Tournament, standings: dict, number: int, page: int, *,
    fragment: bool, crowd: bool,
) -> tuple[str, int]:  # fmt: skip
    """The page (or its table) of `standings`, the version `number`'s rows, and the number
    of the page shown (the last, for one past the end). For the crowd it is rendered
    without the request, so nothing of one visitor's (a message, a login) is kept in the
    copy all are served."""
    player = _player(request)
    standings = selectors.standings_page(standings, page)
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "standings": standings,
        "player": player,
        # What the table polls with: the fragment's ETag (static/js/live.js).
        "etag": standings_etag(tournament.pk, number, standings["page"], "fragment", player),
        "rows_html": rows_html(
            standings["rows"], tournament.club.slug, money=money_columns(standings["precedence"])
        ),
        # Printed for the wall, the standings say whether they are the final results, and
        # whether the tournament is over; inside what the page polls (#standings), so an
        # open page says it without a reload.
        "final_when": final_when(tournament) if tournament.results_final_at else "",
        "over_words": _over_words(tournament),
    }
    template = "tournaments/_standings.html" if fragment else "tournaments/standings.html"
    html = render_to_string(template, context, request=None if crowd else request)
    return html, standings["page"]


def _over_words(tournament: Tournament) -> str:
    """How a progressive is over, in words for its standings ("every table has played
    round 4, its last"), or "" while it is not (table_links.tournament_over: its last round,
    planned or the one its director ended it after, played out at every table). A ladder
    has no end of its own."""
    if tournament.kind != Tournament.Kind.PROGRESSIVE or not tournament.last_round:
        return ""
    latest = tournament.rounds.order_by("-number").first()
    if not tournament_over(tournament, latest):
        return ""
    if tournament.ended_after_round:
        return (
            f"its director ended it after round {latest.number}, which every table has played out"
        )
    return f"every table has played round {latest.number}, its last"


def _version_rows(tournament_id: int, number: int) -> tuple[Tournament, dict]:
    """The tournament and every ranked row of its version `number`, for the crowd's pages."""
    tournament = Tournament.objects.select_related("club").get(pk=tournament_id)
    return tournament, selectors.standings_published(
        tournament=tournament, number=number, lazy=True
    )


#: The metrics that are money, written as every page writes money (ruling M1).
MONEY_METRICS = frozenset({"stake_won"})


def money_columns(precedence: list[dict]) -> frozenset[int]:
    """The places, among a row's values, of the metrics that are money."""
    return frozenset(i for i, metric in enumerate(precedence) if metric["key"] in MONEY_METRICS)


def money_cell(value) -> tuple[str, str]:
    """A money value as the one `money` filter writes it (club.selectors_room.money_words:
    "+2.00", a true minus "\u22122.00"), and the class that colours it ("won", "lost", or
    none); a value that is not an amount (none yet) as it is."""
    try:
        amount = Decimal(value)
    except (ArithmeticError, TypeError, ValueError):
        return str(value), ""
    return money_words(amount), "won" if amount > 0 else "lost" if amount < 0 else ""


def shown_rows(rows: list[dict], precedence: list[dict]) -> list[dict]:
    """The rows with each value as a page shows it: `cells`, (text, class) pairs, money
    written as money (the room display's standings)."""
    money = money_columns(precedence)
    return [
        {
            **row,
            "cells": [
                money_cell(value) if i in money else (value, "")
                for i, value in enumerate(row["values"])
            ],
        }
        for row in rows
    ]


def rows_html(rows: list[dict], club_slug: str, *, money: frozenset[int] = frozenset()) -> str:
    """The standings' rows as HTML, built directly: a hundred rows through the template
    engine cost about 7 ms, and a busy evening renders every page of the standings a
    few times a second (BENCHMARKS.md). The same markup a template loop would make:
    rank, the player linked to his page, then the precedence list's values, every
    value escaped as the template escapes it (`_cell`); those at the places `money`
    written as money, a win's cell "won" and a loss's "lost" (`money_cell`)."""
    players = reverse("player-detail", args=[club_slug, 0])[:-2]  # /clubs/<club>/players/
    lines = []
    for row in rows:
        cells = "".join(
            _money_td(value) if i in money else f'<td class="num">{_cell(value)}</td>'
            for i, value in enumerate(row["values"])
        )
        lines.append(
            f'<tr><td class="num">{_cell(row["display_rank"])}</td><td class="name">'
            f'<a href="{players}{int(row["member"])}/">{_cell(row["name"])}</a></td>{cells}</tr>'
        )
    return mark_safe("\n".join(lines))  # every value above is escaped


def _money_td(value) -> str:
    text, shade = money_cell(value)
    return f'<td class="num{" " + shade if shade else ""}">{_cell(text)}</td>'


def _cell(value) -> str:
    """A value escaped as Django's `escape` does (it is `html.escape(str(value))`), without
    its wrapper for lazy strings, which cost more than the escaping: six hundred values a
    page (BENCHMARKS.md). A whole number, most of the cells, has nothing to escape."""
    if type(value) is int:
        return str(value)
    return html.escape(str(value))


def _serve(request, slug: str, tslug: str, *, fragment: bool) -> HttpResponse:
    page = _page(request)
    player = _player(request)
    crowd = not request.user.is_authenticated and not player
    if crowd:
        found = pagecache.public_standings(slug, tslug)
        if found is None:
            raise Http404("No such tournament.")
        (tournament_id, number), tournament = found, None
    else:
        tournament = _tournament(request, slug, tslug)
        tournament_id = tournament.pk
        number = selectors.standings_version_number(tournament_id=tournament_id)
    etag = standings_etag(tournament_id, number, page, "fragment" if fragment else "page", player)
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
        response["ETag"] = etag
        return response

    def render() -> tuple[str, int]:
        if crowd:  # the version's rows and tournament as this process read them once
            shown, standings = pagecache.ranked_rows.get_or_make(
                (tournament_id, number), lambda: _version_rows(tournament_id, number)
            )
            # A page of the crowd's is rendered once a version and kept (pagecache): its
            # cost is the standings' own rate of change, the same whoever asks, and on a
            # club's Wi-Fi the whole room polls from one address. A page past the end is
            # never kept, so each asker renders it: that one is counted (THROTTLE_PUBLIC).
            if page > selectors.standings_pages(standings):
                public_render_counted(request)
        else:
            # Rendered for this reader alone (logged in, or a player found by name):
            # counted per client address, a logged-in reader per account (THROTTLE_PUBLIC).
            public_render_counted(request)
            shown = tournament
            standings = selectors.standings_published(
                tournament=tournament, number=number, name=player
            )
        return _render(request, shown, standings, number, page, fragment=fragment, crowd=crowd)

    copy = (tournament_id, number, page, "fragment" if fragment else "page")
    html = pagecache.rendered_page(copy, render) if crowd else render()[0]
    response = HttpResponse(html)
    response["ETag"] = etag
    return response


@require_GET
@cache_control(no_cache=True)
@public_render_throttled
def tournament_standings(request, slug: str, tslug: str):
    """A tournament's public standings page."""
    return _serve(request, slug, tslug, fragment=False)


@require_GET
@cache_control(no_cache=True)
@public_render_throttled
def tournament_standings_fragment(request, slug: str, tslug: str):
    """The standings table alone, for polling: 304 while the version is unchanged."""
    return _serve(request, slug, tslug, fragment=True)
