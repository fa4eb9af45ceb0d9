"""The other side confirms (club/confirmations.py), on the pages: the table's phone,
where the side that did not record a hand confirms or disputes it, and the secretary's
board, where a disputed hand is settled with a reason (law 5, ruling E9).

Both answer with the page's live part, as every other form of those pages does (the
table's phone: the whole page to a form posted without JavaScript, `phone_answer`).
"""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils.text import capfirst
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from club import confirmations
from club.board_refusals import board_refusal
from club.phone import named_refusal
from club.views_board import (
    USER_ERRORS,
    _managed_evening,
    _table,
    board_context,
    board_throttled,
    live_board,
    phone_answer,
    phone_link,
    table_context,
)
from config.api import UserError
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


#: The settle form's fields (templates/club/_board_disputes.html) in words: the hand it
#: settles is named by two hidden fields, so a crafted or stale post's refusal of them
#: says which, never only its key (`board_refusal`).
SETTLE_WORDS = {
    "rubber": "the rubber of the disputed hand",
    "number": "the number of the disputed hand",
    "accept": "which version stands",
}

#: Where the secretary settles a hand from, said in a refusal of the form's hidden fields.
SETTLE_FROM = 'settle the hand from its own form under "Disputed hands", which names it'


def _settled_hand(evening, post) -> tuple[int, int, str]:
    """The disputed hand a board's settle form names (its rubber, its number) and which
    version stands ("disputed" or "recorded"), each refused in words naming its field."""
    rubber_id = whole_number(post, "rubber")
    number = whole_number(post, "number")
    for name, value in (("rubber", rubber_id), ("number", number)):
        if value is None:
            raise UserError(
                f"{capfirst(SETTLE_WORDS[name])} was not sent; {SETTLE_FROM}.", field=name
            )
    if not Rubber.objects.filter(pk=rubber_id, evening=evening).exists():
        raise UserError(
            f"{capfirst(SETTLE_WORDS['rubber'])}: rubber {rubber_id} is not one of this "
            f"evening's; {SETTLE_FROM}.",
            field="rubber",
        )
    accept = post.get("accept", "")
    if accept not in {"disputed", "recorded"}:
        raise UserError(
            f"{capfirst(SETTLE_WORDS['accept'])}: choose the disputing side's version (the "
            "hand is corrected) or the hand as recorded (law 5, ruling E9).",
            field="accept",
            law="ruling E9",
        )
    return rubber_id, number, accept


@login_required
@require_POST
@board_throttled
@never_cache  # the board again, with the tables' links (club.views_board.board)
def board_settle(request, pk: int):
    """The secretary settles a disputed hand from the board, with a reason."""
    evening = _managed_evening(request, pk)
    error = notice = None
    try:
        rubber_id, number, accept = _settled_hand(evening, request.POST)
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
        error = board_refusal(
            exc, evening=evening, post=request.POST, words=SETTLE_WORDS, user=request.user
        )
    evening.refresh_from_db()
    # Morphed in as every board button's answer is: a name being typed in the arrivals
    # form stays (the whole board replaced once took it).
    response = render(
        request, "club/_board.html", board_context(evening, error=error, notice=notice)
    )
    return live_board(response, done=error is None)
