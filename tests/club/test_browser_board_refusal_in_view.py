"""The board's refusal to a form is brought before the secretary: pressed at the foot of a
long board (two tables in play), "Close the evening" with no answer for the rubbers in
play, or "Substitute" with no name, was refused at the head of the board, thousands of
pixels above what he saw, and the page did not move: he thought nothing had happened. The
refusal now comes into view, focused (tabindex=-1, role=alert: read out), and what was
typed stays. A poll never moves the page, and never takes the refusal away (it did within
a poll on a busy evening): the next form's answer does. Screenshots in
artifacts/screenshots/board-refusal-in-view-*.png."""

import re

import pytest

from club import evenings
from tests.browser import PHONE, polled, settled, shot
from tests.club.test_browser_board_live import (
    BOARD_POLL_MS,
    board_shown,
    open_evening,
    seat_four,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {360: PHONE, 1280: {"width": 1280, "height": 900}}


def two_tables_in_play(club):
    """An evening with two tables seated, each with its first rubber in play: a long board."""
    evening = open_evening(club)
    seat_four(evening)
    names = ["Edith", "Frank", "Grace", "Hugh"]
    for name in names:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    cards = dict(zip(names, ("JS", "AS", "KS", "QS"), strict=True))
    evenings.evening_act(evening_id=evening.pk, event={"type": "cut", "cards": cards})
    return evening


def press(page, button):
    """Press a board button (its hx-confirm accepted) and wait for its answer morphed in."""
    settled(page)
    with page.expect_response(re.compile(r"/action/$")):
        button.click()
    settled(page)


def in_view_and_focused(page, locator) -> None:
    box = locator.bounding_box()
    height = page.evaluate("window.innerHeight")
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (box, height)
    assert locator.evaluate("node => node === document.activeElement")
    assert locator.get_attribute("role") == "alert"


@pytest.mark.parametrize("width", [360, 1280])
def test_closing_refused_at_the_foot_of_the_board_is_seen(
    browser_page, live_server, club, secretary, width
):
    evening = two_tables_in_play(club)
    page = browser_page
    page.on("dialog", lambda dialog: dialog.accept())  # hx-confirm
    page.clock.install()  # the board's own clock: its poll is run forward, not waited for
    board_shown(page, live_server, evening, SIZES[width])
    # He writes why table 2's rubber stopped but chooses nothing for either rubber.
    page.fill("input[name^=reason-]:below(:text('Table 2, rubber 1'))", "the lamps went out")
    typed = page.locator("input[name^=reason-]").nth(1)
    assert typed.input_value() == "the lamps went out"
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    press(page, page.get_by_test_id("close-evening"))

    refusal = page.get_by_test_id("refusal")
    assert "Still in play, with no answer given" in refusal.inner_text()
    in_view_and_focused(page, refusal)
    assert typed.input_value() == "the lamps went out"  # kept as typed
    shot(page, f"board-refusal-in-view-closing-{width}")

    # A poll (the evening moved on elsewhere) never moves the page.
    page.evaluate("window.scrollTo(0, 200)")
    evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": "Iris"})
    polled(page, f"/secretary/evenings/{evening.pk}/board/", run_for=BOARD_POLL_MS)
    page.wait_for_selector("#board .chip:text-is('Iris')")
    assert page.evaluate("window.scrollY") == 200
    # Nor does it take the refusal away: on a busy evening every hand recorded at any
    # table changes the board, and the refusal went within a poll, before it was read.
    assert "Still in play, with no answer given" in refusal.inner_text()
    assert refusal.count() == 1
    assert typed.input_value() == "the lamps went out"  # and what he typed is still there
    # The next form sent takes it away (its own answer says what came of it).
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.fill("input[name^=reason-]:below(:text('Table 2, rubber 1'))", "")
    press(page, page.get_by_test_id("close-evening"))
    assert refusal.count() == 1  # refused again: one refusal, the new one


def test_a_substitute_without_a_name_is_refused_in_view(browser_page, live_server, club, secretary):
    evening = two_tables_in_play(club)
    page = browser_page
    board_shown(page, live_server, evening)
    table = page.locator("#table-2")
    table.locator("summary", has_text="Players come and go").click()
    form = table.locator("form:has(input[name=type][value=substitute])")
    # A consent ticked (the absent player's own box is hidden: law 18), no name written.
    consent = form.locator("input[type=checkbox]:visible").first
    consent.check()
    form.get_by_role("button").scroll_into_view_if_needed()
    press(page, form.get_by_role("button"))

    refusal = page.get_by_test_id("refusal")
    assert "Write the name of the player who sits in for the absent one" in refusal.inner_text()
    in_view_and_focused(page, refusal)
    assert consent.is_checked()  # kept as ticked
    shot(page, "board-refusal-in-view-substitute-360")
