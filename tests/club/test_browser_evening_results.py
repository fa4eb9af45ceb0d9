"""An evening's results page as the public reads it (Playwright driving Debian's
chromium)."""

import pytest

from tests.browser import shot
from tests.club.rooms import SWEEP, draw_cuts, evening_with_a_table, record, table_one

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [360, 1280])
def test_the_ledger_signs_what_was_won_and_lost(browser_page, live_server, club, width):
    """The ledger's column is "Won (+) / lost (U+2212 minus)", and a winner's amount had no plus
    (and a loser's a hyphen), unlike the room display beside it: a winner reads "+2.00
    USD", a loser "\u22122.00 USD" (a rubber worth 8 at 0.25 a point, ruling M1)."""
    evening = evening_with_a_table(club)
    seats = table_one(evening)["seats"]
    for tricks in SWEEP:
        record(evening, "NS", tricks)
    page = browser_page
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(f"{live_server.url}/clubs/somerset/evenings/{evening.pk}/")
    ledger = page.locator("h2:text('Ledger') + .sheet-scroll tbody tr")
    amounts = {
        row.locator("td").first.inner_text(): row.locator("td").last.inner_text()
        for row in ledger.all()
    }
    assert amounts[seats["N"]] == amounts[seats["S"]] == "+2.00 USD"
    assert amounts[seats["E"]] == amounts[seats["W"]] == "\u22122.00 USD"
    shot(page, f"evening-results-ledger-{width}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_printed_evening_and_rubber_say_which_club(browser_page, live_server, club):
    """Printed, an evening's results and a rubber's score sheet named no club (the link
    to the club is left off paper) and the evening's page still offered the room display
    "that updates by itself": words for a screen. On paper each names the club, and the
    evening's page leaves the room display out."""
    evening = evening_with_a_table(club)
    record(evening, "NS", 5)
    rubber = evening.rubbers.get()
    page = browser_page
    page.emulate_media(media="print")
    for path in (
        f"/clubs/somerset/evenings/{evening.pk}/",
        f"/clubs/somerset/rubbers/{rubber.pk}/",
    ):
        page.goto(f"{live_server.url}{path}")
        assert page.get_by_test_id("printed-club").inner_text() == "Somerset Club", path
        assert not page.get_by_text("The room display").is_visible(), path
    shot(page, "rubber-printed")


#: Each cell of the rubbers' list: its words, whether shown, and where it ends.
CELLS = """() => Array.from(document.querySelectorAll('[data-testid=rubbers] tbody tr'), (tr) =>
  Array.from(tr.cells, (td) => {
    const box = td.getBoundingClientRect();
    return {text: td.innerText.trim(), label: td.dataset.label || '',
            shown: td.checkVisibility(), left: box.left, right: box.right};
  }))"""


def test_every_rubbers_winner_and_value_show_on_a_phone_each_rubber_numbered(
    browser_page, live_server, club
):
    """At 360 px the list of rubbers was a table wider than the screen: its Winner and Value
    columns were cut off mid-word, nothing saying they were a sideways scroll away, and
    every rubber of table 1 read "1" (its table). Each row now stacks its cells, each named,
    as the board's do, every one on the screen; a rubber is "Table 1, rubber 2", as the
    board and its sheet number it (rubber 2 at table 1; a rubber worth 8, rulings E1, E3)."""
    evening = evening_with_a_table(club)
    for tricks in SWEEP:
        record(evening, "NS", tricks)
    draw_cuts(evening)  # the table cuts again for the next rubber (laws 12, 13)
    record(evening, "EW", 5)
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(f"{live_server.url}/clubs/somerset/evenings/{evening.pk}/")
    rows = page.evaluate(CELLS)
    assert [row[0]["text"] for row in rows] == [
        "Table 1, rubber 1",
        "Table 1, rubber 2",
    ]
    finished = {cell["label"]: cell for cell in rows[0]}
    assert "&" in finished["Winner"]["text"]
    assert finished["Value"]["text"] == "8"
    for row in rows:
        for cell in row:
            if cell["shown"]:
                assert cell["left"] >= 0 and cell["right"] <= 360, cell
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "evening-results-rubbers-360")
