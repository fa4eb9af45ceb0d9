"""Money written the same on every page (Playwright driving Debian's chromium): an
amount won with its plus and one lost with a true minus (U+2212), by the one `money`
filter, as the evening's ledger and the room display write them (ruling M1)."""

import pytest

from tests.browser import log_in, shot
from tests.club.rooms import SWEEP, evening_with_a_table, record, table_one

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MINUS = "\u2212"


@pytest.fixture
def swept(club):
    """An evening of 21 November 1888 at 0.25 a point whose North-South sweep a rubber
    worth 8: each winner +2.00, each loser -2.00 (ruling M1)."""
    evening = evening_with_a_table(club)
    seats = table_one(evening)["seats"]
    for tricks in SWEEP:
        record(evening, "NS", tricks)
    return evening, seats


@pytest.mark.parametrize("width", [360, 1280])
def test_a_rubber_sheet_s_ledger_writes_a_loss_with_a_true_minus(
    browser_page, live_server, swept, width
):
    """The rubber's ledger wrote a loss with a hyphen ("-2.00 USD") where the evening's
    ledger and the room display write "\u22122.00 USD"."""
    evening, seats = swept
    rubber = evening.rubbers.order_by("pk").first()
    page = browser_page
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(f"{live_server.url}/clubs/somerset/rubbers/{rubber.pk}/")
    rows = page.locator(f"#rubber-{rubber.pk}-ledger tbody tr")
    amounts = {row.locator("th").inner_text(): row.locator("td").inner_text() for row in rows.all()}
    assert amounts[seats["N"]] == amounts[seats["S"]] == "+2.00 USD"
    assert amounts[seats["E"]] == amounts[seats["W"]] == f"{MINUS}2.00 USD"
    shot(page, f"rubber-ledger-money-{width}")


def test_the_board_and_the_evening_sheet_write_the_ledger_as_the_results_do(
    browser_page, live_server, swept, secretary
):
    """The secretary's board and his printable evening sheet wrote the ledger "2.00 USD"
    and "-2.00 USD", where the public results beside them say "+2.00 USD" and
    "\u22122.00 USD"."""
    evening, seats = swept
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 800})
    log_in(page, live_server)
    for path in (f"/secretary/evenings/{evening.pk}/", f"/secretary/evenings/{evening.pk}/sheet/"):
        page.goto(f"{live_server.url}{path}")
        rows = page.locator("h2:text('Ledger') + table tbody tr, h2:text('Ledger') + * tbody tr")
        amounts = {
            row.locator("td").first.inner_text(): row.locator("td").last.inner_text()
            for row in rows.all()
        }
        assert amounts[seats["N"]] == "+2.00 USD", (path, amounts)
        assert amounts[seats["E"]] == f"{MINUS}2.00 USD", (path, amounts)
