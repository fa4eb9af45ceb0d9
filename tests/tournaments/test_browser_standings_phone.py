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


@pytest.fixture
def tied_ladder(ladder, club, evening, commit):
    """The default ladder (net rubber points, rubbers won, points, head-to-head), one hand
    played: Ann and Cora make three tricks (one point, law 1), so each is level with his
    partner on every figure, as Bob and Dan are."""
    rubber = start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"])
    commit(recording.hand_record, rubber_id=rubber.pk, data={"makers": "NS", "tricks": 3})
    return ladder


def test_the_standings_say_what_head_to_head_counts_and_how_ties_go_on_a_phone(
    browser_page, live_server, tied_ladder
):
    """Every row read "Head-to-head 0", and the only word on it was "Ties are shown as =3"
    and a tooltip (the heading's title) that a phone cannot show; the last column's heading
    was cut to "Hea" at the box's edge. A key under the table, on the screen at 360 px,
    says what ranks the players in order, what head-to-head counts (among players level on
    everything before it: rubbers won less those lost against each other, ruling P1 at
    fixed deals) and that players level on every figure share a place, "=3"."""
    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/clubs/somerset/tournaments/winter/")
    page.wait_for_selector("#standings tbody tr")
    assert "=1" in page.locator("#standings tbody").inner_text()
    key = page.get_by_test_id("standings-key")
    words = " ".join(key.inner_text().split())
    assert "Net rubber points, then Rubbers won, then Points won, then Head-to-head" in words
    assert "the rubbers each won less those he lost against the others level with him" in words
    assert "level on every figure share a place" in words and "=3" in words
    box = key.bounding_box()
    assert key.is_visible() and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    # Every column's heading whole on the screen, or the table says it scrolls sideways.
    heads = page.evaluate(
        """() => Array.from(document.querySelectorAll('#standings thead th'), (th) => {
          const r = th.getBoundingClientRect();
          return {text: th.innerText, right: r.right, wide: th.scrollWidth > th.clientWidth};
        })"""
    )
    cut = [h["text"] for h in heads if h["right"] > PHONE["width"] or h["wide"]]
    cue = page.get_by_text("scroll the table sideways")
    assert not cut or cue.is_visible(), cut
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "standings-key-360")
