"""The public standings read on a phone (360 px) in Debian's chromium: with three metrics
or more the table is wider than the screen and scrolls inside its box, and the reader
lost the player's name as soon as he scrolled to the figures. The place and the name
stay in view (sticky) beside whichever figure is scrolled to; the page itself never
scrolls sideways; at 1280 px everything shows at once."""

import pytest

from club import recording
from tests.browser import PHONE, shot
from tests.tournaments.conftest import start
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EVERY_METRIC = ["stake_won", "net_rubber_points", "rubbers_won", "points", "games_won",
                "marches", "lone_hands", "euchres", "head_to_head"]  # fmt: skip


@pytest.fixture
def wide_ladder(club, roster, evening, commit):
    ladder = commit(
        services.tournament_create,
        club=club, name="Winter ladder", slug="winter", kind="ladder",
        evening_ids=[evening.pk], precedence=EVERY_METRIC,
    )  # fmt: skip
    rubber = start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"])
    commit(recording.hand_record, rubber_id=rubber.pk, data={"makers": "NS", "tricks": 3})
    return ladder


VISIBLE = """([box, name, cell]) => {
  const b = box.getBoundingClientRect(), n = name.getBoundingClientRect(),
        c = cell.getBoundingClientRect();
  // A pixel's leeway: a box scrolled to its end stops at a fraction of a pixel.
  const inside = r => r.left >= b.left - 1 && r.right <= b.right + 1;
  return {name: inside(n), cell: inside(c), apart: n.right <= c.left + 1};
}"""


@pytest.mark.parametrize("width", [360, 1280])
def test_the_name_stays_beside_every_figure_on_a_phone(browser_page, live_server, wide_ladder,
                                                       width):  # fmt: skip
    page = browser_page
    page.set_viewport_size({**PHONE, "width": width})
    page.goto(f"{live_server.url}/clubs/somerset/tournaments/winter/")
    page.wait_for_selector("#standings tbody tr")
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # the page: never
    box = page.locator("#standings .sheet-scroll")
    heads = page.locator("#standings thead th")
    assert heads.count() == 2 + len(EVERY_METRIC)
    row = page.locator("#standings tbody tr").first
    name = row.locator("td").nth(1)
    # The place is read whole beside the name, not under it ("=1", its head "Rank").
    for place, who in ((row.locator("td").first, name), (heads.first, heads.nth(1))):
        lines = (
            "e => { const r = document.createRange(); r.selectNodeContents(e); "
            "return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }"
        )
        assert place.evaluate(lines) == 1  # on one line, not "Ran" over "k"
        seen = page.evaluate(
            VISIBLE, [box.element_handle(), place.element_handle(), who.element_handle()]
        )
        assert seen == {"name": True, "cell": True, "apart": True}
    for i in range(2, heads.count()):
        cell = row.locator("td").nth(i)
        cell.evaluate("td => td.scrollIntoView({inline: 'end', block: 'nearest'})")
        seen = page.evaluate(
            VISIBLE, [box.element_handle(), name.element_handle(), cell.element_handle()]
        )
        assert seen == {"name": True, "cell": True, "apart": True}, (i, heads.nth(i).inner_text())
        # The head of the figure's column is read beside the name's head too.
        head = heads.nth(i)
        seen = page.evaluate(
            VISIBLE, [box.element_handle(), heads.nth(1).element_handle(), head.element_handle()]
        )
        assert seen == {"name": True, "cell": True, "apart": True}, head.inner_text()
    shot(page, f"standings-every-metric-{width}")
