"""The director's page keeps itself up to date while the tables play, in Debian's chromium
at a laptop's and a phone's width: a deal recorded at a table's phone shows in the round's
table ("Deals", "Won by") within a poll, without a reload, what the director is typing stays,
and the notice of his last button stays through the polls. It showed "0" until he reloaded,
so he could not see which tables had finished before seating the next round (ruling P1: a
round of fixed deals is won on its points). Screenshots in
artifacts/screenshots/director-live-*.png."""

import re

import pytest

from club import recording
from tests.browser import log_in, settled, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def row_of(page, table: int) -> str:
    rows = page.locator("#director table.grid tbody tr").filter(
        has=page.locator("td:first-child", has_text=re.compile(rf"^{table}$"))
    )
    return " ".join(rows.first.inner_text().split())


@pytest.mark.parametrize("width", [1280, 360])
def test_a_deal_at_a_table_shows_on_the_open_page_keeping_what_is_typed(
    browser_page, live_server, four_deals, width
):
    page = browser_page
    page.set_viewport_size({"width": width, "height": 800})
    log_in(page, live_server, "director")
    page.goto(f"{live_server.url}/secretary/tournaments/{four_deals.pk}/")
    assert row_of(page, 1).endswith("0 —"), row_of(page, 1)
    page.fill("#enter-name", "Zebedee")  # typed, not sent
    page.locator("#enter-name").blur()

    rubber = four_deals.rounds.get(number=1).tables.get(number=1).rubber
    for makers in ["NS", "NS", "NS", "EW"]:  # N-S 1 + 1 + 1, E-W 1: N-S win the round
        recording.hand_record(rubber_id=rubber.pk, data={"makers": makers, "tricks": 3})
    page.wait_for_function(
        "document.querySelector('#director table.grid tbody tr td:nth-child(4)')"
        ".innerText.trim() === '4'",
        timeout=10_000,
    )
    settled(page)
    assert "(N-S)" in row_of(page, 1), row_of(page, 1)
    assert page.input_value("#enter-name") == "Zebedee"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"director-live-{width}")


def test_leaves_asks_first_and_says_how_to_bring_the_player_back(
    browser_page, live_server, four_deals
):
    # "Leaves" took effect at once, with no question and no word of the way back.
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 800})
    log_in(page, live_server, "director")
    page.goto(f"{live_server.url}/secretary/tournaments/{four_deals.pk}/")
    asked = []

    def answer(dialog, accept):
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, False))
    page.get_by_test_id("leave-Ann").click()
    settled(page)
    assert asked == [
        "Ann leaves the tournament: seated in no round from round 2 on. (Enter Ann again as "
        "arriving to play on from the next round seated.)"
    ]
    assert four_deals.players.get(member__name="Ann").left_round is None
    page.once("dialog", lambda dialog: answer(dialog, True))
    page.get_by_test_id("leave-Ann").click()
    page.get_by_test_id("notice").filter(has_text="Ann leaves").wait_for()
    said = " ".join(page.get_by_test_id("notice").inner_text().split())
    assert said == (
        "Ann leaves: seated in no round from round 2 on. Enter Ann again as arriving to play "
        "on from the next round seated."
    )
