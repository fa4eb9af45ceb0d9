"""HTML pages: the site's home, a club's public home, the secretary's home, login."""

from decimal import Decimal, InvalidOperation

from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.views.decorators.debug import sensitive_post_parameters

from club import selectors_public
from club.models import Club, Evening, Member
from club.ratelimit import login_throttled
from club.selectors import clubs_directed_by, clubs_managed_by, clubs_visible_to


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
    return render(
        request,
        "club/home.html",
        {
            "club": club,
            "in_play": selectors_public.rubbers_in_play(club=club)[:30],
            "tournaments": tournaments_visible(club=club, user=request.user)[:30],
            "evenings": club.evenings.order_by("-date", "-id")[:30],
        },
    )


def evening_results(request, slug, pk):
    """An evening's results: its rubbers, their winners and values, and its ledger."""
    club = _visible_club(request, slug)
    evening = get_object_or_404(Evening, club=club, pk=pk)
    return render(
        request,
        "club/evening_results.html",
        {"club": club, "evening": evening, **selectors_public.evening_results(evening=evening)},
    )


def player_detail(request, slug, pk):
    """A player's page: his figures at the club and his rubbers."""
    club = _visible_club(request, slug)
    member = get_object_or_404(Member, club=club, pk=pk)
    return render(
        request,
        "club/player.html",
        {"club": club, "member": member, **selectors_public.player_record(member=member)},
    )


@login_required
def secretary_home(request):
    """The secretary's start page: his clubs, their evenings, and a form to open one."""
    from club import evenings
    from config.api import UserError
    from scoring.rules import RULESETS, ScoringError

    error = None
    if request.method == "POST":
        club = clubs_managed_by(user=request.user).filter(pk=request.POST.get("club")).first()
        try:
            if club is None:
                raise UserError("Choose one of your clubs.", field="club")
            evening = evenings.evening_open(
                club=club,
                date=request.POST.get("date") or timezone.localdate(),
                ruleset=request.POST.get("ruleset", ""),
                stake=_stake(request.POST.get("stake", "0")),
                title=request.POST.get("title", ""),
            )
            return redirect("evening-board", pk=evening.pk)
        except (UserError, ScoringError) as exc:
            error = exc.message
    clubs = clubs_managed_by(user=request.user).prefetch_related("evenings")
    # Clubs whose tournaments he directs without being their secretary.
    directed = clubs_directed_by(user=request.user).exclude(pk__in=clubs.values("pk"))
    return render(
        request,
        "club/secretary_home.html",
        {"clubs": clubs, "rulesets": RULESETS.values(), "error": error,
         "today": timezone.localdate(), "directed": directed.prefetch_related("tournaments")},
    )  # fmt: skip


def _stake(text: str) -> Decimal:
    from config.api import UserError

    try:
        stake = Decimal(text.strip() or "0")
    except InvalidOperation as exc:
        raise UserError(
            "The stake is an amount such as 0.25.", field="stake", law="ruling M1"
        ) from exc
    if stake < 0 or stake != stake.quantize(Decimal("0.01")):
        raise UserError(
            "The stake is an amount in the currency's minor units, such as 0.25.",
            field="stake",
            law="ruling M1",
        )
    return stake


@method_decorator(sensitive_post_parameters(), name="dispatch")
@method_decorator(login_throttled, name="dispatch")
class LoginView(auth_views.LoginView):
    """Django's login page, behind the login throttle (THROTTLE_LOGIN per address) and
    django-axes' lockout (club.ratelimit)."""
