"""Celery tasks for standings. They take ids and recompute from committed rows, so a
redelivered task (late acknowledgement) does no harm."""

from celery import shared_task
from django.core.cache import cache

from tournaments import services
from tournaments.models import StandingsDirty


@shared_task(bind=True)
def recalculate_standings(self, tournament_id: int, *more: int) -> list[int | None]:
    """Bring the tournaments' standings up to date with the changes in their outbox (the
    tournaments a hand counts in, in one task); their new version numbers, None where
    there was nothing to do or another recalculation held the lock."""
    ids = [tournament_id, *more]
    # Clear the queued flags first: a change committed from now on queues one more run.
    cache.delete_many([services.QUEUED_KEY.format(t) for t in ids])
    numbers, failed = [], {}
    for one in ids:
        try:
            version = services.standings_recalculate(tournament_id=one)
        except Exception as exc:  # the others are still recalculated; then the task fails
            failed[one] = exc
            numbers.append(None)
            continue
        numbers.append(version.number if version else None)
    # Another recalculation held a tournament's lock: once more if changes wait there that
    # it may not have read. A tournament recalculated here needs no look: its changes
    # committed before the flags were cleared above were read, and each committed since
    # queued a task of its own. (A tournament that failed is left to the task's retry or
    # the outbox sweep.)
    unsettled = [
        t for t, number in zip(ids, numbers, strict=True) if number is None and t not in failed
    ]
    if unsettled:
        waiting = set(
            StandingsDirty.objects.filter(tournament_id__in=unsettled)
            .values_list("tournament_id", flat=True)
            .distinct()
        )
        again = [t for t in unsettled if t in waiting]
        if again:
            services.standings_schedule(*again, countdown=1)
    if failed:
        raise next(iter(failed.values()))
    return numbers


@shared_task(bind=True)
def recalculate_standings_full(self, tournament_id: int) -> int | None:
    """Recompute a tournament's standings from scratch (a director's full recalculation)."""
    # Cleared first: a press from now on queues one more (services.standings_request_full).
    cache.delete(services.FULL_QUEUED_KEY.format(tournament_id))
    version = services.standings_full_recalculation(tournament_id=tournament_id)
    if version is None:  # a recalculation holds the lock: try again shortly
        raise self.retry(countdown=2)
    return version.number


@shared_task
def sweep_standings() -> list[int]:
    """Schedule recalculations for changes still waiting in the outbox (broker outages)."""
    return services.standings_sweep()
