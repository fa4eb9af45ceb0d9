"""The room display of a tournament: this round's seating, each table's score, and the
standings, in large type for a projector or a television; public when the club and the
tournament are (issue #15).

It polls its live part every three seconds. The ETag names the published standings
version, the round and each of its tables' rubbers (hands recorded, finished or not), so
an unchanged room answers 304 after two small queries.
"""

import hashlib

from django.http import HttpResponseNotModified
from django.shortcuts import render
from django.utils.http import quote_etag
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from club.selectors_room import rubber_score
from tournaments import selectors
from tournaments.models import Round, RoundTable, Tournament
from tournaments.rounds import sides_of, table_as_dict
from tournaments.views import _tournament, shown_rows

POLL_SECONDS = 3
STANDINGS_SHOWN = 20  # places shown in the room; the full standings are on their page


def _latest_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.order_by("-number").first()


def _etag(tournament: Tournament, played: Round | None) -> str:
    number = selectors.standings_version_number(tournament_id=tournament.pk)
    tables = (
        list(
            RoundTable.objects.filter(round=played)
            .order_by("number")
            .values_list("number", "rubber_id", "rubber__hand_count", "rubber__status")
        )
        if played
        else []
    )
    digest = hashlib.sha256(repr((number, played and played.pk, tables)).encode()).hexdigest()
    return quote_etag(f"room-t{tournament.pk}-{number}-{digest[:16]}")


def _round(played: Round | None) -> dict | None:
    if played is None:
        return None
    seats = {t["number"]: t["seats"] for t in played.seating.get("tables", [])}
    tables = []
    rows = played.tables.select_related("rubber").prefetch_related("rubber__seats")
    for table in rows.order_by("number"):
        sides = sides_of(seats.get(table.number) or {})
        rubber = table.rubber
        # A round of fixed deals is over once they are played and one side is ahead (ruling
        # P1), its rubber still in play: the round's result, as the director's page has it.
        result = table_as_dict(played, table) if rubber else {"winner": None, "level": False}
        tables.append(
            {
                "number": table.number,
                "ns": sides["NS"],
                "ew": sides["EW"],
                "score": rubber_score(rubber) if rubber else None,
                "finished": rubber is not None
                and (rubber.status != rubber.Status.IN_PROGRESS or result["winner"] is not None),
                "won_by": sides.get(result["winner"]) if result["winner"] else None,
                "level": result["level"],
            }
        )
    return {"number": played.number, "tables": tables, "byes": played.seating.get("byes", [])}


def _context(tournament: Tournament, played: Round | None, etag: str) -> dict:
    standings = selectors.standings_published(tournament=tournament)
    return {
        "tournament": tournament,
        "club": tournament.club,
        "round": _round(played),
        # Each row's `cells`: its values as shown, money as money (ruling M1).
        "standings": {
            **standings,
            "rows": shown_rows(standings["rows"][:STANDINGS_SHOWN], standings["precedence"]),
        },
        "more": max(0, len(standings["rows"]) - STANDINGS_SHOWN),
        "etag": etag,
        "poll": POLL_SECONDS,
    }


@require_GET
@cache_control(no_cache=True)
def tournament_room(request, slug: str, tslug: str):
    """The room display of a tournament: this round's tables and the standings."""
    tournament = _tournament(request, slug, tslug)
    played = _latest_round(tournament)
    etag = _etag(tournament, played)
    response = render(request, "tournaments/room.html", _context(tournament, played, etag))
    response["ETag"] = etag
    return response


@require_GET
@cache_control(no_cache=True)
def tournament_room_live(request, slug: str, tslug: str):
    """The room display's live part, for polling: 304 while nothing has changed."""
    tournament = _tournament(request, slug, tslug)
    played = _latest_round(tournament)
    etag = _etag(tournament, played)
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
        response["ETag"] = etag
        return response
    response = render(request, "tournaments/_room.html", _context(tournament, played, etag))
    response["ETag"] = etag
    return response
