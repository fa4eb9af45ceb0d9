"""The secretary's changes on a rubber's page: a late correction of any hand, and the last
hand taken off, each with a reason (law 5, ruling E9).

Only the club's secretary (or staff) sees the forms and may post them. The change goes
through the one service that changes hands (club.recording): at an evening's table it
is an entry of the evening's log, with who made it and why, shown in the evening's
history. Either way the original hand stays on record beside its correction, or as a
removed hand.
"""

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from club import phone, recording
from club.formation import FormationError
from club.selectors import club_is_managed_by, clubs_managed_by
from core.echo import capped, refusal
from core.errors import UserError
from core.inputs import whole_number
from core.text import clean_reason
from scoring.hand_input import hand_input
from scoring.models import Rubber
from scoring.rules import ScoringError, get_ruleset
from scoring.selectors import rubbers_of

USER_ERRORS = (UserError, FormationError, ScoringError)


def _named_hand(data, name: str) -> int | None:
    """The hand's number a form or an address names, or None when it names none (or not
    as a whole number: the form is then shown for the last hand)."""
    try:
        return whole_number(data, name)
    except UserError:
        return None


def _hand_to_correct(request, rubber: Rubber, posted) -> tuple[int | None, dict]:
    """The hand the correction form holds and its fields: after a refused correction, the
    hand and the fields as posted (nothing typed is lost); otherwise the hand asked for
    (`?correct=3`, else the last) as it was recorded, every field of it (its revokes and
    irregularities included, as the phone's correction has them), so a correction changes
    what the secretary changes and loses nothing else."""
    if posted is not None and posted.get("change") == "correct":
        return _named_hand(posted, "number"), posted
    number = _named_hand(request.GET, "correct")
    if number is None or not 1 <= number <= rubber.hand_count:
        number = rubber.hand_count
    hand = rubber.hands.filter(number=number).values_list("data", flat=True).first()
    return number, hand_input(rubber.ruleset).to_form(hand or {})


def secretary_context(request, club, rubber: Rubber, *, posted=None) -> dict:
    """What the rubber's page needs for the secretary's forms (nothing for anyone else)."""
    if not club_is_managed_by(club=club, user=request.user):
        return {"may_change": False}
    closed = rubber.evening is not None and rubber.evening.status == "closed"
    players = rubber.players if isinstance(rubber.players, list) else []
    may_change = not closed and rubber.hand_count > 0
    number, values = _hand_to_correct(request, rubber, posted) if may_change else (None, {})
    return {
        "may_change": may_change,
        "evening_closed": closed,
        "rules": get_ruleset(rubber.ruleset),
        "players": players,
        "hand_numbers": range(1, rubber.hand_count + 1),
        "correcting": number,
        "values": values,
        **phone.HAND_CHOICES,
        # A finished partnership rubber keeps its hands: the table has cut in and out on
        # its end (law 15); a correction may still change its figures.
        "may_remove": rubber.status == Rubber.Status.IN_PROGRESS,
    }


def change_reason(post) -> str:
    """The reason a posted change of a hand gives (ruling E9: kept beside it), cleaned, or
    refused in words when none is given; the rubber's page's and a progressive table's
    sheet's (tournaments/views_table.py)."""
    reason = clean_reason(post.get("reason"))
    if not reason:
        raise UserError(
            "Say why the hand is changed: the reason is kept beside it (ruling E9).",
            field="reason",
            law="ruling E9",
        )
    return reason


def _change(request, rubber: Rubber) -> str:
    """Carry out the posted change; return what the page says it did."""
    post = request.POST
    kind = post.get("change", "")
    number = whole_number(post, "number")
    if number is None:
        raise UserError("Choose the hand by its number.", field="number")
    reason = change_reason(post)
    # One service for every door (club.recording): at an evening's table the change is
    # an entry of the evening's log, with who made it and why.
    if kind == "correct":
        hand = hand_input(rubber.ruleset).from_form(post)
        recording.hand_correct(
            rubber_id=rubber.pk, number=number, data=hand, reason=reason, user=request.user,
            is_secretary=True,
        )  # fmt: skip
        return f"Hand {number} corrected; the original stays beside it (ruling E9)."
    if kind == "remove":
        recording.hand_remove(
            rubber_id=rubber.pk, number=number, reason=reason, user=request.user,
            is_secretary=True,
        )  # fmt: skip
        return f"Hand {number} taken off; it stays on record as removed (ruling E9)."
    raise UserError("Choose what to do: correct a hand, or take the last one off.", field="change")


def _back_after_login(slug: str, pk: int, post) -> str:
    """Where logging in again leads once a change was refused for want of a login: the
    rubber's page, at the hand the correction was of, with `resume`, on which the page
    fills the form in again with what was typed and sent (static/js/keep-typed.js)."""
    query = {"resume": "1"}
    number = _named_hand(post, "number") if post.get("change") == "correct" else None
    if number is not None:
        query = {"correct": str(number), **query}
    return f"{reverse('rubber-detail', args=[slug, pk])}?{urlencode(query)}#corrections"


@require_POST
def rubber_change(request, slug: str, pk: int):
    """Correct a hand of the rubber, or take its last hand off, with a reason (secretary)."""
    if not request.user.is_authenticated:
        # His login ran out while he typed: he is told the change was not made, and is
        # brought back to the rubber's page, not to this address, which only takes posts
        # (login_required's "next" led to a bare 405 page), with what he typed.
        messages.error(
            request, "You were logged out: the change was not made. Log in, then make it again."
        )
        return redirect_to_login(_back_after_login(slug, pk, request.POST))
    club = clubs_managed_by(user=request.user).filter(slug=slug).first()
    if club is None:
        raise Http404("No such club.")
    rubber = rubbers_of(club=club, hidden=None).filter(pk=pk).first()  # its secretary's
    if rubber is None:
        raise Http404("No such rubber.")
    try:
        done = _change(request, rubber)
    except USER_ERRORS as exc:
        from scoring.views import rubber_page

        # The forms come back as they were posted, each field cut to ECHO_MAX characters
        # (the reason as typed, even "on", which the hand's fields read as a ticked box).
        typed = phone.form_values(request.POST)
        posted = {**typed.values, "reason": capped(request.POST.get("reason", ""))}
        error = refusal(exc, note=typed.note)
        return rubber_page(request, club, rubber, error=error, posted=posted, status=400)
    messages.success(request, done)
    return redirect("rubber-detail", slug=club.slug, pk=rubber.pk)
