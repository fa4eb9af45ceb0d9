"""HTML pages: the site's home, a club's public home, the secretary's home, login."""

from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.utils.text import capfirst
from django.views.decorators.debug import sensitive_post_parameters

from club import selectors_public
from club.models import Club, Evening
from club.player_cache import page_part
from club.selectors import (
    clubs_directed_by,
    clubs_managed_by,
    clubs_visible_to,
    members_of,
    rubber_places,
    rubbers_hidden_from,
)
from config.ratelimit import (
    account_too_many,
    api_rate_wait,
    login_throttled,
    public_render,
    public_render_throttled,
)
from core.echo import CutWhenRefused, after_label, refusal, typed_in
from core.errors import UserError
from core.inputs import whole_number
from scoring.rules.games import get_game


def home(request):
    """The site's front page: the clubs the visitor may see."""
    return render(request, "home.html", {"clubs": clubs_visible_to(user=request.user)})


def _visible_club(request, slug: str) -> Club:
    club = clubs_visible_to(user=request.user).filter(slug=slug).first()
    if club is None:
        raise Http404("No such club.")
    return club


def club_home(request, slug):
    """A club's public home: tables in play, tournaments and evenings (private clubs
    only for their secretaries)."""
    from tournaments.selectors import tournaments_visible

    club = _visible_club(request, slug)
    hidden = rubbers_hidden_from(club=club, user=request.user)
    in_play = list(selectors_public.rubbers_in_play(club=club, hidden=hidden)[:30])
    places = rubber_places(in_play)  # a progressive's round table, in words
    return render(
        request,
        "club/home.html",
        {
            "club": club,
            "in_play": [(rubber, places.get(rubber.pk)) for rubber in in_play],
            # The page does not follow play by itself: it says when it was read.
            "read_at": timezone.now(),
            "tournaments": tournaments_visible(club=club, user=request.user)[:30],
            "evenings": club.evenings.order_by("-date", "-id")[:30],
        },
    )


@public_render_throttled
def evening_results(request, slug, pk):
    """An evening's results: its rubbers, their winners and values, and its ledger.
    Rendered afresh for every reader, so each is counted (THROTTLE_PUBLIC)."""
    club = _visible_club(request, slug)
    evening = get_object_or_404(Evening, club=club, pk=pk)
    evening.club = club  # its name names an untitled evening: not read twice

    def results():
        return render(
            request,
            "club/evening_results.html",
            {
                "club": club,
                "evening": evening,
                # What its rounds of play are called: Call-Ace plays sittings (ruling C5).
                "game": get_game(evening.ruleset),
                **selectors_public.evening_results(evening=evening),
            },
        )

    return public_render(request, results)()


@public_render_throttled
def player_detail(request, slug, pk):
    """A player's page: his figures at the club, his scorecard for a season (`?season=`,
    the latest by default; it prints as a scorecard) and his rubbers. A part no kept copy
    answers is rendered only within THROTTLE_PUBLIC (config.ratelimit.public_render)."""
    from club import selectors_player
    from tournaments.selectors import member_places

    club = _visible_club(request, slug)
    # A private progressive's rubbers are left out of his record but for the club's officers.
    hidden = rubbers_hidden_from(club=club, user=request.user)
    # A guest whom only a private progressive shows is no player to the public (404).
    member = get_object_or_404(members_of(club=club, hidden=hidden), pk=pk)
    member.club = club  # his evenings are named by it, without a query
    # His record is kept rendered, the officers' (private play in it) apart from the
    # public's, until a hand, a name or a tournament it shows changes (club/player_cache.py).
    kept = {"member": member, "private": hidden is None}
    seasons = page_part(
        **kept,
        part="seasons",
        season=None,
        make=public_render(
            request, lambda: selectors_player.player_seasons(member=member, hidden=hidden)
        ),
    )
    # ASCII digits only (core.inputs: "²" passes isdigit() and int() refuses it, a 500);
    # any other season asked for shows the latest.
    try:
        season = whole_number(request.GET, "season")
    except UserError:
        season = None
    season = season if season in seasons else None
    season = season or (seasons[0] if seasons else None)

    def record() -> dict:
        record = selectors_public.player_record(member=member, hidden=hidden)
        # Where each rubber was played: its evening and table, or a progressive's round and
        # table (its place), so the list does not leave the reader to guess.
        seats = list(record.pop("seats"))
        places = rubber_places(seat.rubber for seat in seats)
        for seat in seats:
            seat.place = places.get(seat.rubber_id)
        context = {"club": club, **record, "seats": seats}
        return {
            "figures": render_to_string("club/_player_figures.html", context),
            "rubbers": render_to_string("club/_player_rubbers.html", context),
        }

    def scorecard() -> str:
        card = None
        if season:
            card = selectors_player.player_scorecard(member=member, season=season, hidden=hidden)
        context = {"club": club, "seasons": seasons, "scorecard": card}
        return render_to_string("club/_player_scorecard.html", context)

    parts = page_part(**kept, part="record", season=None, make=public_render(request, record))
    parts["scorecard"] = page_part(
        **kept, part="scorecard", season=season, make=public_render(request, scorecard)
    )
    return render(
        request,
        "club/player.html",
        {
            "club": club,
            "member": member,
            "season": season,
            "parts": parts,
            # His places in the club's tournaments (a ladder's reader finds his way back),
            # read afresh: a recalculation moves them after a hand anywhere.
            "places": member_places(member=member, user=request.user),
        },
    )


#: The fields of the form that opens an evening, named in words where a refusal names one.
OPEN_EVENING_FIELDS = {
    "title": "the evening's title",
    "date": "the date",
    "ruleset": "the rule set",
    "stake": "the stake",
}


