"""A refusal that names the value it refuses ("'QX' is not a card") repeats at most
ECHO_VALUE (40) characters of it, an ellipsis marking the cut (core.quoted): a
10,000-character "card" or name came back whole in the message, up to the message's own
cap (ECHO_MAX, 500), which then cut off the words saying what was wrong. At the API and
at the table's phone alike."""

import html
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from club.formation import FormationError
from club.formation.cards import parse_card
from core.quoted import ECHO_VALUE, quoted
from tests.worlds import bridge_and_call_ace_in_play, club_in_play

LONG = "Q" * 10_000
SHOWN = "'" + "Q" * ECHO_VALUE + "…'"


def test_a_value_is_quoted_whole_up_to_forty_characters_and_cut_past_them():
    assert quoted("JS") == "'JS'"
    assert quoted("Q" * ECHO_VALUE) == "'" + "Q" * ECHO_VALUE + "'"
    assert quoted(LONG) == SHOWN
    assert quoted(7) == "7"
    assert quoted(["x" * 100]).endswith("…") and len(quoted(["x" * 100])) == ECHO_VALUE + 1


def test_a_long_card_is_named_cut_and_the_ruling_s_words_kept():
    """Ruling T1: a cut card is the rank then the suit."""
    with pytest.raises(FormationError) as refused:
        parse_card(LONG)
    assert refused.value.message == (
        f"ruling T1: the card {SHOWN} is not a card: write its rank then its suit, as J♠ or JS"
    )


def test_the_api_names_a_long_player_cut_and_says_what_was_wrong():
    """A Call-Ace deal's maker must be a player at the sitting (Foster's law 3)."""
    answer = APIClient().post(
        "/api/v1/scoresheets/score",
        {
            "ruleset": "call-ace-foster-1905",
            "players": ["Ann", "Bob", "Cora", "Dan"],
            "deals": [{"maker": LONG, "tricks": 3}],
        },
        format="json",
    )
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert error["message"] == f"{SHOWN} is not a player at this sitting", error
    assert len(answer.content) < 1_000


@pytest.fixture
def call_ace(db, django_capture_on_commit_callbacks):
    played = club_in_play(django_capture_on_commit_callbacks)
    return bridge_and_call_ace_in_play(played.club)


def test_the_phone_names_a_long_maker_cut_and_says_what_was_wrong(call_ace):
    """At a Call-Ace table's phone (a post not made by its page, whose maker is a list of
    the players): the refusal names the maker in at most forty characters, its words kept;
    nothing recorded."""
    table = call_ace.call_ace
    answer = Client().post(
        f"/t/{table.token}/hand/", {"maker": LONG, "tricks": "3", "expected_number": "2"}
    )
    assert answer.status_code == 400
    page = html.unescape(answer.content.decode())
    assert f"{SHOWN} is not a player at this sitting" in page
    assert not re.search("Q{41}", page.split('name="maker"')[0])
    assert table.evening.rubbers.get().hands.count() == 1


def test_the_api_names_a_long_choice_cut_and_says_what_was_wrong(db):
    """A choice a body's field does not offer (DRF's "invalid_choice", here a tournament's
    kind, and an evening's action's type) is named in at most forty characters."""
    from tests.conftest import token_client
    from tests.factories import ClubFactory, UserFactory

    secretary = UserFactory(username="secretary")
    ClubFactory(slug="somerset", secretaries=[secretary])
    answer = token_client(secretary).post(
        "/api/v1/clubs/somerset/tournaments/",
        {"name": "Spring", "slug": "spring", "kind": LONG},
        format="json",
    )
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert (error["field"], error["message"]) == (
        "kind",
        '"' + "Q" * ECHO_VALUE + '…" is not a valid choice.',
    ), error
    assert len(answer.content) < 1_000
