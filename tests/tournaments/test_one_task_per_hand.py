"""A hand that counts in several tournaments is recalculated by one task for them all
(`services.standings_schedule`): a task's handling costs the worker and the request that
sends it about as much as a small recalculation does (BENCHMARKS.md, 24 November)."""

import pytest
from celery.signals import task_prerun
from django.core.cache import cache

from tests.tournaments.conftest import hand, record, start
from tournaments import services
from tournaments.models import Tournament


@pytest.fixture
def tasks_run():
    """The arguments of each recalculation task run meanwhile (its tournaments' ids)."""
    seen = []

    def note(sender=None, args=None, **_):
        if sender.name.endswith("recalculate_standings"):
            seen.append(tuple(args))

    task_prerun.connect(note, weak=False)
    yield seen
    task_prerun.disconnect(note)


@pytest.fixture
def two_ladders(club, roster, evening, commit):
    def ladder(name):
        return commit(
            services.tournament_create, club=club, name=name, slug=name.lower(), kind="ladder",
            evening_ids=[evening.pk],
        )  # fmt: skip

    return [ladder("Season"), ladder("Year")]


def test_a_hand_counting_in_two_ladders_is_one_task_for_both(
    club, evening, commit, two_ladders, tasks_run
):
    rubber = start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"])
    tasks_run.clear()
    record(commit, rubber, hand("NS", 3))
    assert tasks_run == [tuple(sorted(t.pk for t in two_ladders))]
    for ladder in two_ladders:
        ladder.refresh_from_db()
        assert ladder.standings_version >= 2, ladder.name  # created, then this hand
        assert cache.get(services.QUEUED_KEY.format(ladder.pk)) is None  # the task cleared it


def test_a_tournament_queued_already_is_left_out_of_the_new_task(two_ladders, tasks_run):
    season, year = two_ladders
    cache.add(services.QUEUED_KEY.format(season.pk), 1, timeout=60)  # one queued for it
    assert services.standings_schedule(season.pk, year.pk) == [year.pk]
    assert tasks_run == [(year.pk,)]


def test_one_tournament_failing_does_not_keep_the_others_from_their_recalculation(
    club, evening, commit, two_ladders, tasks_run, monkeypatch
):
    season, year = two_ladders
    rubber = start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"])
    # The season's recalculation fails (a fault of any kind: a stored precedence the
    # metrics no longer know is left out of the ranking now, tournaments.metrics).
    recalculate = services.standings_recalculate

    def failing(*, tournament_id, **kwargs):
        if tournament_id == season.pk:
            raise RuntimeError("the season's recalculation fails")
        return recalculate(tournament_id=tournament_id, **kwargs)

    monkeypatch.setattr(services, "standings_recalculate", failing)
    versions = dict(Tournament.objects.values_list("pk", "standings_version"))
    record(commit, rubber, hand("NS", 3))  # the task fails (eager: its error is logged)
    assert tasks_run == [(season.pk, year.pk)]
    after = dict(Tournament.objects.values_list("pk", "standings_version"))
    assert after[season.pk] == versions[season.pk]
    assert after[year.pk] == versions[year.pk] + 1
