"""The room display of a tournament: this round's seating, each table's score, and the
standings, in large type for a projector or a television; public when the club and the
tournament are (issue #15).

It polls its live part every three seconds. The ETag names the published standings
version, the round and each of its tables' rubbers (hands recorded, finished or not), so
an unchanged room answers 304 after two small queries.
"""

import hashlib
from collections import defaultdict

from django.http import HttpResponseNotModified
from django.shortcuts import render
from django.utils.http import quote_etag
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from club.selectors_room import rubber_score
from scoring.models import Hand, Rubber
from scoring.rules.fixed_deals import fixed_deals_totals
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


def _deals_totals(rubbers: list[Rubber]) -> dict[int, dict[str, int]]:
    """Each round of fixed deals' two sides' points over the deals played so far, what
    decides it (ruling P1), by rubber: one query for the round's tables."""
    played: dict[int, list] = defaultdict(list)
    hands = Hand.objects.filter(rubber__in=rubbers).order_by("rubber_id", "number")
    for rubber_id, points in hands.values_list("rubber_id", "points"):
        played[rubber_id].append(points)
    return {rubber.pk: fixed_deals_totals(played[rubber.pk]) for rubber in rubbers}


def _score(rubber: Rubber, deals: dict[str, int] | None) -> dict:
    """The table's score as the room shows it: a rubber's game in play and games won; a
    round of fixed deals has no games that decide it, so each side's points over its
    deals (ruling P1)."""
    score = rubber_score(rubber)
    if deals is not None and score["partnership"]:
        score["fixed_deals"] = True
        for side, shown in zip(("NS", "EW"), score["sides"], strict=True):
            shown["points"] = deals[side]
    return score


def _round(played: Round | None) -> dict | None:
    if played is None:
        return None
    seats = {t["number"]: t["seats"] for t in played.seating.get("tables", [])}
    tables = []
    rows = list(
        played.tables.select_related("rubber").prefetch_related("rubber__seats").order_by("number")
    )
    deals = _deals_totals([t.rubber for t in rows if t.rubber and t.rubber.deal_limit])
    for table in rows:
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
                "score": _score(rubber, deals.get(rubber.pk)) if rubber else None,
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
