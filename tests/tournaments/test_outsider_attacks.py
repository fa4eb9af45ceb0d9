"""An outsider's attacks on the director's pages, the public pages and the login, each
refused with nothing written or shown that should not be: odd and oversized values in
every button of the director's page (the takings back among them) answered in words,
never a 500 nor the markup typed shown as markup; another club's officers find none of
the tournament's pages (404); a write without the CSRF token is refused; the login's
`next` never leads off the site; the public pages are not framed."""

import pytest
from django.test import Client

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ODD = ["99999999999999999999999", "-1", "1e5", "\u0663", "x" * 20000, "\x00",
       "<script>alert(1)</script>"]  # fmt: skip
ACTIONS = ["seat", "enter", "leave", "bye", "unbye", "new_link", "end", "final", "reopen",
           "unfinal", "precedence", "attach", "detach", "recalculate", "unknown"]  # fmt: skip


def test_odd_values_in_every_button_are_refused_in_words(directing, round_one):
    url = f"/secretary/tournaments/{round_one.pk}/act/"
    for action in ACTIONS:
        for value in ODD:
            fields = ("round", "table", "name", "member", "cards", "reason", "evening")
            form = {"action": action, "confirm": "1", "precedence": [value]}
            answer = directing.post(url, {**form, **dict.fromkeys(fields, value)})
            assert answer.status_code < 500, (action, value[:20])
            assert b"<script>alert(1)</script>" not in answer.content, action
    round_one.refresh_from_db()
    assert round_one.ended_after_round is None and round_one.results_final_at is None


@pytest.mark.parametrize(
    "path",
    ["", "rounds/1/sheets/", "rounds/1/tables/1/", "table-cards/", "tables/1/qr.svg"],
)
def test_another_clubs_officers_find_nothing(client, round_one, other_secretary, director, path):
    own = Client()
    own.force_login(director)
    assert own.get(f"/secretary/tournaments/{round_one.pk}/{path}").status_code == 200
    client.force_login(other_secretary)
    assert client.get(f"/secretary/tournaments/{round_one.pk}/{path}").status_code == 404
    answer = client.post(
        f"/secretary/tournaments/{round_one.pk}/act/", {"action": "seat", "confirm": "1"}
    )
    assert answer.status_code == 404


def test_a_write_without_the_csrf_token_is_refused(round_one, director, club):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(director)
    act = browser.post(f"/secretary/tournaments/{round_one.pk}/act/", {"action": "seat"})
    assert act.status_code == 403
    assert not round_one.rounds.filter(number=2).exists()


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "/\\evil.example"])
def test_the_logins_next_never_leaves_the_site(db, target):
    UserFactory(username="zed")
    answer = Client().post(
        f"/accounts/login/?next={target}",
        {"username": "zed", "password": "correct horse battery", "next": target},
    )
    assert answer.status_code == 302
    assert answer["Location"] == "/secretary/"


def test_the_public_pages_are_not_framed(client, round_one):
    for path in ("", "room/"):
        answer = client.get(f"/clubs/somerset/tournaments/{round_one.slug}/{path}")
        assert answer.status_code == 200 and answer["X-Frame-Options"] == "DENY"
