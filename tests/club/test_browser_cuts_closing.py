"""A browser on the secretary's board (issue #15, items 3 and 5): a wrong card in the cut
keeps the others typed and is marked; a player who exposed two cards; the dealer's choice of
seat (ruling T12); closing with a rubber in play, abandoned with a reason, after which the
club's page shows no table in play. Screenshots in artifacts/screenshots/cuts-*.png."""

import re

import pytest

from club.models import Evening
from scoring.models import Rubber
from tests.browser import log_in, settled, shot
from tests.club.test_browser_board import act

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_cut_form_dealers_choice_and_closing(browser_page, live_server, club, secretary):
    page = browser_page
    page.on("dialog", lambda dialog: dialog.accept())  # hx-confirm
    log_in(page, live_server)
    page.get_by_test_id("open-evening").click()
    page.wait_for_url(re.compile(r"/secretary/evenings/\d+/$"))
    evening = Evening.objects.get()
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        page.fill("input[name=player]", name)
        act(page, "arrive")
    act(page, "form-table")  # four: a table without cutting; they cut for partners

    # Item 3: one wrong card; the others stay typed, the wrong one is marked.
    for name, card in {"Ann": "JS", "Bob": "AH", "Cora": "ZZ", "Dan": "9C"}.items():
        page.fill(f"input[name='card-{name}']", card)
    act(page, "enter-cut")
    assert page.locator(".alert.error", has_text="Not done.").count() == 1
    assert page.input_value("input[name='card-Ann']") == "JS"
    assert page.input_value("input[name='card-Dan']") == "9C"
    cora = page.locator("input[name='card-Cora']")
    assert cora.input_value() == "ZZ" and cora.get_attribute("aria-invalid") == "true"
    shot(page, "cuts-1-bad-card-kept")
    cora.fill("9H")
    page.locator("details.exposed summary").first.click()
    page.fill("input[name='exposed-Dan']", "JH JD")  # he showed two knaves, cut again: 9C
    act(page, "enter-cut")
    assert page.locator(".alert.error", has_text="Not done.").count() == 0
    page.wait_for_selector("text=Dan exposed more than one card (J♥, J♦)")

    # Ruling T12: Ann, the dealer, chooses East.
    page.select_option("select[name=seat]", "E")
    act(page, "dealer-choice-1")
    page.wait_for_selector(".seat.e >> text=E Ann")
    shot(page, "cuts-2-dealers-choice")
    rubber = Rubber.objects.get()
    assert rubber.players["EW"][0] == "Ann"

    # Item 5: closing asks what happened to the rubber in play.
    unfinished = page.get_by_test_id("unfinished-1-1")
    unfinished.locator("input[value=abandoned]").check()
    unfinished.locator("input[name^=reason]").fill("the lamps went out")
    shot(page, "cuts-3-closing-dialog")
    act(page, "close-evening")
    settled(page)
    evening.refresh_from_db()
    assert evening.status == Evening.Status.CLOSED
    rubber.refresh_from_db()
    assert rubber.status == Rubber.Status.ABANDONED
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    assert page.get_by_text("No table is playing just now.").count() == 1
    shot(page, "cuts-4-club-page")


def test_a_bad_card_and_blanks_are_named_together_on_the_board(
    browser_page, live_server, club, secretary
):
    """One card typed wrong and the other three left blank: the board names the bad card in
    words (ruling T1) and the cards missing (law 11 / ruling T4), marks all four boxes, and
    keeps the card typed; it used to say only that cards were missing. At 1280 px."""
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, live_server)
    page.get_by_test_id("open-evening").click()
    page.wait_for_url(re.compile(r"/secretary/evenings/\d+/$"))
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        page.fill("input[name=player]", name)
        act(page, "arrive")
    act(page, "form-table")
    page.fill("input[name='card-Cora']", "zz")
    act(page, "enter-cut")
    said = page.get_by_test_id("refusal").inner_text()
    assert "Cora's card 'zz' is not a card" in said and "(ruling T1)" in said, said
    assert "no card is written for Ann, Bob and Dan" in said, said
    assert "Law 11 / ruling T4" in said, said
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        box = page.locator(f"input[name='card-{name}']")
        assert box.get_attribute("aria-invalid") == "true", name
    assert page.input_value("input[name='card-Cora']") == "zz"  # kept as typed
    shot(page, "cuts-bad-card-and-blanks-1280")
    # Put right, the cut is made.
    for name, card in {"Ann": "JS", "Bob": "AH", "Cora": "9H", "Dan": "9C"}.items():
        page.fill(f"input[name='card-{name}']", card)
    act(page, "enter-cut")
    assert page.get_by_test_id("refusal").count() == 0
