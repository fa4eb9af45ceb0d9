"""An attacker's pass (the fourth): the director's buttons counted as the board's are.

The director's page took posts without counting them, where the board's buttons, the
people page and the form opening an evening are counted per account in the API's windows
(THROTTLE_USER, config.ratelimit.api_rate_wait): a script entering players by the
thousand (each name new to the club a guest added to its roster), or pressing any other
button, was never refused. Past the rate it is refused with 429, Retry-After and the page
saying in words how long to wait, nothing done."""

import re

import pytest

from tournaments import services

pytestmark = pytest.mark.django_db


def test_past_the_rate_the_directors_button_is_refused_in_words_and_nothing_is_done(
    club, secretary, client, rates
):
    tournament = services.tournament_create(
        club=club, name="P", slug="p", kind="progressive", ruleset="euchre-somerset-1888",
        movement="cut",
    )  # fmt: skip
    client.force_login(secretary)
    path = f"/secretary/tournaments/{tournament.pk}/act/"
    names = ["Ann", "Bob", "Cora", "Dan", "Edith"]
    answers = [client.post(path, {"action": "enter", "name": name}) for name in names]
    assert [a.status_code for a in answers] == [200] * 5
    refused = client.post(path, {"action": "enter", "name": "Frank"})
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    assert 55 <= wait <= 60
    text = " ".join(re.sub(r"<[^>]+>", " ", refused.content.decode()).split())
    assert (
        f"Too many requests from your account in the last minute; wait {wait} seconds and "
        "try again. Nothing was changed."
    ) in text
    assert sorted(tournament.players.values_list("member__name", flat=True)) == names
    assert not club.members.filter(name="Frank").exists()
