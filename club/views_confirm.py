"""The other side confirms (club/confirmations.py), on the pages: the table's phone,
where the side that did not record a hand confirms or disputes it, and the secretary's
board, where a disputed hand is settled with a reason (law 5, ruling E9).

Both answer with the page's live part, as every other form of those pages does (the
table's phone: the whole page to a form posted without JavaScript, `phone_answer`).
"""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_POST

from club import confirmations
from club.phone import named_refusal
from club.views_board import (
    USER_ERRORS,
    _managed_evening,
    _table,
    board_context,
    live_board,
    phone_answer,
    phone_link,
    table_context,
)
from config.api import UserError
from core.echo import refusal
from core.errors import Conflict
from core.inputs import whole_number
from scoring.hand_input import hand_input
from scoring.models import Rubber


def _hand_named(post) -> tuple[int, int]:
    rubber_id = whole_number(post, "rubber")
    number = whole_number(post, "number")
    if rubber_id is None or number is None:
        raise UserError("Choose the hand to answer for.", field="number")
    return rubber_id, number


@require_POST
@phone_link
def table_answer(request, token: str):
    """The other side's answer from the table's phone: confirm the hand, or dispute it
    with its own version (the hand form, prefilled with the hand as recorded). A refusal
    answers 400 (409 for a conflict), naming its field in words, as a refused hand does."""
    table = _table(token)
    error = notice = None
    status = 200
    try:
        rubber_id, number = _hand_named(request.POST)
        by = request.POST.get("by", "").strip()
        if request.POST.get("answer") == "dispute":
            version = hand_input(table.evening.ruleset).from_form(request.POST)
            done = confirmations.hand_dispute(
                rubber_id=rubber_id, number=number, by=by, data=version, table=table
            )
            notice = [
                f"Hand {number} disputed by {confirmations.who(done.answered_by)}: it counts "
                "as recorded until the secretary settles it (law 5, ruling E9)."
            ]
        else:
            done = confirmations.hand_confirm(
                rubber_id=rubber_id, number=number, by=by, table=table
            )
            notice = [f"Hand {number} confirmed by {confirmations.who(done.answered_by)}."]
    except USER_ERRORS as exc:
        # As a hand refused at the same phone (club.phone.Refused): 400, 409 for a conflict.
        error = named_refusal(exc, ruleset=table.evening.ruleset)
        status = 409 if isinstance(exc, Conflict) else 400
    return phone_answer(request, table_context(table, error=error, notice=notice), status=status)


@login_required
@require_POST
def board_settle(request, pk: int):
    """The secretary settles a disputed hand from the board, with a reason."""
    evening = _managed_evening(request, pk)
    error = notice = None
    try:
        rubber_id, number = _hand_named(request.POST)
        if not Rubber.objects.filter(pk=rubber_id, evening=evening).exists():
            raise UserError("Choose one of this evening's hands.", field="rubber")
        accept = request.POST.get("accept", "")
        confirmations.hand_settle(
            rubber_id=rubber_id,
            number=number,
            accept=accept,
            reason=request.POST.get("reason", ""),
            user=request.user,
        )
        kept = "as recorded" if accept == "recorded" else "as disputed, and corrected"
        notice = [f"Hand {number} settled {kept} (law 5, ruling E9)."]
    except USER_ERRORS as exc:
        error = refusal(exc)
    evening.refresh_from_db()
    # Morphed in as every board button's answer is: a name being typed in the arrivals
    # form stays (the whole board replaced once took it).
    response = render(
        request, "club/_board.html", board_context(evening, error=error, notice=notice)
    )
    return live_board(response, done=error is None)
