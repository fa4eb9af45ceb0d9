"""With a real worker and Redis, a burst of hands ends in correct standings after few
recalculations (issue: at most one at a time per tournament, bursts coalesced)."""

import pytest
from django.conf import settings

from club import recording
from scoring import services as scoring
from tests.conftest import needs
from tests.factories import EveningFactory, MemberFactory
from tests.worker import celery_worker, wait_for
from tournaments import services
from tournaments.models import StandingsDirty, Tournament
from tournaments.selectors import standings_published

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_burst_of_hands_is_recalculated_a_few_times_and_ends_correct(club, postgres):
    needs(bool(settings.REDIS_URL), "needs Redis: set REDIS_URL=redis://...")
    for name in ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Hugh"]:
        MemberFactory(club=club, name=name)
    evening = EveningFactory(club=club)
    ladder = services.tournament_create(
        club=club, name="Ladder", slug="ladder", kind="ladder", evening_ids=[evening.pk]
    )
    rubbers = [
        scoring.rubber_start(club=club, evening=evening, ruleset="euchre-somerset-1888",
                             players={"NS": ns, "EW": ew})
        for ns, ew in [(["Ann", "Bob"], ["Cora", "Dan"]), (["Edith", "Frank"], ["Grace", "Hugh"])]
    ]  # fmt: skip
    with celery_worker(concurrency=2):
        wait_for(lambda: Tournament.objects.get(pk=ladder.pk).standings_version >= 1)
        before = Tournament.objects.get(pk=ladder.pk).standings_version
        burst = 0
        for _ in range(6):  # 24 hands, each committed on its own, as fast as they come
            for rubber in rubbers:
                for hand in ({"makers": "NS", "tricks": 3}, {"makers": "EW", "tricks": 4}):
                    recording.hand_record(rubber_id=rubber.pk, data=hand)
                    burst += 1
        wait_for(lambda: not StandingsDirty.objects.filter(tournament=ladder).exists(), timeout=30)
        wait_for(lambda: not services.cache.get(services.QUEUED_KEY.format(ladder.pk)))
    recalculations = Tournament.objects.get(pk=ladder.pk).standings_version - before
    assert 1 <= recalculations <= burst // 4, f"{recalculations} recalculations for {burst} hands"
    ladder.refresh_from_db()
    kept = standings_published(tournament=ladder)["rows"]
    services.standings_full_recalculation(tournament_id=ladder.pk)
    ladder.refresh_from_db()
    fresh = standings_published(tournament=ladder)["rows"]
    assert kept == fresh
    assert {row["name"]: row["metrics"]["points"] for row in fresh}["Ann"] == 6
