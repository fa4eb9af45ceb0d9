"""The evening's room on the wall (a television of 1280 x 900, Debian's chromium): an
evening of seven tables, or ten, fits the screen without scrolling at sizes read across
the room, and a table formed while it is shown (a live update) is fitted in too, as the
progressive's room is (static/js/room-fit.js serves both)."""

import pytest

from club import evenings
from tests.browser import shot
from tests.club.rooms import draw_cuts, evening_with_a_table, record
from tests.room_wall import evening_room, fits_the_wall, long_names, on_the_wall

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def assert_fits(page, tables: int) -> None:
    fits_the_wall(page, tables)
    # Nothing runs past its table's box (a score's lines, its games won).
    spill = page.evaluate(
        "[...document.querySelectorAll('#room .room-table')].filter(t => [...t.querySelectorAll("
        "'table, td, th')].some(e => e.getBoundingClientRect().right > "
        "t.getBoundingClientRect().right + 0.5)).map(t => t.dataset.table)"
    )
    assert spill == [], spill
    assert page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") >= 10


def add_table(evening, players: list[str]) -> None:
    """Four arrive and cut for a table of their own (law 12), each cut drawn."""
    for name in players:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    draw_cuts(evening)


def evening_of(club, tables: int):
    evening = evening_with_a_table(club, players=long_names(4))
    for number in range(1, tables):
        add_table(evening, long_names(4 * number + 4, 4 * number))
    evening.refresh_from_db()
    assert evening.tables.count() == tables
    for number in range(1, evening.tables.count() + 1):  # a hand at each table: a score
        record(evening, "NS", 3, table=number)
    return evening


@pytest.mark.parametrize("tables", [7, 10])
def test_the_evening_room_fits_the_wall(browser_page, live_server, club, tables):
    evening = evening_of(club, tables)
    page = browser_page
    on_the_wall(page, evening_room(live_server, evening), tables)
    shot(page, f"evening-room-{tables}-tables")
    assert_fits(page, tables)


def test_a_table_formed_while_shown_is_fitted_in(browser_page, live_server, club):
    """Nine tables on the wall; four more arrive and the tenth table is formed: the
    update swaps the room in (not reloaded) and it is fitted to the screen again."""
    evening = evening_of(club, 9)
    page = browser_page
    on_the_wall(page, evening_room(live_server, evening), 9, clock=True)
    assert_fits(page, 9)
    before = page.evaluate(
        "getComputedStyle(document.documentElement).getPropertyValue('--room-fit')"
    )
    page.evaluate("window.notReloaded = true")
    add_table(evening, long_names(40, 36))
    page.clock.run_for(3000)
    page.wait_for_selector("#room .room-table[data-table='10']", timeout=15_000)
    page.wait_for_function(
        "document.documentElement.scrollHeight <= window.innerHeight", timeout=5_000
    )
    assert page.evaluate("window.notReloaded === true")
    after = page.evaluate(
        "getComputedStyle(document.documentElement).getPropertyValue('--room-fit')"
    )
    shot(page, "evening-room-10-tables-live")
    assert_fits(page, 10)
    assert float(after) <= float(before)
