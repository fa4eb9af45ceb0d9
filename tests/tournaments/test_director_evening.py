"""A director's evening as he meets it, in words: a new tournament refused names the field
in words (never Django's "This field is required." or "slug"), with the ruling where one
applies."""

import html
import re

import pytest

from tournaments.models import Tournament

from .test_director_pages import new_form

NEW = "/secretary/clubs/somerset/tournaments/new/"

#: Django's own refusals, which name no field and say "slug", a word for programmers.
DJANGOS_WORDS = ["This field is required", "Ensure this value", "slug", "Enter a whole number"]


def words(response) -> str:
    """The page's text as read: its tags taken out, its spaces as one."""
    text = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(html.unescape(text).split())


@pytest.mark.parametrize(
    ("values", "field", "said"),
    [
        ({"name": ""}, "name", "Give the tournament a name: it heads its standings."),
        ({"slug": ""}, "slug", "Give the tournament an address: letters, digits and hyphens."),
        ({"slug": "spring fair"}, "slug", "The address may hold only letters a to z, digits"),
        ({"kind": ""}, "kind", "Choose the kind of tournament: a club ladder or a progressive."),
        ({"rounds_planned": "0"}, "rounds_planned", "The rounds planned must be a whole number "
         "from 1 to 100, written in the digits 0 to 9; blank: the tournament ends"),
        ({"rounds_planned": "٣"}, "rounds_planned", "The rounds planned must be a whole number"),
        ({"deals_per_round": "101"}, "deals_per_round", "The deals per round (ruling P1) must "
         "be a whole number from 1 to 100, written in the digits 0 to 9; blank: each table"),
        ({"stake": "-1"}, "stake", "The stake per point cannot be below nought; 0 or blank: "
         "the rounds settle nothing (ruling P2)."),
        ({"stake": "0.255"}, "stake", "at most two decimal places (ruling M1)."),
        ({"stake": "a quarter"}, "stake", "The stake per point is an amount such as 0.25"),
        ({"precedence": ["marches", "points", "marches"]}, "precedence",
         "Marches is listed twice: each metric ranks once"),
    ],
)  # fmt: skip
def test_a_new_tournament_refused_names_its_field_in_words(directing, club, values, field, said):
    response = directing.post(NEW, new_form(**values))
    assert response.status_code == 400
    assert any(said in message for message in response.context["form"].errors[field])
    page = words(response)
    assert said in page
    for django in DJANGOS_WORDS:
        assert django not in " ".join(response.context["form"].errors[field]), django
    assert not Tournament.objects.filter(club=club).exists()


def test_a_progressive_without_rule_set_or_movement_is_told_both_at_once(directing, club):
    """Both fields at once, in the page's words, not the API's keys ('cut', 'rotation')."""
    response = directing.post(NEW, new_form(ruleset="", movement=""))
    errors = response.context["form"].errors
    assert errors["ruleset"] == ["A progressive tournament is played under one rule set."]
    assert errors["movement"] == [
        "Choose the movement that seats the rounds (a progressive is played in rounds)."
    ]
    assert "'cut'" not in words(response)
    assert not Tournament.objects.exists()


def test_the_api_is_told_the_movements_keys_with_their_titles(club, secretary_api):
    response = secretary_api.post(
        f"/api/v1/clubs/{club.slug}/tournaments/",
        {"name": "P", "slug": "p", "kind": "progressive", "ruleset": "euchre-somerset-1888"},
        format="json",
    )
    assert response.status_code == 400
    message = response.json()["error"]["message"]
    assert "'rotation' (Rotation chart: a new partner every round)" in message


@pytest.mark.parametrize(
    ("given", "field"),
    [({"deals_per_round": "3"}, "deals_per_round"), ({"rounds_planned": "3"}, "rounds_planned")],
)
def test_a_ladder_with_a_progressives_round_format_is_refused(directing, club, given, field):
    """A ladder counts evenings: deals a round were once kept on it, silently."""
    values = {"kind": "ladder", "ruleset": "", "movement": "", "rounds_planned": ""}
    values["deals_per_round"] = ""
    response = directing.post(NEW, new_form(**{**values, **given}))
    assert response.status_code == 400
    assert response.context["form"].errors[field] == [
        "A ladder has no rounds, movement or deals a round; it counts evenings."
    ]
    assert not Tournament.objects.exists()
