"""The phone at a progressive tournament's table: the page its players open from the card on
the table (`/p/<token>/`, tournaments.table_links) to record each hand or deal of the
round they are playing there.

It is the evening's table's phone (club/views_board.py's `table_phone`) at another kind
of table: the same hand form (templates/club/_table_hand_fields.html), the same queue in
the browser (static/js/phone-queue.js: a deal entered with the network gone waits on the
phone and is sent once it returns, with an Idempotency-Key that core/idempotency.py
answers once), the same `expected_number` (a second phone entering the same deal is
refused in words, with the deal recorded), the same throttle and dead-link pages
(`phone_link`). A deal goes through the one recording service every door uses
(`club.recording.hand_record`), at the rubber the link may record
(`table_links.may_record`, checked on the rubber locked).

The page follows its table. When the round at the table is over (its rubber won, or its
fixed deals decided: ruling P1) it says so, and that the director seats the next round;
when he has, the same page (its poll sees another phase) shows the table's new players
and rubber. A finished tournament's page shows the table's last sheet and records
nothing more; a table of the last round still corrects its last deal there, no deal
following it (law 5, ruling E9), until the director declares the results final.
"""

import functools
import hashlib

from django.http import Http404, HttpResponseNotModified
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import quote_etag
from django.views.decorators.http import require_POST

from club import phone, recording
from club.phone import SEAT_NAMES
from club.selectors import TableLinkDead
from club.views_board import USER_ERRORS, phone_link
from club.views_phone_worker import keep_copy
from core.audit import add_to_audit_context
from core.errors import UserError
from core.inputs import whole_number
from scoring.hand_input import hand_input
from scoring.models import Rubber
from scoring.rules.games import get_game
from scoring.selectors import rubber_scoresheet
from scoring.views import rubber_sheet
from tournaments import table_links
from tournaments.rounds import sides_of, table_as_dict
from tournaments.table_links import AtTable

#: Every page under /p/<token>/: a live link only, its posts throttled as the API's.
tournament_phone_link = functools.partial(phone_link, page="tournament-phone")

#: What a progressive adds to the laws' limits on correcting (table_links.may_correct).
CORRECTION_LIMITS = (
    "Here: the last deal of this table's round, while the round is the one in play. Once "
    "the round is over at this table a correction may change its figures but not whether "
    "it is over, nor, before the last round, who won it: the director seats the next round "
    "from that result. No deal follows the last round's, so it may be corrected here until "
    "the director declares the results final. After that, ask the director: he corrects "
    "any deal of the tournament on the table's sheet, with a reason (ruling E9)."
)


def _at(token: str) -> AtTable:
    """The table a live link opens; a dead link's TableLinkDead is answered by
    `phone_link` (403, saying why), a token that never was one is 404."""
    try:
        return table_links.table_by_link(token=token)
    except TableLinkDead as exc:
        if exc.code == "unknown_link":
            raise Http404("No such table.") from exc
        raise


def _state(at: AtTable, rubber: Rubber | None, result: dict | None) -> str:
    """The stage the table is at: `finished` (the tournament is over), `absent` (the
    round seats no table of this number), `over` (the round is over at the table),
    `level` (its fixed deals played out level: one more at a time, ruling P1) or
    `playing`."""
    if at.over:
        return "finished"
    if rubber is None:
        return "absent"
    if rubber.status != Rubber.Status.IN_PROGRESS or result["winner"]:
        return "over"
    return "level" if result["level"] else "playing"


