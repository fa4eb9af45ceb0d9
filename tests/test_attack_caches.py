"""Attacks on the crowd's cached standings: a tournament or club made private must not be
served from a cache again, whatever was running when it went private
(tournaments/pagecache.py).

A recalculation (a Celery task) reads its tournament when it begins and announces its new
version after it commits. A director who makes the tournament private meanwhile (or a
secretary the club) drops the crowd's lookup at once; the recalculation's announcement,
made from the copy it read before, put the lookup back: the private standings were served
to anyone not logged in for half a minute (PUBLIC_SECONDS).
"""

import pytest

from tournaments import pagecache, services
from tournaments.models import Tournament

PAGE = "/clubs/{club}/tournaments/winter/"
FRAGMENT = PAGE + "standings/"


@pytest.fixture
def ladder(club, evening, redis):
    """A public ladder of the (public) club, its standings once published."""
    ladder = services.tournament_create(
        club=club, name="Winter ladder", slug="winter", kind="ladder", evening_ids=[evening.pk]
    )
    services.standings_full_recalculation(tournament_id=ladder.pk)
    return ladder


def _as_the_worker_read_it(ladder) -> Tournament:
    return Tournament.objects.select_related("club").get(pk=ladder.pk)


def _crowd_sees(client, ladder) -> list[int]:
    pagecache.public_memo.clear()  # another process, whose memo has long run out
    urls = [PAGE.format(club=ladder.club.slug), FRAGMENT.format(club=ladder.club.slug)]
    return [client.get(url).status_code for url in urls]


def test_a_recalculation_begun_before_the_tournament_went_private_does_not_show_it(client, ladder):
    assert _crowd_sees(client, ladder) == [200, 200]
    running = _as_the_worker_read_it(ladder)
    services.tournament_update(tournament=ladder, is_public=False)
    assert _crowd_sees(client, ladder) == [404, 404]
    pagecache.announce(running, running.standings_version + 1)  # the worker's commit
    assert _crowd_sees(client, ladder) == [404, 404]


def test_a_recalculation_begun_before_the_club_went_private_does_not_show_it(client, ladder):
    assert _crowd_sees(client, ladder) == [200, 200]
    running = _as_the_worker_read_it(ladder)
    club = ladder.club
    club.is_public = False
    club.save()
    assert _crowd_sees(client, ladder) == [404, 404]
    pagecache.announce(running, running.standings_version + 1)
    assert _crowd_sees(client, ladder) == [404, 404]
