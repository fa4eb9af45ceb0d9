"""A player's page is kept rendered (club/player_cache.py, docs/security.md "Floods"): a
repeat reader is served the copy, and whatever the page shows changes it at once (a hand
recorded, corrected or removed, a rubber won, a partner renamed); the officers' copy, with
a private progressive's play in it, is never the public's.

A page's tokens are replaced when a change commits (transaction.on_commit): each change
here is made under `committed`, which runs its commit's callbacks as a real commit
would (the test's own transaction never commits)."""

import html
import re

import pytest

from club import recording
from club.models import Club, Evening, Member
from tests.club.rooms import evening_with_a_table, record, table_one
from tests.worlds import public_club_with_private_play

pytestmark = pytest.mark.django_db


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """A change made and committed: its commit's callbacks run."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def text(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


@pytest.fixture
def evening(db):
    from tests.factories import ClubFactory

    return evening_with_a_table(ClubFactory(name="Somerset Club", slug="somerset"))


def _page(client, member) -> str:
    return text(client.get(f"/clubs/somerset/players/{member.pk}/"))


def _hands(page: str) -> int:
    return int(re.search(r"Hands (\d+) ", page).group(1))


def _north(evening: Evening) -> Member:
    return Member.objects.get(name=table_one(evening)["seats"]["N"])


def test_a_hand_recorded_corrected_or_removed_shows_at_once(client, evening, committed):
    """Law 5 and ruling E9 (a correction), as the standings and the evening see them."""
    north = _north(evening)
    record(evening, "NS", 3)
    before = _page(client, north)
    assert _hands(before) == 1 and "Points won 1 " in before
    assert _page(client, north) == before  # a reader again, nothing changed
    with committed():
        record(evening, "NS", 5)  # a march: two points more
    page = _page(client, north)
    assert _hands(page) == 2 and "Points won 3 " in page
    rubber = evening.rubbers.get()
    with committed():
        recording.hand_correct(
            rubber_id=rubber.pk, number=2, data={"makers": "NS", "tricks": 3},
            reason="Recounted", is_secretary=True,
        )  # fmt: skip
    assert "Points won 2 " in _page(client, north)
    with committed():
        recording.hand_remove(rubber_id=rubber.pk, number=2, reason="Misdealt", is_secretary=True)
    page = _page(client, north)
    assert _hands(page) == 1 and "Points won 1 " in page


def test_a_rubber_won_shows_in_his_rubbers_and_scorecard_at_once(client, evening, committed):
    north = _north(evening)
    record(evening, "NS", 3)
    page = _page(client, north)
    assert "Rubbers won 0 " in page and "In progress" in page
    while not evening.rubbers.filter(status="complete").exists():  # marches (law 2, E4)
        with committed():
            record(evening, "NS", 5)
    page = _page(client, north)
    assert "Rubbers won 1 " in page
    assert re.search(r"North-South Complete won \d+", page), page
    assert re.search(r"Season 1888: 1 evening \d+ 1 0 ", page), page


def test_a_partner_renamed_shows_on_his_page_at_once(client, evening, committed):
    north = _north(evening)
    record(evening, "NS", 3)
    partner = Member.objects.get(name=table_one(evening)["seats"]["S"])
    assert partner.name in _page(client, north)
    partner.name = "Mrs Battle"
    with committed():
        partner.save()
    page = _page(client, north)
    assert "Mrs Battle" in page


def test_the_club_renamed_shows_at_once(client, evening, committed):
    """An untitled evening is named by its club and its date on his scorecard."""
    north = _north(evening)
    record(evening, "NS", 3)
    assert "Somerset Club 21 November 1888" in _page(client, north)
    club = Club.objects.get(slug="somerset")
    club.name = "Bath Club"
    with committed():
        club.save()
    assert "Bath Club 21 November 1888" in _page(client, north)


def test_the_officers_copy_is_never_served_to_the_public(
    client, django_capture_on_commit_callbacks
):
    """A private progressive's rubbers are the officers' (docs/security.md): an officer
    reading the page first keeps a copy with them, which the public is not served."""
    played = public_club_with_private_play(django_capture_on_commit_callbacks)
    ann = played.members["Ann"]
    client.force_login(played.secretary)
    officers = _page(client, ann)
    assert _hands(officers) == 2 and "Spring" in officers
    client.logout()
    public = _page(client, ann)
    assert _hands(public) == 1 and "Spring" not in public
    assert "Seasons:" not in public
    # Nor the public's copy the officers'.
    client.force_login(played.director)
    assert "Spring" in _page(client, ann)
