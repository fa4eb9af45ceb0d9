"""A rubber's public page as a reader sees it (Playwright driving Debian's chromium)."""

import pytest

from tests.browser import shot
from tests.worlds import bridge_and_call_ace_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [360, 1280])
def test_a_bridge_games_total_stands_under_below_the_line(browser_page, live_server, club, width):
    """A Bridge game's hands are scored in two columns a side, below the line (tricks)
    and above it (honours, chicane, slams). The game's "Below the line so far" total
    spanned both, right-aligned, so N-S's 12 below stood under "above": it stands under
    its side's "below" heading, the "above" cell beside it empty."""
    rubber = bridge_and_call_ace_in_play(club).bridge.evening.rubbers.get()
    page = browser_page
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(f"{live_server.url}/clubs/somerset/rubbers/{rubber.pk}/")
    game = page.locator(".sheet-game").first
    heads = game.locator("thead tr").nth(1).locator("th")
    total = game.locator("tfoot tr.game-result td")
    assert [cell.inner_text() for cell in total.all()] == ["12", "", "0", ""]
    below = heads.nth(0).bounding_box()
    shown = total.nth(0).bounding_box()
    assert heads.nth(0).inner_text() == "below"
    assert abs(shown["x"] - below["x"]) < 1 and abs(shown["width"] - below["width"]) < 1
    shot(page, f"rubber-bridge-{width}")
