"""An evening's results page as the public reads it (Playwright driving Debian's
chromium)."""

import pytest

from tests.browser import shot
from tests.club.rooms import SWEEP, evening_with_a_table, record, table_one

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
