"""Reads for tournaments: who may see which, and the published standings."""

from django.core.cache import cache
from django.db.models import QuerySet
from django.http import Http404

from club.models import Club
from club.selectors import club_is_managed_by
from tournaments.metrics import METRICS
from tournaments.models import StandingsVersion, Tournament
from tournaments.services import VERSION_KEY


def tournaments_visible(*, club: Club, user) -> QuerySet[Tournament]:
    """The club's tournaments this user may see: private ones only for its secretaries."""
    tournaments = Tournament.objects.filter(club=club).select_related("club")
    if not club_is_managed_by(club=club, user=user):
        tournaments = tournaments.filter(is_public=True)
    return tournaments


def tournament_for(*, club: Club, slug: str, user) -> Tournament:
    """One tournament of the club as this user may see it, or 404."""
    tournament = tournaments_visible(club=club, user=user).filter(slug=slug).first()
    if tournament is None:
        raise Http404("No such tournament.")
    return tournament


def standings_version_number(*, tournament_id: int) -> int:
    """The latest published standings version, from the cache when it has it."""
    key = VERSION_KEY.format(tournament_id)
    number = cache.get(key)
    if number is None:
        number = (
            Tournament.objects.filter(pk=tournament_id)
            .values_list("standings_version", flat=True)
            .first()
        ) or 0
        cache.set(key, number, None)
    return number


def standings_published(*, tournament: Tournament, number: int | None = None) -> dict:
    """A published standings version as the API and the pages show it."""
    number = tournament.standings_version if number is None else number
    version = StandingsVersion.objects.filter(tournament=tournament, number=number).first()
    precedence = [
        k for k in (version.precedence if version else tournament.precedence) if k in METRICS
    ]
    rows = [
        {**row, "values": [row["metrics"].get(key) for key in precedence]}
        for row in (version.rows if version else [])
    ]
    return {
        "tournament": tournament.slug,
        "version": number,
        "computed_at": version.created_at.isoformat() if version else None,
        "precedence": [{"key": key, "title": METRICS[key].title} for key in precedence],
        "rows": rows,
    }
