"""A progressive round's table as its director scores it: the table's score sheet, the
form for its next hand (or deal), and the correction of any of its deals, for the club's
secretaries and tournament directors.

A progressive's tables play rubbers of their own (`tournaments.rounds`), not an
evening's; besides their phones (tournaments/views_phone.py) the director enters each
hand as the table calls it or hands in its paper sheet. The hand goes through the one
recording service every door uses (`club.recording.hand_record`): scored by the same
laws, its standings noted in the same transaction. The form sends the number of the hand
it means to record (`expected_number`), so a second tap, or a second director entering
the same table's sheet, is refused in words with the hand already recorded, never
recorded twice.

The director corrects any deal of the table, as the club's referee (law 5, ruling E9),
with a reason, at any time, the tournament over or not: the limits are in
tournaments/corrections.py, the correction goes through `club.recording.hand_correct`
(the standings follow), the original is kept beside it, and the sheet then says the
round's result as it now is.

Its posts (a deal, a correction) are counted as the board's and the director's buttons are
(config.ratelimit.api_rate_wait: THROTTLE_USER, per account, in the API's windows): past
the rate nothing is recorded or corrected.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from club import phone, recording
from club.selectors import club_is_managed_by
from club.views_board import USER_ERRORS
from config.ratelimit import account_too_many, account_wait, api_rate_wait
from core.echo import capped
from core.errors import UserError
from core.inputs import whole_number
from scoring.hand_input import hand_input
from scoring.models import Rubber
from scoring.rules import get_ruleset
from scoring.rules.games import get_game
from scoring.views import rubber_sheet
from scoring.views_secretary import change_reason
from tournaments import corrections
from tournaments.models import Round, RoundTable
from tournaments.rounds import sides_of, table_as_dict
from tournaments.table_links import round_won
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


def _correction(request, rubber: Rubber, posted: dict | None, error: dict | None) -> dict:
    """The correction form: the deal it holds, its fields and the version of the deal they
    are of (`changed_at`, when it was last changed: sent back, so a correction posted twice,
    or made over another's, is refused in words, club.recording.hand_correct). After a
    refused correction, the deal and the fields as posted (nothing typed is lost, the
    reason included); but when the deal changed since, the deal as it now reads, at its
    new version, as the secretary's rubber page does (scoring/views_secretary.py), so a
    second press sends only what the director chooses after reading it. Otherwise the
    deal asked for (`?correct=3`, else the last), every field of it as recorded, so a
    correction changes what the director changes and nothing else."""
    changed = (error or {}).get("code") in phone.CHANGED_SINCE
    reason = posted.get("reason", "") if posted is not None else ""
    source = posted if posted is not None else request.GET
    try:
        number = whole_number(source, "correct")
    except UserError:
        number = None
    if posted is not None and not changed:
        return {
            "number": number,
            "values": posted,
            "reason": reason,
            "changed_at": posted.get("changed_at", ""),
        }
    if number is None or not 1 <= number <= rubber.hand_count:
        number = rubber.hand_count
    hand = rubber.hands.filter(number=number).first()
    return {
        "number": number,
        "values": hand_input(rubber.ruleset).to_form(hand.data if hand is not None else {}),
        "reason": reason,
        "changed_at": recording.changed_at(hand).isoformat() if hand is not None else "",
    }


def _context(
    request,
    tournament,
    table: RoundTable,
    *,
    error=None,
    entered=None,
    notice=None,
    correction_error=None,
    corrected=None,
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
        # The last deal of a decided round its players have moved on from is kept (ruling
        # E9): said in place of the way to take it off.
        "kept_last_deal": corrections.kept_last_deal(table),
        # Any deal, corrected by the director as the club's referee (ruling E9).
        "correction": (
            _correction(request, rubber, corrected, correction_error) if rubber.hand_count else None
        ),
        "hand_numbers": range(1, rubber.hand_count + 1),
        "correction_error": correction_error,
        **phone.HAND_CHOICES,
    }


@login_required
def round_table(request, pk: int, round_number: int, number: int):
    """GET: the table's sheet and the form for its next hand. POST: record that hand, then
    back to the page (the hand's lines in the notice), or, sent by the page's queue, the
    page itself (201); a refusal comes back with the form as it was typed, 400 (409 when
    the hand is already recorded, or the rubber is busy: then with Retry-After, which the
    queue sends again). Past the rate (THROTTLE_USER: a script posting deals or
    corrections by the thousand) 429 with Retry-After and the wait in words, nothing
    done, the form as typed: the queue keeps the deal and sends it again after the wait."""
    wait = api_rate_wait(request, round_table) if request.method == "POST" else None
    tournament = _directed(request, pk)
    table = _round_table(tournament, round_number, number)
    if request.method != "POST":
        return render(request, "tournaments/table.html", _context(request, tournament, table))
    if wait is not None:
        return _past_the_rate(request, tournament, table, wait)
    if request.POST.get("change") == "correct":
        return _correct(request, tournament, table)
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


def _correct(request, tournament, table: RoundTable):
    """The director corrects a deal of the table, any deal, with a reason (law 5, ruling
    E9; tournaments.corrections), then back to the sheet, which says the round's result as
    it now is; a refusal comes back with the form as typed (400, 409 for a conflict)."""
    rubber = table.rubber
    before = round_won(rubber)
    try:
        number = whole_number(request.POST, "correct")
        if number is None:
            raise UserError(
                f"Choose the {get_game(rubber.ruleset).hand_label} to correct by its number.",
                field="correct",
            )
        reason = change_reason(request.POST)
        hand = hand_input(rubber.ruleset).from_form(request.POST)
        recording.hand_correct(
            rubber_id=rubber.pk,
            number=number,
            data=hand,
            reason=reason,
            user=request.user,
            is_secretary=True,  # the club's referee (ruling E9)
            authorize=corrections.director_may_correct(table, number=number),
            # The version of the deal the page showed: posted twice, or after another's
            # correction, it is refused in words (409), nothing kept twice.
            changed_at=phone.correction_seen(request.POST, ruleset=rubber.ruleset, number=number),
            reader="page",
        )
    except USER_ERRORS as exc:
        refused = phone.refused_form(exc, request.POST, ruleset=rubber.ruleset)
        return _correction_refused(request, tournament, table, refused, status=refused.status)
    rubber.refresh_from_db()
    later = tournament.rounds.filter(number__gt=table.round.number).exists()
    words = corrections.corrected_words(table, number=number, before=before, later_rounds=later)
    # Said beside the corrections, where the page goes (its head is off a phone's screen).
    messages.success(request, " ".join(words), extra_tags="in-place")
    url = reverse("tournament-table", args=[tournament.pk, table.round.number, table.number])
    return redirect(f"{url}#corrections")


def _correction_refused(request, tournament, table: RoundTable, refused, *, status: int):
    """The sheet with a refused correction: the refusal beside the correction's form, the
    form as typed, its reason and the version of the deal it corrects included."""
    posted = {
        **refused.typed.values,
        "reason": capped(request.POST.get("reason", "")),
        "changed_at": capped(request.POST.get("changed_at", "")),
    }
    context = _context(request, tournament, table, correction_error=refused.error, corrected=posted)
    return render(request, "tournaments/table.html", context, status=status)


def _past_the_rate(request, tournament, table: RoundTable, wait: int):
    """A deal or a correction posted past the account's rate: 429 with Retry-After and the
    wait in words, nothing done. To the page's queue (htmx), which keeps the deal and sends
    it again after the wait, saying the answer's words (static/js/phone-queue.js), the
    refusal alone, as a table's phone is answered; to a form posted without it (a
    correction), the sheet with the refusal beside that form, as typed. The
    Idempotency-Key keeps no answer with Retry-After."""
    if request.headers.get("HX-Request"):
        url = reverse("tournament-table", args=[tournament.pk, table.round.number, table.number])
        return account_too_many(
            request, wait, then="Nothing was recorded.", back=url, back_text="Back to the table"
        )
    refused = phone.refused_form(
        UserError(account_wait(wait)), request.POST, ruleset=table.rubber.ruleset
    )
    if request.POST.get("change") == "correct":
        response = _correction_refused(request, tournament, table, refused, status=429)
    else:
        context = _context(
            request, tournament, table, error=refused.error, entered=refused.typed.values
        )
        response = render(request, "tournaments/table.html", context, status=429)
    response["Retry-After"] = str(wait)
    return response


def _printed(tournament, table: RoundTable) -> dict:
    """One table's sheet as the round's printed sheets show it: its sides, its result and
    its score sheet, as on the table's own page."""
    played = table_as_dict(table.round, table)
    return {
        "table": table,
        "sides": sides_of(played["seats"]),
        "result": played,
        "sheet": rubber_sheet(table.rubber, tournament.club),
    }


@login_required
def round_sheets(request, pk: int, round_number: int):
    """Every table's score sheet of one round on one page, to print at once: each table on
    a printed page of its own (static/css/sheets.css), headed with the club, the
    tournament, the round and the table, as its own page prints it."""
    tournament = _directed(request, pk)
    played = get_object_or_404(Round, tournament=tournament, number=round_number)
    tables = played.tables.select_related("round", "rubber").order_by("number")
    return render(
        request,
        "tournaments/round_sheets.html",
        {
            "tournament": tournament,
            "club": tournament.club,
            "round": played,
            "tables": [_printed(tournament, table) for table in tables],
        },
    )
