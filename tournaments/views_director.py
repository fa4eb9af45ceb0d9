"""The director's page for a tournament: rounds, players, and a full recalculation of the
standings with a progress bar (it polls the task's progress)."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_POST

from club.selectors import clubs_managed_by
from config.api import UserError
from tournaments import rounds, selectors, services
from tournaments.models import Tournament


def _directed(request, pk: int) -> Tournament:
    tournament = (
        Tournament.objects.select_related("club")
        .filter(pk=pk, club__in=clubs_managed_by(user=request.user))
        .first()
    )
    if tournament is None:
        raise Http404("No such tournament.")
    return tournament


def _context(tournament: Tournament, *, error=None) -> dict:
    return {
        "tournament": tournament,
        "club": tournament.club,
        "progress": services.standings_progress(tournament_id=tournament.pk),
        "rounds": [rounds.round_as_dict(r) for r in tournament.rounds.order_by("number")],
        "players": tournament.players.select_related("member").order_by("pk"),
        "standings": selectors.standings_published(tournament=tournament),
        "error": error,
    }


@login_required
def director(request, pk: int):
    """A tournament as its director runs it."""
    return render(request, "tournaments/director.html", _context(_directed(request, pk)))


@login_required
def progress(request, pk: int):
    """The progress bar alone, for polling while a full recalculation runs."""
    tournament = _directed(request, pk)
    return render(
        request,
        "tournaments/_progress.html",
        {"tournament": tournament, "progress": services.standings_progress(tournament_id=pk)},
    )


@login_required
@require_POST
def act(request, pk: int):
    """The director's buttons: recalculate in full, seat the next round, enter a player."""
    tournament = _directed(request, pk)
    error = None
    try:
        action = request.POST.get("action")
        if action == "recalculate":
            services.standings_request_full(tournament_id=tournament.pk)
        elif action == "seat":
            rounds.round_seat_next(tournament_id=tournament.pk, user=request.user)
        elif action == "enter":
            rounds.tournament_enter(
                tournament=tournament,
                name=request.POST.get("name", ""),
                new_player=bool(request.POST.get("new_player")),
            )
    except UserError as exc:
        error = exc.message
    tournament.refresh_from_db()
    return render(request, "tournaments/_director.html", _context(tournament, error=error))
