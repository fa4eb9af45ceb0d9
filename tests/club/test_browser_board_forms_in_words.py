"""The secretary's board in a browser, its forms sent empty or half filled: each refusal
says in words what to write or tick, never the log's keys ("'cut' needs 'cards': {player:
card, ...}", "'substitute' needs 'substitute'", "'consent' must name exactly them"), and
nothing is done; at a phone's width no form of the board widens the page. Screenshots in
artifacts/screenshots/board-words-*.png."""

from decimal import Decimal

import pytest

from club import evenings
from club.models import Evening
from tests.browser import shot
from tests.club.test_browser_board_live import click, open_board, open_evening, seat_four

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = "document.documentElement.scrollWidth"


def refusal(page) -> str:
    return " ".join(page.locator("#board .alert.error").inner_text().split())


def no_key_named(text: str) -> None:
    for key in ("'cut'", "'cards'", "'substitute'", "'consent'", "'deal_jack'", "{player"):
        assert key not in text


def version(evening: Evening) -> int:
    evening.refresh_from_db()
    return evening.version


def test_a_cut_sent_with_no_card_says_to_write_the_cards_or_draw(
    browser_page, live_server, club, secretary
):
    """Ruling T10: every card cut is recorded; a cut sent with no card written was refused
    with "'cut' needs 'cards': {player: card, ...}"."""
    evening = open_evening(club)
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    before = version(evening)
    page = browser_page
    open_board(page, live_server, evening)
    click(page, "enter-cut")
    said = refusal(page)
    assert "No card was written" in said
    assert "Draw for them" in said and "ruling T10" in said
    no_key_named(said)
    assert version(evening) == before  # nothing was done
    shot(page, "board-words-empty-cut")


def test_a_substitute_with_no_name_or_a_consent_missing_is_refused_in_words(
    browser_page, live_server, club, secretary
):
    """Law 18, ruling T6: a substitute sits in with the consent of the other three. A name
    left empty was refused with "'substitute' needs 'substitute': a player's name", and a
    consent not ticked with "'consent' must name exactly them"."""
    evening = open_evening(club)
    seat_four(evening)  # Ann and Bob (JH, AH) against Cora and Dan; Ann deals, North
    evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": "Edith"})
    before = version(evening)
    page = browser_page
    open_board(page, live_server, evening)
    page.click("#comings-1 summary")
    page.select_option("#sub-1-player", "Ann")
    page.get_by_role("button", name="Substitute (law 18)").click()
    page.wait_for_selector("#board .alert.error")
    said = refusal(page)
    assert "Write the name of the player who sits in" in said and "law 18" in said
    no_key_named(said)

    page.fill("#sub-1-name", "Edith")
    page.get_by_role("button", name="Substitute (law 18)").click()
    page.wait_for_function(
        "document.querySelector('#board .alert.error').innerText.includes('Tick each')"
    )
    said = refusal(page)
    assert "Tick each of the other three players who consent" in said
    no_key_named(said)
    assert page.locator("#sub-1-name").input_value() == "Edith"  # kept, to be put right

    # Two of the three consent: the board names the one whose consent is missing.
    page.locator("#comings-1 input[name=consent][value=Bob]").check()
    page.locator("#comings-1 input[name=consent][value=Cora]").check()
    page.get_by_role("button", name="Substitute (law 18)").click()
    page.wait_for_function(
        "document.querySelector('#board .alert.error').innerText.includes('is not given')"
    )
    said = refusal(page)
    assert "the consent of Dan is not given" in said and "Law 18" in said
    no_key_named(said)
    assert version(evening) == before  # nothing was done
    shot(page, "board-words-substitute")


def test_call_ace_throws_sent_empty_say_how_to_write_them(
    browser_page, live_server, club, secretary
):
    """Call-Ace law 1: the first jack thrown round deals; the throws sent empty were
    refused with "'deal_jack' needs 'cards': [[player, card], ...] in the order thrown"."""
    evening = evenings.evening_open(
        club=club, date="1905-03-01", ruleset="call-ace-foster-1905", stake=Decimal("0.10")
    )
    for name in ["Ann", "Bob", "Cora", "Dan", "Edith"]:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    before = version(evening)
    page = browser_page
    open_board(page, live_server, evening)
    page.get_by_role("button", name="Enter the throws").click()
    page.wait_for_selector("#board .alert.error")
    said = refusal(page)
    assert 'write the cards thrown round, in order, as "Ann 9S, Bob JD"' in said
    assert "Throw for them" in said and "law 1" in said
    no_key_named(said)
    assert version(evening) == before


@pytest.mark.parametrize(
    "ruleset", ["bridge-elwell-1907", "euchre-somerset-1888", "call-ace-foster-1905"]
)
def test_the_board_fits_a_phone(browser_page, live_server, club, secretary, ruleset):
    """At 360 px the candidates' list of actions (at Bridge "announces the desire to
    succeed at the full table (ruling T13)") widened the page past the screen."""
    evening = evenings.evening_open(
        club=club, date="1907-01-05", ruleset=ruleset, stake=Decimal("0.10")
    )
    if ruleset != "call-ace-foster-1905":  # a table, with its forms for comings and goings
        seat_four(evening)
    evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": "Edith"})
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 800})
    open_board(page, live_server, evening)
    for details in page.locator("details[id^=comings-] > summary").all():
        details.click()
    assert page.locator("#candidate-action").is_visible()
    assert page.evaluate(WIDTH) <= 360
    shot(page, f"board-words-phone-{ruleset}")
