"""The board's posts are throttled as the API's requests are (config.ratelimit's
api_rate_wait: per account, THROTTLE_USER, in the same windows as the secretary's API
calls): a stuck key or a script posting thousands of actions is refused past the rate
with 429, Retry-After and the board saying in words how long to wait, nothing done.
They were not counted at all."""

import re

import pytest
from django.urls import reverse

from club.models import Evening

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db, django_capture_on_commit_callbacks):
    """Table 1's rubber with hand 1 recorded (tests.worlds.club_in_play), made for the one
    test that needs it: the others make club "somerset" of their own (the `club` fixture),
    which the module's shared world of tests/club/conftest.py would already hold."""
    from tests.worlds import club_in_play

    return club_in_play(django_capture_on_commit_callbacks)


def arrive(client, evening, name: str):
    return client.post(
        reverse("evening-board-action", args=[evening.pk]), {"type": "arrive", "player": name}
    )


def test_past_the_rate_a_board_action_is_refused_in_words_and_nothing_is_done(
    client, secretary, evening, rates
):
    client.force_login(secretary)
    answers = [arrive(client, evening, name) for name in ("Ann", "Bob", "Cora", "Dan", "Edith")]
    assert [a.status_code for a in answers] == [200] * 5
    refused = arrive(client, evening, "Frank")
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    assert 55 <= wait <= 60  # DRF's rule: the window less the oldest request's age
    text = " ".join(re.sub(r"<[^>]+>", " ", refused.content.decode()).split())
    assert (
        f"Not done. Too many requests from your account in the last minute; wait {wait} "
        "seconds and try again."
    ) in text
    # The board's live part, morphed in (static/js/live.js swaps it: X-Live-Refusal),
    # the forms kept as typed (not marked done).
    assert refused["X-Live-Refusal"] == "1" and refused["HX-Reswap"] == "morph"
    assert "X-Live-Done" not in refused
    assert 'id="board"' in refused.content.decode()
    evening.refresh_from_db()
    assert evening.state["present"] == ["Ann", "Bob", "Cora", "Dan", "Edith"]
    # The settle form is counted in the same window; reading the board is not counted.
    settle = client.post(reverse("evening-board-settle", args=[evening.pk]), {"rubber": "1"})
    assert settle.status_code == 429
    board = reverse("evening-board-fragment", args=[evening.pk])
    assert {client.get(board).status_code for _ in range(6)} == {200}
    assert Evening.objects.get(pk=evening.pk).version == 5


def test_the_count_is_the_accounts_own(client, secretary, other_secretary, evening, rates):
    """Another secretary of another club has his own window."""
    client.force_login(secretary)
    for name in ("Ann", "Bob", "Cora", "Dan", "Edith"):
        arrive(client, evening, name)
    assert arrive(client, evening, "Frank").status_code == 429
    client.force_login(other_secretary)
    # Not his club's evening: 404, but counted as his and not refused for the first's rate.
    assert arrive(client, evening, "Frank").status_code == 404


def test_past_the_rate_a_late_correction_is_refused_and_leads_back_to_what_was_typed(
    client, world, rates
):
    """The rubber's page's changes are counted in the same window: refused past the rate
    with 429 in words, nothing changed, the way back leading to the hand's form filled in
    again as typed (`resume`, static/js/keep-typed.js)."""
    from scoring.models import HandCorrection

    client.force_login(world.secretary)
    change = reverse("rubber-change", args=[world.club.slug, world.rubber.pk])
    form = {"change": "correct", "number": "1", "makers": "EW", "tricks": "3", "reason": ""}
    assert [client.post(change, form).status_code for _ in range(5)] == [400] * 5
    refused = client.post(change, {**form, "reason": "E-W made it"})
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    page = refused.content.decode()
    assert (
        f"Too many requests from your account in the last minute; wait {wait} seconds and "
        "try again. The change was not made."
    ) in page
    back = f"/clubs/{world.club.slug}/rubbers/{world.rubber.pk}/?correct=1&amp;resume=1"
    assert f'href="{back}#corrections"' in page
    assert not HandCorrection.objects.exists()


def test_past_the_rate_no_evening_is_opened(client, club, secretary, rates):
    """The form that opens an evening is counted in the same window: a script opening
    evenings by the thousand is refused past the rate in words, nothing opened."""
    client.force_login(secretary)
    form = {"club": str(club.pk), "title": "x" * 200, "ruleset": "euchre-somerset-1888"}
    home = reverse("secretary-home")
    assert [client.post(home, form).status_code for _ in range(5)] == [400] * 5
    refused = client.post(home, {**form, "title": "Tuesday"})
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    assert (
        f"Too many requests from your account in the last minute; wait {wait} seconds and "
        "try again. No evening was opened."
    ) in refused.content.decode()
    assert not club.evenings.exists()
    assert client.get(home).status_code == 200  # reading is not counted
