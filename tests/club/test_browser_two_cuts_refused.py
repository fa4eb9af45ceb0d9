"""Two tables waiting to cut at once, on the secretary's board in Debian's chromium at a
phone's width (360 px): a refused "Draw for them" (Bridge, two tables to cut for partners
and deal, ruling T4) or "Throw for them" (Call-Ace, two tables to throw for the first
jack, law 1) names the table whose cut it refused, as the cut's heading names
it ("... (table 2)"). It said only that the board was out of date, and the secretary could
not tell which of the two forms it answered. Screenshots in
artifacts/screenshots/two-cuts-refused-*.png."""

import datetime
import re
from decimal import Decimal

import pytest

from club import evenings
from club.models import Evening
from tests.browser import PHONE, settled, shot
from tests.club.test_browser_board_live import open_board
from tests.worlds import table_formed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SECOND = ("Edith", "Fred", "Gus", "Hal")


def two_tables_waiting(club, ruleset: str) -> Evening:
    """Two tables formed, each waiting for its cut: Bridge's for partners and deal (ruling
    T4), Call-Ace's throw for the first jack (law 1)."""
    evening = evenings.evening_open(
        club=club, date=datetime.date(1907, 3, 1), ruleset=ruleset, stake=Decimal("0.10")
    )
    return table_formed(table_formed(evening), SECOND)


def waiting(evening: Evening) -> list:
    return evenings.evening_state(Evening.objects.get(pk=evening.pk)).pending


def refused_at_table_2(page, live_server, evening, button: str) -> str:
    """The board loaded, another device acts meanwhile (its polls held back, so only the
    refusal brings it up to date), then table 2's `button` is pressed."""
    page.set_viewport_size(PHONE)
    open_board(page, live_server, evening)
    settled(page)
    page.route(f"**/evenings/{evening.pk}/board/", lambda route: route.fulfill(status=304))
    evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": "Zed"})
    second = page.locator("form.cut-form").nth(1)
    assert "table 2" in second.locator("xpath=..").inner_text()  # its heading names it
    with page.expect_response(re.compile(r"/action/$")):
        second.get_by_role("button", name=button).click()
    settled(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    return " ".join(page.get_by_test_id("refusal").inner_text().split())


def test_a_refused_draw_for_them_names_its_table(browser_page, live_server, club, secretary):
    """Ruling T10: the cut is drawn by the service only from a board that is current."""
    evening = two_tables_waiting(club, "bridge-elwell-1907")
    said = refused_at_table_2(browser_page, live_server, evening, "Draw for them")
    assert said.startswith("Not done. At table 2: the board was out of date"), said
    assert [cut.table for cut in waiting(evening)] == [1, 2]  # nothing drawn
    shot(browser_page, "two-cuts-refused-draw")


def test_a_refused_throw_for_them_names_its_table(browser_page, live_server, club, secretary):
    """Call-Ace law 1: a card is thrown round each table until a jack falls."""
    evening = two_tables_waiting(club, "call-ace-foster-1905")
    said = refused_at_table_2(browser_page, live_server, evening, "Throw for them")
    assert said.startswith("Not done. At table 2: the board was out of date"), said
    assert [cut.table for cut in waiting(evening)] == [1, 2]  # neither has thrown
    shot(browser_page, "two-cuts-refused-throw")
