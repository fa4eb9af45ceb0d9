"""A text past its limit is refused in words at every door (core.text.too_long): the field
named as people name it, its limit and the length sent ("The evening's title is 120
characters at most; this one has 312."), never "The text is too long" nor DRF's or
Django's "Ensure this field has no more than 120 characters", in the API's error and in
the HTML forms alike."""

import html
import inspect

import pytest
from django import forms
from django.urls import get_resolver, reverse
from rest_framework import serializers

from club.api import TokenInput
from club.api_confirm import ConfirmInput
from core.text import InWords
from tournaments.api import RoundInput, TournamentUpdateInput
from tournaments.services import tournament_create

pytestmark = pytest.mark.django_db

LONG = "x" * 312


def said(message: str, words: str, limit: int, length: int = 312) -> bool:
    return message == f"{words} is {limit:,} characters at most; this one has {length:,}."


@pytest.fixture
def ladder(club, evening):
    return tournament_create(
        club=club, name="Winter", slug="winter", kind="ladder", evening_ids=[evening.pk]
    )


def error_of(response, status=400) -> dict:
    assert response.status_code == status, response.content
    return response.json()["error"]


# --- the API ---------------------------------------------------------------------------------


def test_the_evenings_title(secretary_api, club):
    url = reverse("api-evenings", args=[club.slug])
    body = {"title": LONG, "date": "1888-11-21", "ruleset": "euchre-somerset-1888", "stake": "0"}
    error = error_of(secretary_api.post(url, body, format="json"))
    assert error["field"] == "title" and error["code"] == "invalid"
    assert said(error["message"], "The evening's title", 120)


def test_a_clubs_name_and_address(staff_api):
    url = reverse("api-clubs")
    error = error_of(staff_api.post(url, {"name": LONG, "slug": "bath"}, format="json"))
    assert error["field"] == "name" and said(error["message"], "The club's name", 120)
    error = error_of(staff_api.post(url, {"name": "Bath", "slug": LONG}, format="json"))
    assert error["field"] == "slug" and said(error["message"], "The club's address", 60)


def test_a_members_name(secretary_api, club):
    url = reverse("api-members", args=[club.slug])
    error = error_of(secretary_api.post(url, {"name": "y" * 81}, format="json"))
    assert error["field"] == "name" and said(error["message"], "The member's name", 80, 81)


def test_a_tournaments_name_address_and_stake(secretary_api, club, ladder):
    url = reverse("api-tournaments", args=[club.slug])
    body = {"name": LONG, "slug": "spring", "kind": "ladder", "precedence": ["points_won"]}
    error = error_of(secretary_api.post(url, body, format="json"))
    assert error["field"] == "name" and said(error["message"], "The tournament's name", 120)
    error = error_of(secretary_api.post(url, {**body, "name": "Spring", "slug": LONG}))
    assert error["field"] == "slug" and said(error["message"], "The tournament's address", 60)
    one = reverse("api-tournament", args=[club.slug, ladder.slug])
    error = error_of(secretary_api.patch(one, {"name": LONG}, format="json"))
    assert error["field"] == "name" and said(error["message"], "The tournament's name", 120)
    stake = TournamentUpdateInput(data={"stake": "1" * 21})
    assert not stake.is_valid()
    assert said(stake.errors["stake"][0], "The stake", 20, 21)


def test_a_name_searched_for_in_the_standings(api, club, ladder):
    url = reverse("api-standings", args=[club.slug, ladder.slug])
    error = error_of(api.get(url, {"player": "z" * 81}))
    assert error["field"] == "player"
    assert said(error["message"], "The name searched for", 80, 81)


