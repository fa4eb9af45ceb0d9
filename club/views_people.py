"""A club's people page: its secretaries add and remove secretaries and directors."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.debug import sensitive_post_parameters

from club import people as services
from club.models import Club
from club.selectors import clubs_directed_by, clubs_managed_by
from config.ratelimit import account_wait, api_rate_wait, throttle_wait, too_many
from config.throttles import LoginRateThrottle
from core.echo import refusal, typed_in
from core.errors import UserError
from core.inputs import whole_number


def _secretary_club(request, slug: str) -> Club:
    """The club, for its secretaries (and staff); its directors may not name officers
    (403), anyone else learns nothing of it (404)."""
    club = clubs_managed_by(user=request.user).filter(slug=slug).first()
    if club is not None:
        return club
    if clubs_directed_by(user=request.user).filter(slug=slug).exists():
        raise PermissionDenied("Only the club's secretaries name its officers.")
    raise Http404("No such club.")


#: The fields of the form adding an officer that a refusal shows again, in words.
TYPED_WORDS = {"username": "the login name", "full_name": "the full name", "role": "the role"}


@sensitive_post_parameters("password", "password2")
@login_required
def people(request, slug: str):
    """The club's secretaries and tournament directors; add an account (new or existing)
    to either role, or take a role away."""
    club = _secretary_club(request, slug)
    errors, notice, typed = {}, None, {}
    if request.method == "POST":
        action = request.POST.get("action", "")
        # Counted as the board's posts are (THROTTLE_USER, per account, in the API's
        # windows): a stuck key or a script adding or removing officers by the thousand is
        # refused past the rate with 429 and Retry-After, nothing done, the form shown
        # again as typed (its passwords excepted).
        wait = api_rate_wait(request, people)
        if wait is not None:
            typed = typed_in(request.POST, TYPED_WORDS).values if action == "add" else {}
            errors["action"] = account_wait(wait, "Nothing was changed.")
            response = _people_page(request, club, errors, typed, status=429)
            response["Retry-After"] = str(wait)
            return response
        try:
            if action == "add":
                typed = {k: request.POST.get(k, "") for k in TYPED_WORDS}
                password = request.POST.get("password", "")
                if password != request.POST.get("password2", ""):
                    raise UserError("The two passwords differ.", field="password")
                if password:
                    # A password checked (an account's own, for its owner's word) or a login
                    # name found free: counted as a login door's attempt, per address.
                    wait = throttle_wait(request, people, [LoginRateThrottle()])
                    if wait is not None:
                        return too_many(
                            request,
                            "Too many officers added with a password from your address; "
                            f"wait {wait} seconds and try again.",
                            wait,
                            heading="Too many attempts",
                            back=request.path,
                            back_text="Back to the club's people",
                        )
                user, created = services.club_officer_add(
                    club=club, password=password, added_by=request.user, request=request, **typed
                )
                notice = (
                    f"{'A new account, ' if created else ''}{user.username}, is now a "
                    f"{services.ROLE_TITLES[typed['role']]} of the club."
                )
                typed = {}
            elif action == "remove":
                user_id = whole_number(request.POST, "user")
                if user_id is None:
                    raise UserError("Choose an officer.", field="user")
                services.club_officer_remove(
                    club=club, user_id=user_id, role=request.POST.get("role", "")
                )
                if not clubs_managed_by(user=request.user).filter(pk=club.pk).exists():
                    return redirect("secretary-home")  # he removed himself
                notice = "Done: that role is taken away (the account stays)."
            else:
                raise UserError("Unknown button.", field="action")
        except UserError as exc:
            # The form shown again as it was typed, each field cut to ECHO_MAX characters.
            again = typed_in(request.POST, TYPED_WORDS) if typed else None
            typed = again.values if again else {}
            note = again.note if again else ""
            errors[exc.field or "action"] = refusal(exc, note=note)["message"]
        else:
            # Done: the page is asked for again, so that reloading it or coming back to
            # it does not send the form a second time (it said the account just made
            # already existed); the notice goes with it.
            messages.success(request, notice)
            return redirect(request.path)
    return _people_page(request, club, errors, typed, status=400 if errors else 200)


def _people_page(request, club: Club, errors: dict, typed: dict, *, status: int):
    """The people page, with its refusals beside their fields and the form as typed."""
    return render(
        request,
        "club/people.html",
        {
            "club": club,
            "secretaries": club.secretaries.order_by("username"),
            "directors": club.directors.order_by("username"),
            "roles": services.ROLE_TITLES.items(),
            "errors": errors,
            "typed": typed,
        },
        status=status,
    )