def phone_context(
    at: AtTable, *, error=None, notice=None, entered=None, correcting=None, taking_back=None
) -> dict:
    """The phone page: the table's round and players, the form for its next deal while it
    is in play, what happens next when it is not, its last deal with the forms correcting
    it (in the last round until the results are declared final) and taking it back while
    the round is in play at the table, and the table's score sheet. `entered` holds a
    refused form's values to show again (`correcting` the deal it was correcting,
    `taking_back` the deal it was taking back)."""
    link, played = at.link, at.round
    tournament = link.tournament
    club = tournament.club
    rubber = at.table.rubber if at.table is not None else None
    scoresheet = rubber_scoresheet(rubber=rubber) if rubber is not None else None
    result = table_as_dict(played, at.table) if rubber is not None else None
    seats = result["seats"] if result else {}
    sides = sides_of(seats) if seats else {}
    state = _state(at, rubber, result)
    game = get_game(rubber.ruleset if rubber else tournament.ruleset)
    winner = result["winner"] if result else None
    waiting = (
        table_links.unfinished_tables(played)
        if played is not None and state in {"over", "absent"}
        else []
    )
    # The table's last deal may be corrected here (table_links.may_correct): while its round
    # is the one in play, and in the last round until the results are declared final.
    correctable = rubber is not None and (state != "finished" or not at.final)
    phase = f"{played.number if played else 0} {rubber.pk if rubber else 'none'} {state}" + (
        " final" if at.final else ""
    )
    digest = hashlib.sha256(
        repr(
            (link.token, phase, waiting)
            + ((rubber.hand_count, rubber.status, rubber.summary) if rubber else ())
        ).encode()
    ).hexdigest()
    return {
        "link": link,
        "tournament": tournament,
        "club": club,
        "round": played,
        "rubber": rubber,
        "result": result,
        "state": state,
        "phase": phase,
        "etag": quote_etag(f"ptable-{link.pk}-{digest[:20]}"),
        "seats": [
            {"seat": SEAT_NAMES[seat], "player": seats[seat]} for seat in "NESW" if seat in seats
        ],
        "sides": sides,
        "winner_words": f"{sides[winner]} ({winner[0]}-{winner[1]})" if winner in sides else "",
        "waiting": waiting,
        "over_words": table_links.over_words(at) if at.over else "",
        "correctable": correctable,
        "correct_until": table_links.CORRECT_UNTIL_FINAL
        if state == "finished" and correctable
        else "",
        "last_round": at.last_round,
        "standings_public": club.is_public and tournament.is_public,
        "sheet": rubber_sheet(rubber, club, scoresheet=scoresheet) if rubber else None,
        "next_number": phone.next_hand_number(rubber),
        "record_url": reverse("tournament-phone-record", args=[link.token]),
        **phone.hand_forms(
            rubber,
            phone.rubber_hands(scoresheet),
            error=error,
            entered=entered,
            correcting=correcting,
            taking_back=taking_back,
        ),
        "correction_limits": CORRECTION_LIMITS,
        "no_take_back": (
            table_links.round_over_keeps_deals(at, rubber, result["winner"])
            if state == "over"
            else ""
        ),
        "game_title": game.title,
        "hand_label": game.hand_label,
        "rubber_label": game.rubber_label,
        "rules": game.rules,
        "players": rubber.players if rubber and isinstance(rubber.players, list) else [],
        "error": error,
        "notice": notice,
        **phone.HAND_CHOICES,
    }


@tournament_phone_link
def table_phone(request, token: str):
    """The page the players at a progressive's table record its deals on. Its poll (htmx)
    gets the live part, 304 while nothing at the table changed."""
    at = _at(token)
    context = phone_context(at)
    if request.headers.get("HX-Request") and request.method == "GET":
        if request.headers.get("If-None-Match") == context["etag"]:
            return HttpResponseNotModified()
        response = render(request, "tournaments/_phone.html", context)
        response["ETag"] = context["etag"]
        return response
    return keep_copy(request, render(request, "tournaments/phone.html", context))


def _rubber_to_change(at: AtTable, post, *, change: str = "", until_final: bool = False) -> int:
    """The rubber the phone meant its deal or change (`change`, in words: "This correction
    of hand 3") for (the form's `rubber`: one queued while the round changed is then not
    made in the next round's rubber), else the one at the table now; refused in words when
    the tournament is over (a correction, `until_final`: once its results are declared
    final) or the round seats no table of this number."""
    # Said again under the rubber's lock (table_links.may_record, may_correct).
    if at.over and (not until_final or at.final):
        raise table_links.over_refusal(at, change=change)
    meant = whole_number(post, "rubber")
    if meant is not None:
        return meant
    if at.table is None:
        raise UserError(
            f"Table {at.link.number} is not in play in round {at.round.number}: "
            "nothing is recorded here until a round seats it again.",
            field="rubber",
        )
    return at.table.rubber_id


