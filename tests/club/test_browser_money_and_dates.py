"""Money and dates written the same on every public page (Playwright driving Debian's
chromium): an amount won with its plus and one lost with a true minus (U+2212), by the
one `money` filter, as the evening's ledger and the room display write them (ruling M1);
a date in words, "21 November 1888", as the room display and a rubber's sheet say it."""

import re

import pytest

from club.models import Member
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


@pytest.mark.parametrize("width", [360, 1280])
def test_a_players_page_writes_money_signed_and_dates_in_words(
    browser_page, live_server, swept, width
):
    """A player's page wrote "Stake won -2.00 USD" and his scorecard's money "-2.00" and
    "2.00" (no plus), and its dates "1888-11-21", the evening named "Somerset Club
    1888-11-21": the evening's own pages say "+2.00", "\u22122.00" and "21 November 1888"."""
    evening, seats = swept
    page = browser_page
    page.set_viewport_size({"width": width, "height": 800})
    for seat, sign in (("N", "+"), ("E", MINUS)):
        member = Member.objects.get(club=evening.club, name=seats[seat])
        page.goto(f"{live_server.url}/clubs/somerset/players/{member.pk}/")
        stake = page.locator(".figures div", has_text="Stake won").locator("dd")
        assert stake.inner_text() == f"{sign}2.00 USD"
        row = page.locator(".scorecard-table tbody tr").first
        cells = row.locator("td")
        assert cells.first.inner_text() == "21 November 1888"
        assert cells.nth(1).inner_text() == "Somerset Club 21 November 1888"
        assert cells.last.inner_text() == f"{sign}2.00"
        total = page.locator(".scorecard-table tfoot td").last
        assert total.inner_text() == f"{sign}2.00"
        listed = page.locator(".every-rubber tbody tr td").first.inner_text()
        assert re.fullmatch(r"\d{1,2} [A-Z][a-z]+ \d{4}", listed), listed
        assert "-2.00" not in page.locator("main").inner_text()
        shot(page, f"player-money-dates-{seat}-{width}")
        assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("width", [360, 1280])
def test_an_evening_s_results_and_the_club_s_page_say_its_date_in_words(
    browser_page, live_server, swept, width
):
    """The evening's results page said "1888-11-21" under its heading (and its heading
    "Somerset Club 1888-11-21"), and the club's list of evenings the same, where the room
    display says "Wednesday 21 November 1888"."""
    evening, _ = swept
    page = browser_page
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(f"{live_server.url}/clubs/somerset/evenings/{evening.pk}/")
    assert page.locator("h1").inner_text() == "Somerset Club 21 November 1888"
    assert page.locator("h1 + p.muted").inner_text().startswith("21 November 1888 · ")
    shot(page, f"evening-results-date-{width}")
    page.goto(f"{live_server.url}/clubs/somerset/")
    listed = page.get_by_role("link", name="Somerset Club 21 November 1888", exact=True)
    assert listed.locator("xpath=ancestor::tr/td[1]").inner_text() == "21 November 1888"
    assert "1888-11-21" not in page.locator("main").inner_text()
    shot(page, f"club-home-date-{width}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width


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
