"""A rubber abandoned when its table broke up is said so on the public results with the
evening's own law for it (ruling T9: Euchre's law 21, Elwell's "Rights of Entry"), never
Euchre's law 21 on a Bridge evening's page. (A Call-Ace sitting whose table breaks up
is settled, ruling C5, not abandoned.)"""

import pytest
from django.urls import reverse

from club import evenings
from scoring.rules.games import GAMES
from tests.factories import ClubFactory
from tests.worlds import bridge_and_call_ace_in_play

pytestmark = pytest.mark.django_db


def _text(response) -> str:
    return " ".join(response.content.decode().split())


def test_a_broken_up_bridge_tables_rubber_cites_elwells_law(client):
    club = ClubFactory(slug="somerset", name="Somerset Club", is_public=True)
    evening = bridge_and_call_ace_in_play(club).bridge.evening
    evenings.evening_act(evening_id=evening.pk, event={"type": "break_up", "table": 1})
    law = GAMES[evening.ruleset].tables.cite("break_up")
    page = _text(client.get(reverse("evening-results", args=[club.slug, evening.pk])))
    assert f"abandoned: its table broke up ({law})" in page
    assert "law 21" not in page
