"""Celery tasks for standings. They take ids and recompute from committed rows, so a
redelivered task (late acknowledgement) does no harm."""

from celery import shared_task
from django.core.cache import cache

from tournaments import services
from tournaments.models import StandingsDirty


@shared_task(bind=True)
def recalculate_standings(self, tournament_id: int) -> int | None:
    """Bring a tournament's standings up to date with the changes in its outbox."""
    # Clear the queued flag first: a change committed from now on queues one more run.
    cache.delete(services.QUEUED_KEY.format(tournament_id))
    version = services.standings_recalculate(tournament_id=tournament_id)
    if StandingsDirty.objects.filter(tournament_id=tournament_id).exists():
        # Another recalculation held the lock, or changes arrived meanwhile.
        services.standings_schedule(tournament_id=tournament_id, countdown=1)
    return version.number if version else None


@shared_task(bind=True)
def recalculate_standings_full(self, tournament_id: int) -> int | None:
    """Recompute a tournament's standings from scratch (a director's full recalculation)."""
    version = services.standings_full_recalculation(tournament_id=tournament_id)
    if version is None:  # a recalculation holds the lock: try again shortly
        raise self.retry(countdown=2)
    return version.number


@shared_task
def sweep_standings() -> list[int]:
    """Schedule recalculations for changes still waiting in the outbox (broker outages)."""
    return services.standings_sweep()
