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
from django.views.decorators.http import require_http_methods

from club import phone, recording
from club.formation import FormationError
from club.selectors import club_is_managed_by, clubs_managed_by
from config.ratelimit import account_too_many, api_rate_wait
from core.echo import after_label, capped
from core.errors import Conflict, UserError
from core.inputs import NOT_DIGITS, whole_number
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


def _hand_to_correct(
    request, rubber: Rubber, posted, error: dict | None
) -> tuple[int | None, dict, str, str]:
    """The hand the correction form holds, its fields, the version of it they are of (its
    `changed_at`, sent back so a hand changed since is refused, not overwritten:
    club.recording.hand_correct) and, after a correction refused because the hand changed
    since the page showed it, what the secretary had entered, in words.

    After a refused correction, the hand and the fields as posted, with the version he
    had read (nothing typed is lost); but when the hand changed since (a phone, or another
    secretary, corrected it first), the hand as it now reads, with what he had entered
    said beside it, as a table's phone shows it (club.phone.hand_forms), so a second press
    sends only what he chooses after reading it, never his old fields over the other's
    correction (law 5, ruling E9). Otherwise the hand asked for (`?correct=3`, else the
    last) as it was recorded, every field of it (its revokes and irregularities included,
    as the phone's correction has them), so a correction changes what the secretary
    changes and loses nothing else."""
    changed = (error or {}).get("code") in phone.CHANGED_SINCE
    if posted is not None and posted.get("change") == "correct" and not changed:
        return _named_hand(posted, "number"), posted, posted.get("changed_at", ""), ""
    if posted is not None and posted.get("change") == "correct":
        number = _named_hand(posted, "number")
    else:
        number = _named_hand(request.GET, "correct")
    if number is None or not 1 <= number <= rubber.hand_count:
        number = rubber.hand_count
    hand = rubber.hands.filter(number=number).first()
    version = recording.changed_at(hand).isoformat() if hand is not None else ""
    values = hand_input(rubber.ruleset).to_form(hand.data if hand is not None else {})
    entered = phone.entered_words(rubber.ruleset, posted) if changed else ""
    return number, values, version, entered


def secretary_context(request, club, rubber: Rubber, *, posted=None, error=None) -> dict:
    """What the rubber's page needs for the secretary's forms (nothing for anyone else);
    `posted` and `error`, a refused change's fields and refusal."""
    if not club_is_managed_by(club=club, user=request.user):
        return {"may_change": False}
    closed = rubber.evening is not None and rubber.evening.status == "closed"
    players = rubber.players if isinstance(rubber.players, list) else []
    may_change = not closed and rubber.hand_count > 0
    number, values, version, entered = (
        _hand_to_correct(request, rubber, posted, error) if may_change else (None, {}, "", "")
    )
    return {
        "may_change": may_change,
        "evening_closed": closed,
        "rules": get_ruleset(rubber.ruleset),
        "players": players,
        "hand_numbers": range(1, rubber.hand_count + 1),
        "correcting": number,
        "values": values,
        "changed_at": version,
        "entered_words": entered,
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
        # The version of the hand the page showed: a phone (or another secretary) that
        # corrected it since is not overwritten; the correction is refused in words (409).
        seen = phone.correction_seen(post, ruleset=rubber.ruleset, number=number)
        recording.hand_correct(
            rubber_id=rubber.pk, number=number, data=hand, reason=reason, user=request.user,
            is_secretary=True, changed_at=seen, reader="page",
        )  # fmt: skip
        return f"Hand {number} corrected; the original stays beside it (ruling E9)."
    if kind == "remove":
        recording.hand_remove(
            rubber_id=rubber.pk, number=number, reason=reason, user=request.user,
            is_secretary=True,
        )  # fmt: skip
        return f"Hand {number} taken off; it stays on record as removed (ruling E9)."
    raise UserError("Choose what to do: correct a hand, or take the last one off.", field="change")


def _named(exc: Exception, *, rubber: Rubber, note: str) -> dict:
    """A refused change as the rubber's page shows it: its field named in words before a
    message that does not name it, as a table's phone names it (club.phone.named_refusal:
    "The tricks taken by the makers: 9 is out of range ..."), the hand's number (a hidden
    field, sent wrong only by a crafted or stale post) as the hand to change."""
    error = phone.named_refusal(exc, ruleset=rubber.ruleset, note=note)
    if error["field"] == "number" and getattr(exc, "code", None) == NOT_DIGITS:
        error["label"] = "The hand to change:"
        error["message"] = after_label(error["message"])
    return error


def _back_after_login(slug: str, pk: int, post) -> str:
    """Where logging in again leads once a change was refused for want of a login (or
    the way back once refused for too many requests): the rubber's page, at the hand the
    correction was of, with `resume`, on which the page fills the form in again with what
    was typed and sent (static/js/keep-typed.js)."""
    query = {"resume": "1"}
    number = _named_hand(post, "number") if post.get("change") == "correct" else None
    if number is not None:
        query = {"correct": str(number), **query}
    return f"{reverse('rubber-detail', args=[slug, pk])}?{urlencode(query)}#corrections"


@require_http_methods(["GET", "HEAD", "POST"])
def rubber_change(request, slug: str, pk: int):
    """Correct a hand of the rubber, or take its last hand off, with a reason (secretary).

    The address only takes posts; opened (a refused correction's page reloaded, which
    shows this address, or bookmarked) it leads to the rubber's page, where the forms are,
    whoever asks: it answered the browser's bare 405 page."""
    if request.method != "POST":
        return redirect("rubber-detail", slug=slug, pk=pk)
    if not request.user.is_authenticated:
        # His login ran out while he typed: he is told the change was not made, and is
        # brought back to the rubber's page, not to this address, which only takes posts
        # (login_required's "next" led to a bare 405 page), with what he typed.
        messages.error(
            request, "You were logged out: the change was not made. Log in, then make it again."
        )
        return redirect_to_login(_back_after_login(slug, pk, request.POST))
    # Counted as the secretary's API requests and the board's posts are (THROTTLE_USER,
    # per account): past the rate nothing is changed, and the way back is to the hand as
    # it was typed (kept in the tab, static/js/keep-typed.js, filled in again on `resume`).
    wait = api_rate_wait(request, rubber_change)
    if wait is not None:
        return account_too_many(
            request,
            wait,
            then="The change was not made.",
            back=_back_after_login(slug, pk, request.POST),
            back_text="Back to the rubber, with what you typed",
        )
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
        error = _named(exc, rubber=rubber, note=typed.note)
        error["code"] = getattr(exc, "code", None)
        # 409 for a conflict (the hand changed since the page showed it), as the phone's.
        status = 409 if isinstance(exc, Conflict) else 400
        return rubber_page(request, club, rubber, error=error, posted=posted, status=status)
    messages.success(request, done)
    return redirect("rubber-detail", slug=club.slug, pk=rubber.pk)
