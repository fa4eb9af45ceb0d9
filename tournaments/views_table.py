"""A progressive round's table as its director scores it: the table's score sheet and the
form for its next hand (or deal), for the club's secretaries and tournament directors.

A progressive's tables play rubbers of their own (`tournaments.rounds`), not an
evening's. Their players record from the table's phone (`tournaments.views_phone`); here
the director enters each hand as the table calls it or hands in its paper sheet. The hand
goes through the one recording service every door uses (`club.recording.hand_record`):
scored by the same laws, its standings noted in the same transaction. The form sends the
number of the hand it means to record (`expected_number`), so a second tap, or a second
director entering the same table's sheet, is refused in words with the hand already
recorded, never recorded twice. A correction of a recorded hand is the table's, from its
phone (its last hand, law 5), or the secretary's, on the rubber's own page (ruling E9):
the page tells a director who is not the secretary so.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse

from club import phone, recording
from club.selectors import club_is_managed_by
from club.views_board import USER_ERRORS
from core.inputs import whole_number
from scoring.hand_input import hand_input
from scoring.models import Rubber
from scoring.rules import get_ruleset
from scoring.rules.games import get_game
from scoring.views import rubber_sheet
from tournaments.models import RoundTable
from tournaments.rounds import sides_of, table_as_dict
from tournaments.views_director import _directed


def _round_table(tournament, round_number: int, number: int) -> RoundTable:
    table = (
        RoundTable.objects.select_related("round", "rubber")
        .filter(round__tournament=tournament, round__number=round_number, number=number)
        .first()
    )
    if table is None:
        raise Http404("No such table in this tournament.")
    return table


def _context(
    request, tournament, table: RoundTable, *, error=None, entered=None, notice=None
) -> dict:
    rubber: Rubber = table.rubber
    club = tournament.club
    played = table_as_dict(table.round, table)
    return {
        "tournament": tournament,
        "club": club,
        "table": table,
        "rubber": rubber,
        "sides": sides_of(played["seats"]),
        "result": played,
        "sheet": rubber_sheet(rubber, club),
        # Over once it is won, or its round of fixed deals decided (ruling P1): nothing
        # more is recorded then.
        "in_play": rubber.status == Rubber.Status.IN_PROGRESS and not played["winner"],
        "next_number": phone.next_hand_number(rubber),
        "hand_label": get_game(rubber.ruleset).hand_label,
        "rules": get_ruleset(rubber.ruleset),
        "players": rubber.players if isinstance(rubber.players, list) else [],
        "values": entered or {},
        "error": error,
        "notice": notice,
        "is_secretary": club_is_managed_by(club=club, user=request.user),
        **phone.HAND_CHOICES,
    }


@login_required
def round_table(request, pk: int, round_number: int, number: int):
    """GET: the table's sheet and the form for its next hand. POST: record that hand, then
    back to the page (the hand's lines in the notice), or, sent by the page's queue, the
    page itself (201); a refusal comes back with the form as it was typed, 400 (409 when
    the hand is already recorded, or the rubber is busy: then with Retry-After, which the
    queue sends again)."""
    tournament = _directed(request, pk)
    table = _round_table(tournament, round_number, number)
    if request.method != "POST":
        return render(request, "tournaments/table.html", _context(request, tournament, table))
    error = entered = notice = None
    status, retry_after = 201, None
    try:
        hand = hand_input(table.rubber.ruleset).from_form(request.POST)
        recorded = recording.hand_record(
            rubber_id=table.rubber_id,
            data=hand,
            user=request.user,
            expected_number=whole_number(request.POST, "expected_number"),
        )
    except USER_ERRORS as exc:
        # The form comes back as it was typed, each value cut to ECHO_MAX characters.
        refused = phone.refused_form(exc, request.POST, ruleset=table.rubber.ruleset)
        error, entered = refused.error, refused.typed.values
        status, retry_after = refused.status, refused.retry_after
    else:
        label = get_game(table.rubber.ruleset).hand_label.capitalize()
        notice = [f"{label} {recorded.number} recorded.", *recorded.lines]
        if not request.headers.get("HX-Request"):
            messages.success(request, " ".join(notice))
            return redirect(
                reverse("tournament-table", args=[tournament.pk, table.round.number, table.number])
            )
        # Else the page's queue (static/js/phone-queue.js) sent it: the answer is the page,
        # whose live part it shows; a retry with the same Idempotency-Key gets it again.
    table.rubber.refresh_from_db()
    context = _context(request, tournament, table, error=error, entered=entered, notice=notice)
    response = render(request, "tournaments/table.html", context, status=status)
    if retry_after:
        response["Retry-After"] = retry_after
    return response
