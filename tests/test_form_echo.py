"""A refused HTML form shows again what was typed, cut to ECHO_MAX characters (core/echo.py),
as the API's error repeats at most that much: a 1 MB name pasted into a form came back
whole. Each kind of form once with a value far too long (shown cut, and the refusal says
in words which field was cut), and ordinary refused values shown again whole."""

import html

import pytest

from config.api import ECHO_MAX as API_ECHO_MAX
from core.echo import ECHO_MAX, refusal, typed_again
from core.errors import UserError
from tests.worlds import club_in_play
from tournaments.services import tournament_create

BIG = "x" * 1_000_000
CUT = "x" * ECHO_MAX + "…"


def test_one_cap_for_the_api_and_the_pages():
    assert API_ECHO_MAX is ECHO_MAX == 500


def test_a_short_value_is_shown_again_whole_and_a_long_one_cut_with_its_field_named():
    words = {"title": "the evening's title", "stake": "the stake", "date": "the date"}
    again = typed_again({"title": "Tuesday", "stake": "y" * 2_000, "extra": "z" * 900}, words)
    assert again.values == {"title": "Tuesday", "stake": "y" * 500 + "…", "extra": "z" * 500 + "…"}
    # A field the page does not show (not in its words) is cut, not named.
    assert again.note == (
        "What was typed for the stake (2,000 characters) is too long to show again whole: "
        "only its first 500 are shown."
    )
    again = typed_again({"title": "t" * 501, "stake": ["1", "s" * 600]}, words)
    assert again.values["stake"] == ["1", "s" * 500 + "…"]
    assert again.note == (
        "What was typed for the evening's title and the stake (501 and 600 characters) is too "
        "long to show again whole: only the first 500 characters of each are shown."
    )
    assert typed_again({"title": "t" * 500}, words).note == ""


def test_a_refusal_cuts_its_message_and_adds_the_note():
    exc = UserError(f"{BIG} is not a valid choice.", field="ruleset", law="law 1")
    assert refusal(exc) == {"message": CUT, "law": "law 1", "field": "ruleset"}
    assert refusal(UserError("No."), note="Cut.")["message"] == "No. Cut."


# --- every kind of form ----------------------------------------------------------------------


@pytest.fixture
def world(db, client, django_capture_on_commit_callbacks):
    world = club_in_play(django_capture_on_commit_callbacks)
    world.progressive = tournament_create(
        club=world.club, name="P", slug="p", kind="progressive",
        ruleset="euchre-somerset-1888", movement="cut",
    )  # fmt: skip
    return world


def shown_cut(response, words: str, cut: str = CUT, typed: str = "1,000,000") -> str:
    """The page (its text unescaped), checked: the long value shown cut, never longer, and
    the refusal naming the field in words."""
    page = html.unescape(response.content.decode())
    assert len(page) < 40_000
    assert "x" * (ECHO_MAX + 1) not in page
    assert cut in page
    assert f"What was typed for {words} ({typed} characters) is too long to show" in page
    return page


def test_the_phones_entry_and_correction_forms(world, client):
    url = f"/t/{world.table.token}/hand/"
    entry = client.post(url, {"makers": "NS", "tricks": BIG, "expected_number": "2"})
    page = shown_cut(entry, "the tricks taken")
    assert "Not recorded." in page and 'value="xxx' in page
    correction = client.post(url, {"correct": "1", "makers": "NS", "tricks": BIG})
    shown_cut(correction, "the tricks taken")


def test_opening_an_evening(world, client):
    client.force_login(world.secretary)
    post = {"club": world.club.pk, "title": BIG, "ruleset": "euchre-somerset-1888"}
    page = shown_cut(client.post("/secretary/", post), "the evening's title")
    # The message names the field itself: no "The evening's title:" before it.
    assert (
        "Not opened.</strong> The evening's title is 120 characters at most; this one has "
        "1,000,000. What was typed for the evening's title"
    ) in page


def test_the_people_page(world, client):
    client.force_login(world.secretary)
    post = {"action": "add", "username": "eliza", "full_name": BIG, "role": "secretary",
            "password": "lone-hand-1888", "password2": "lone-hand-1888"}  # fmt: skip
    page = shown_cut(client.post("/secretary/clubs/somerset/people/", post), "the full name")
    assert "The full name is 150 characters at most; this one has 1,000,000." in page
    assert 'value="eliza"' in page  # the login name, short, shown again whole


def test_the_new_tournament_form(world, client):
    client.force_login(world.secretary)
    post = {"name": "Spring", "slug": BIG, "kind": "ladder", "precedence": "points_won"}
    response = client.post("/secretary/clubs/somerset/tournaments/new/", post)
    assert response.status_code == 400
    page = shown_cut(response, "the tournament's address")
    assert "The tournament's address is 60 characters at most; this one has 1,000,000." in page
    assert 'value="Spring"' in page
    # A refused choice is not repeated at all: the refusal says what to choose.
    post = {"name": "Spring", "slug": "spring", "kind": BIG, "precedence": "points_won"}
    response = client.post("/secretary/clubs/somerset/tournaments/new/", post)
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert len(page) < 40_000 and "x" * 50 not in page
    assert "Choose the kind of tournament: a club ladder or a progressive." in page


def test_a_late_correction_on_the_rubbers_page(world, client):
    client.force_login(world.secretary)
    post = {"change": "correct", "number": "1", "makers": "NS", "tricks": "4", "reason": BIG}
    response = client.post(f"/clubs/somerset/rubbers/{world.rubber.pk}/change/", post)
    assert response.status_code == 400
    page = shown_cut(response, "the reason")
    assert "Not changed." in page
    assert "The reason is 500 characters at most; this one has 1,000,000." in page
    assert 'name="tricks" min="0" max="5" required inputmode="numeric" value="4"' in page


def test_the_directors_buttons(world, client):
    client.force_login(world.secretary)
    url = f"/secretary/tournaments/{world.progressive.pk}/act/"
    response = client.post(url, {"action": "seat", "cards": f"Ann: {BIG}"})
    cut = f'value="Ann: {"x" * (ECHO_MAX - 5)}…"'
    shown_cut(response, "the cards cut", cut=cut, typed="1,000,005")


@pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
def test_the_login_forms(world, client, url):
    page = shown_cut(client.post(url, {"username": BIG, "password": BIG}), "the username")
    assert "the password" not in page  # never shown again, so never named


# --- ordinary refusals: what was typed, whole ------------------------------------------------


def test_a_short_refused_value_is_shown_again_as_typed(world, client):
    client.force_login(world.secretary)
    title = "T" * 300  # refused (at most 120), short enough to show again whole
    post = {"club": world.club.pk, "title": title, "ruleset": "euchre-somerset-1888",
            "stake": "0.25"}  # fmt: skip
    page = client.post("/secretary/", post).content.decode()
    assert f'value="{title}"' in page and "is too long to show" not in page
    phone = client.post(f"/t/{world.table.token}/hand/", {"makers": "NS", "tricks": "7"})
    page = phone.content.decode()
    assert "Not recorded." in page and 'value="7"' in page and "is too long" not in page
