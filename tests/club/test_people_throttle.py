"""The club's people page's posts are counted as the board's are (config.ratelimit's
api_rate_wait: per account, THROTTLE_USER, in the API's windows): past the rate, 429 with
Retry-After and the page saying in words how long to wait, nothing changed, the form
shown again as typed. They were not counted at all: a script could add or remove
officers by the thousand."""

import re

import pytest
from django.contrib.auth import get_user_model

from club.models import Club
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def words(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def test_past_the_rate_a_post_is_refused_in_words_nothing_changed_form_kept(
    client, secretary, club, rates
):
    people = f"/secretary/clubs/{club.slug}/people/"
    client.force_login(secretary)
    directors = UserFactory.create_batch(5)
    club.directors.add(*directors)
    for director in directors[:5]:
        answer = client.post(people, {"action": "remove", "role": "director", "user": director.pk})
        assert answer.status_code == 302
    sixth = UserFactory()
    club.directors.add(sixth)
    removal = client.post(people, {"action": "remove", "role": "director", "user": sixth.pk})
    assert removal.status_code == 429
    wait = int(removal["Retry-After"])
    assert 55 <= wait <= 60
    assert (
        f"Too many requests from your account in the last minute; wait {wait} seconds and "
        "try again. Nothing was changed."
    ) in words(removal)
    assert list(Club.objects.get(pk=club.pk).directors.all()) == [sixth]
    # A new officer's form: refused, no account made, what was typed shown again (not the
    # passwords).
    added = client.post(
        people,
        {
            "action": "add",
            "username": "tom",
            "full_name": "Tom Pinch",
            "role": "director",
            "password": "lone-hand-march-1888",
            "password2": "lone-hand-march-1888",
        },
    )
    assert added.status_code == 429
    page = added.content.decode()
    assert 'value="tom"' in page and 'value="Tom Pinch"' in page
    assert "lone-hand-march-1888" not in page
    assert not get_user_model().objects.filter(username="tom").exists()
    # Reading the page is not counted.
    assert client.get(people).status_code == 200
