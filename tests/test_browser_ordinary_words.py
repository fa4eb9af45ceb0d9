"""Ordinary names and titles on a phone's screen (360 px, Debian's chromium): a name wraps
anywhere only to stay inside the screen (README, "no ordinary word broken";
tests/test_browser_long_names.py has the 80-letter names), so a table of names squeezed by
its other columns broke ordinary words: the director's rounds table of a progressive read
"Cor a", "Edit h & Fra nk", "Zebe dee Quack enb ush", and a player's record "Thanksgi ving
progressi ve". Screenshots in artifacts/screenshots/ordinary-words-*.png."""

import pytest

from club import recording
from tests.browser import PHONE, log_in, shot
from tests.test_browser_long_names import WORDS_BROKEN
from tournaments import rounds, services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Zebedee Quackenbush"]


@pytest.fixture
def thanksgiving(club, secretary):
    """A progressive of one deal a round at two tables (a rotation), round 1 seated by the
    secretary and a deal recorded at each table."""
    tournament = services.tournament_create(
        club=club, name="Thanksgiving progressive", slug="thanksgiving", kind="progressive",
        ruleset="euchre-somerset-1888", movement="rotation", deals_per_round=1,
    )  # fmt: skip
    for name in PLAYERS:
        rounds.tournament_enter(tournament=tournament, name=name)
    first = rounds.round_seat_next(tournament_id=tournament.pk, user=secretary)
    for table in first.tables.all():
        recording.hand_record(rubber_id=table.rubber_id, data={"makers": "NS", "tricks": 3})
    return tournament


def test_no_ordinary_word_is_broken_on_a_phone(browser_page, live_server, club, thanksgiving):
    page = browser_page
    page.set_viewport_size(PHONE)
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/tournaments/{thanksgiving.pk}/")
    page.get_by_text("Zebedee Quackenbush").first.wait_for()
    shot(page, "ordinary-words-director")
    assert page.evaluate(WORDS_BROKEN) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    member = club.members.get(name="Zebedee Quackenbush")
    page.goto(f"{live_server.url}/clubs/{club.slug}/players/{member.pk}/")
    page.get_by_text("Thanksgiving progressive").first.wait_for()
    shot(page, "ordinary-words-player")
    assert page.evaluate(WORDS_BROKEN) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