@require_POST
@tournament_phone_link
def table_phone_record(request, token: str):
    """Record the table's next deal, or correct or take back its last (the form's
    `correct`, or `take_back`: the deal's number), from its phone, as an evening's table's
    phone does (club/views_board.py's `table_record`). The phone sends `expected_number`,
    the number it means a new deal to have: a second phone (or tap) sending the same number
    gets 409 and the page says which deal is recorded. A correction goes through
    `club.recording.hand_correct` within the limits `table_links.may_correct` says (law 5,
    ruling E9; a round over at the table keeps its result), a take-back through
    `club.recording.hand_remove` within those `table_links.may_take_back` says (the last
    deal while no later one is recorded; not once the round is over at the table). A
    refused form comes back as it was sent, 400 (409 for a deal already recorded, or
    entered for a round that is over, or a take-back of a deal no longer the last; a lock
    not granted in time answers 409 with Retry-After, not kept by the Idempotency-Key, so
    the phone's queue sends the deal again)."""
    at = _at(token)
    link = at.link
    error = notice = typed = correct = taking_back = None
    status, retry_after = 200, None
    stale = False  # a change to a rubber the table has moved on from
    label = get_game(link.tournament.ruleset).hand_label
    try:
        phone.check_once(request.POST, ruleset=link.tournament.ruleset)
        correct = whole_number(request.POST, "correct")
        taking_back = whole_number(request.POST, "take_back")
        take_back = phone.take_back_form(request.POST, ruleset=link.tournament.ruleset)
        if take_back is not None:
            change = f"This take-back of {label} {taking_back}"
        else:
            change = f"This correction of {label} {correct}" if correct is not None else ""
        rubber_id = _rubber_to_change(
            at, request.POST, change=change, until_final=take_back is None and correct is not None
        )
        changing = correct if take_back is None else taking_back
        stale = changing is not None and (at.table is None or rubber_id != at.table.rubber_id)
        add_to_audit_context(tournament=link.tournament_id, table=link.number)
        if take_back is not None:
            recording.hand_remove(
                rubber_id=rubber_id,
                number=take_back.number,
                reason=take_back.reason,
                recorded_at=take_back.recorded_at,
                authorize=table_links.may_take_back(link, number=take_back.number),
            )
            recorded = None
        elif correct is not None:
            recorded = recording.hand_correct(
                rubber_id=rubber_id,
                number=correct,
                data=hand_input(link.tournament.ruleset).from_form(request.POST),
                changed_at=phone.correction_seen(
                    request.POST, ruleset=link.tournament.ruleset, number=correct
                ),
                authorize=table_links.may_correct(link, number=correct),
            )
        else:
            recorded = recording.hand_record(
                rubber_id=rubber_id,
                data=hand_input(link.tournament.ruleset).from_form(request.POST),
                expected_number=whole_number(request.POST, "expected_number"),
                authorize=table_links.may_record(link),
            )
    except USER_ERRORS as exc:
        # The form comes back as it was typed, each value cut to ECHO_MAX characters; not a
        # stale round's change, which would be offered as one of this round's deal.
        refused = phone.refused_form(
            exc, request.POST, ruleset=link.tournament.ruleset, echo=not stale
        )
        typed, error = refused.typed, refused.error
        status, retry_after = refused.status, refused.retry_after
    else:
        notice = phone.done_words(
            label=label, hand=recorded, correcting=correct, taking_back=taking_back
        )
    context = phone_context(
        table_links.table_now(link),
        error=error,
        notice=notice,
        entered=typed.values if typed else None,
        correcting=None if stale or taking_back is not None else correct,
        taking_back=None if stale else taking_back,
    )
    # The phone's queue (an htmx request) shows the live part; a form posted without
    # JavaScript gets the whole page.
    live = request.headers.get("HX-Request")
    page = "tournaments/_phone.html" if live else "tournaments/phone.html"
    response = render(request, page, context, status=status)
    if retry_after:
        response["Retry-After"] = retry_after
    return response
