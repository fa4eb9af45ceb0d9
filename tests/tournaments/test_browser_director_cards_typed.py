"""The director's cards cut for round 1 (ruling T10), in Debian's chromium at a phone's
width (360 px): the box took only the log's codes ("JS") and gave no key, where the
board's cut boxes take a card by its suit's symbol, in either case (ruling T1). It takes
what they take (club.formation.cards.card_typed), shows the same key, keeps the codes in
the round's record and shows the cards by their suits. Screenshot in
artifacts/screenshots/director-cards-typed.png."""

import re

import pytest

from tests.browser import PHONE, log_in, shot
from tests.tournaments.test_browser_director import press
from tournaments import rounds, services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_directors_cards_cut_take_suit_symbols_and_show_the_key(
    browser_page, live_server, club, roster, secretary
):
    """Ruling T4 (progressive round 1 by the cut): the two highest play against the two
    lowest (law 8: knave, ace, king, queen)."""
    tournament = services.tournament_create(
        club=club, name="Symbols", slug="symbols", kind="progressive",
        ruleset="euchre-somerset-1888", movement="progressive", deals_per_round=1,
    )  # fmt: skip
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        rounds.tournament_enter(tournament=tournament, name=name)
    page = browser_page
    page.set_viewport_size(PHONE)
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/tournaments/{tournament.pk}/")
    key = page.get_by_test_id("card-key").inner_text()
    assert "rank then suit: J♠ or JS" in key, key
    assert page.locator("#seat-cards").get_attribute("placeholder").startswith("Ann: J♠")
    shot(page, "director-cards-key")
    page.set_viewport_size({"width": 1280, "height": 900})  # the director's laptop
    assert page.get_by_test_id("card-key").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    shot(page, "director-cards-key-1280")
    page.set_viewport_size(PHONE)

    # Each cuts for places at the tables, then for partners (ruling T4).
    page.fill("#seat-cards", "Ann: J♠ 10♠, Bob: a♥ 9h, Cora: k♦ 8♦, Dan: q♣ 7C")
    press(page, "seat")
    assert "Round 1 is seated." in page.get_by_test_id("notice").inner_text()
    played = tournament.rounds.get(number=1)
    cuts: dict[str, list[str]] = {}
    for cut in played.seating["cuts"]:  # the cut for places, then for partners
        cuts.setdefault(cut["player"], []).extend(cut["cards"])
    assert cuts == {
        "Ann": ["JS", "10S"], "Bob": ["AH", "9H"], "Cora": ["KD", "8D"], "Dan": ["QC", "7C"]
    }  # fmt: skip
    said = page.get_by_test_id("cuts-1").inner_text()
    assert "Ann J♠, Bob A♥" in said and "Ann 10♠" in said and "Dan 7♣" in said, said
    assert not re.search(r"\b(10|[2-9JQKA])[SHDC]\b", said), said
    shot(page, "director-cards-typed")