#: What the form that opens an evening says of a date or a stake it cannot take, after the
#: field's name ("The stake: write it as ..."), in the project's words rather than the
#: API's stock English ("A valid number is required.", "Date has wrong format ...").
OPEN_EVENING_REFUSALS = {
    "date": {
        "invalid": "Write it as year-month-day in digits, such as 1888-11-21, a day the "
        "calendar has.",
        "datetime": "Write it as year-month-day in digits, such as 1888-11-21, without a time.",
    },
    "stake": {
        "invalid": "Write it as an amount a point in the digits 0 to 9, with a point before "
        "the pence, such as 0.25, or 0 for an evening not played for money (ruling M1).",
        "min_value": "It cannot be below nought: write 0 for an evening not played for money "
        "(ruling M1).",
        "max_decimal_places": "Write it with at most two figures after the point, such as "
        "0.25 (ruling M1).",
        "max_digits": "It is at most 9999999999.99 a point (ruling M1).",
        "max_whole_digits": "It is at most 9999999999.99 a point (ruling M1).",
        "max_string_length": "It is at most 9999999999.99 a point (ruling M1).",
        "digits": "Write it in the digits 0 to 9, with a point before the pence, such as "
        "0.25 (ruling M1).",
    },
}


def _open_evening_input(form):
    """The API's input for a new evening (club.api_evenings.EveningInput: one rule for the
    stake, the date and the title at both doors), its date's and stake's refusals worded
    for the secretary's form (`OPEN_EVENING_REFUSALS`)."""
    from club.api_evenings import EveningInput

    data = EveningInput(data=form)
    for name, messages in OPEN_EVENING_REFUSALS.items():
        field = data.fields[name]  # the serializer's own copy of its field
        field.error_messages.update(messages)
        for check in field.validators:  # min_value: a validator worded when it was made
            if getattr(check, "code", None) in messages:
                check.message = messages[check.code]
    return data


@login_required
def secretary_home(request):
    """The secretary's start page: his clubs, their evenings, and a form to open one.

    The form is checked by the API's own input serializer for a new evening (one rule for
    the stake, the date and the title at both doors); a refused form is shown again with
    the field and the reason, answering 400.
    """
    from rest_framework.exceptions import ValidationError

    from club import evenings
    from config.api import field_error
    from scoring.rules import GAMES, ScoringError

    error = typed = number = refused = None
    if request.method == "POST":
        # Counted as the secretary's API requests and the board's posts are (THROTTLE_USER,
        # per account): a script opening evenings by the thousand is refused past the rate.
        wait = api_rate_wait(request, secretary_home)
        if wait is not None:
            return account_too_many(
                request,
                wait,
                then="No evening was opened.",
                back=reverse("secretary-home"),
                back_text="Back to your clubs",
            )
        try:
            number = whole_number(request.POST, "club")
            club = clubs_managed_by(user=request.user).filter(pk=number).first()
            if number is None or club is None:
                raise UserError("Choose one of your clubs.", field="club")
            form = request.POST.copy()
            form.pop("club")  # read above: the evening's own keys go to EveningInput
            if not form.get("date"):
                form["date"] = timezone.localdate().isoformat()
            if not form.get("stake", "").strip():
                form["stake"] = "0"
            data = _open_evening_input(form)
            data.is_valid(raise_exception=True)
            evening = evenings.evening_open(club=club, **data.validated_data)
            return redirect("evening-board", pk=evening.pk)
        except ValidationError as exc:
            field, message = field_error(exc.detail)
            refused = UserError(message, field=field)
        except (UserError, ScoringError) as exc:
            refused = exc
        if refused is not None:
            # The field at fault named in words, and the form shown again as it was typed
            # (each field cut to ECHO_MAX characters, the note saying which was).
            again = typed_in(request.POST, OPEN_EVENING_FIELDS)
            error = refusal(refused, note=again.note)
            # Named before the message unless the message names it already ("The
            # evening's title is 120 characters at most ...": core.text.too_long).
            words = capfirst(OPEN_EVENING_FIELDS.get(error["field"] or "", ""))
            named = not words or error["message"].startswith(words)
            error["label"] = None if named else f"{words}:"
            if not named:  # the field's name, a colon, and the refusal as one sentence
                error["message"] = after_label(error["message"])
            typed = {**again.values, "club": number if error["field"] != "club" else None}
    clubs = clubs_managed_by(user=request.user).prefetch_related("evenings")
    # Clubs whose tournaments he directs without being their secretary.
    directed = clubs_directed_by(user=request.user).exclude(pk__in=clubs.values("pk"))
    return render(
        request,
        "club/secretary_home.html",
        {"clubs": clubs, "rulesets": GAMES.values(), "error": error, "typed": typed,
         "today": timezone.localdate(), "directed": directed.prefetch_related("tournaments")},
        status=400 if error else 200,
    )  # fmt: skip


class LoginForm(CutWhenRefused, AuthenticationForm):
    """Django's login form; refused, the name typed is shown again cut to ECHO_MAX
    characters (core.echo)."""


@method_decorator(sensitive_post_parameters(), name="dispatch")
@method_decorator(login_throttled, name="dispatch")
class LoginView(auth_views.LoginView):
    """Django's login page, behind the login throttle (THROTTLE_LOGIN per address) and
    django-axes' lockout (config.ratelimit)."""

    authentication_form = LoginForm

    def render_to_response(self, context, **kwargs):
        """The login page, marked as such: a page's live request (a board's poll or
        button, htmx) that the login page answered, its session having run out, is told
        by this header and says so, rather than swapping the login page in
        (static/js/live.js)."""
        response = super().render_to_response(context, **kwargs)
        response["X-Login-Page"] = "1"
        return response
