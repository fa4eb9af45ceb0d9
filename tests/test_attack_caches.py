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
from django.core.cache import cache

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


def _crowd_at(client, club_slug: str, slug: str = "winter") -> int:
    pagecache.public_memo.clear()
    return client.get(f"/clubs/{club_slug}/tournaments/{slug}/standings/").status_code


def test_a_club_renamed_and_made_private_at_once_is_not_served_at_its_old_address(client, ladder):
    """Staff change a club's address in the admin and make it private in the same save:
    the lookup under its old address was left for PUBLIC_SECONDS (only the new address's
    was dropped), and with it the private club's standings."""
    assert _crowd_at(client, "somerset") == 200
    club = ladder.club
    club.slug, club.is_public = "somerset-private", False
    club.save()
    assert (_crowd_at(client, "somerset"), _crowd_at(client, "somerset-private")) == (404, 404)


def test_a_tournament_renamed_and_made_private_at_once_is_not_served_at_its_old_address(
    client, ladder
):
    assert _crowd_at(client, "somerset") == 200
    ladder.slug, ladder.is_public = "winter-private", False
    ladder.save()
    assert _crowd_at(client, "somerset") == 404
    assert _crowd_at(client, "somerset", "winter-private") == 404


def test_a_tournament_moved_to_a_private_club_is_not_served_at_its_old_club(
    client, ladder, other_club
):
    other_club.is_public = False
    other_club.save()
    assert _crowd_at(client, "somerset") == 200
    ladder.club = other_club
    ladder.save()
    assert _crowd_at(client, "somerset") == 404
    assert _crowd_at(client, other_club.slug) == 404


class _ChangedBeforeTheWrite:
    """The cache (real Redis), with a change committed between the crowd's read of the
    tournament's row and its write of the lookup to Redis: the order two real requests
    take only now and then, made certain here. Nothing else of the cache is changed."""

    def __init__(self, change):
        self.change, self.done = change, False

    def __getattr__(self, name):
        return getattr(cache, name)

    def add(self, *args, **kwargs):
        if not self.done:
            self.done = True
            self.change()
        return cache.add(*args, **kwargs)


def test_a_tournament_made_private_while_the_crowd_reads_it_is_not_kept_public(
    client, ladder, monkeypatch
):
    """A visitor's request reads the tournament (public), the director makes it private
    and its lookup is dropped, then the visitor's request writes the lookup it read:
    every visitor was then served the private standings for PUBLIC_SECONDS."""
    private = _ChangedBeforeTheWrite(
        lambda: services.tournament_update(tournament=ladder, is_public=False)
    )
    monkeypatch.setattr(pagecache, "cache", private)
    _crowd_at(client, "somerset")
    assert private.done
    assert _crowd_at(client, "somerset") == 404


def _copies_kept(tournament_id: int) -> list[str]:
    """The crowd's rendered copies of the tournament's standings kept in Redis."""
    return cache.keys(pagecache.PAGE_KEY.format(tournament_id, "*", "*", "*"))


def test_pages_past_the_end_are_not_each_kept_as_a_copy(client, ladder):
    """A page past the end shows the last one; each was kept as a copy of its own, in
    Redis for PAGE_SECONDS a version: a visitor asking `?page=2` to `?page=1000` of both
    the page and its table (no throttle guards a page) had two thousand copies of the
    same page written for every version, every hand recorded."""
    club = ladder.club.slug
    for page in range(1, 41):
        for url in (PAGE, FRAGMENT):
            answer = client.get(url.format(club=club), {"page": page})
            assert answer.status_code == 200
    assert len(_copies_kept(ladder.pk)) == 2  # page 1, the only one: whole and its table
    assert len(pagecache.rendered_copies.items) == 2