def test_the_other_limited_fields_of_the_api():
    cases = [
        (ConfirmInput, {"by": LONG}, "by", "The side that answers", 80),
        (TokenInput, {"username": LONG, "password": "p"}, "username", "The login name", 150),
    ]
    for serializer, data, field, words, limit in cases:
        checked = serializer(data=data)
        assert not checked.is_valid()
        assert said(checked.errors[field][0], words, limit), checked.errors
    cards = RoundInput(data={"cards": {"Ann": ["JS", "10HH"]}})
    assert not cards.is_valid()
    assert said(cards.errors["cards"]["Ann"][1][0], "A card", 3, 4)


def test_an_idempotency_key_too_long(secretary_api, club):
    url = reverse("api-members", args=[club.slug])
    answer = secretary_api.post(url, {"name": "Ann"}, format="json", HTTP_IDEMPOTENCY_KEY=LONG)
    error = error_of(answer)
    assert error["code"] == "too_long"
    assert said(error["message"], "The Idempotency-Key header", 255)


def _project_classes(base: type) -> list[type]:
    assert get_resolver().url_patterns  # every view imported, and with it every input
    found, todo = [], [base]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.split(".")[0] in {"club", "core", "config", "scoring", "tournaments"}:
                found.append(sub)
    return found


def _text_fields(field, path: str):
    yield path, field
    child = getattr(field, "child", None)
    if child is not None:
        yield from _text_fields(child, f"{path}[]")


def test_every_limited_text_field_of_the_api_says_its_limit_in_words():
    """Guards the rule for fields to come: a CharField with a max_length answers in words
    only through InWords (DRF's own answer is "Ensure this field has no more than ...")."""
    unworded = []
    for serializer in _project_classes(serializers.Serializer):
        if inspect.isabstract(serializer):
            continue
        for name, declared in getattr(serializer, "_declared_fields", {}).items():
            for path, field in _text_fields(declared, name):
                limited = isinstance(field, serializers.CharField) and field.max_length
                if limited and not isinstance(field, InWords):
                    unworded.append(f"{serializer.__module__}.{serializer.__name__}.{path}")
    assert unworded == []


def test_every_limited_text_field_of_the_html_forms_says_its_limit_in_words():
    """Every Django form of the project with a text field of limited length words its
    refusal as the API does (core.echo.CutWhenRefused)."""
    from core.echo import CutWhenRefused

    unworded = []
    for form in _project_classes(forms.BaseForm):
        limited = [
            name
            for name, field in form.base_fields.items()
            if isinstance(field, forms.CharField) and field.max_length
        ]
        if limited and not issubclass(form, CutWhenRefused):
            unworded.append(f"{form.__module__}.{form.__name__}: {limited}")
    assert unworded == []


# --- the HTML forms --------------------------------------------------------------------------


def page_of(response) -> str:
    return html.unescape(response.content.decode())


def test_the_pages_say_the_same(client, secretary, club, evening):
    client.force_login(secretary)
    # The evening's title: the message names the field, nothing before it.
    post = {"club": club.pk, "title": LONG, "ruleset": "euchre-somerset-1888", "stake": "0"}
    page = page_of(client.post(reverse("secretary-home"), post))
    assert (
        "Not opened. The evening's title is 120 characters at most; this one has 312."
        in " ".join(page.replace("<strong>", "").replace("</strong>", "").split())
    )
    # A new tournament's name and address, each beside its field.
    url = "/secretary/clubs/somerset/tournaments/new/"
    post = {"name": LONG, "slug": "spring", "kind": "ladder", "precedence": "points_won"}
    page = page_of(client.post(url, post))
    assert "The tournament's name is 120 characters at most; this one has 312." in page
    page = page_of(client.post(url, {**post, "name": "Spring", "slug": LONG}))
    assert "The tournament's address is 60 characters at most; this one has 312." in page
    assert "Ensure this value" not in page
    # A player arriving at the board.
    board = reverse("evening-board-action", args=[evening.pk])
    page = page_of(client.post(board, {"type": "arrive", "player": "y" * 81}))
    assert "The player's name is 80 characters at most; this one has 81." in page
