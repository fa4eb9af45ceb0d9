"""A Call-Ace table's phone at a phone's width (360 px), seven players at the table: its
score sheet, a column per player, is wider than the screen, and only the first player's
column showed, nothing saying the rest were a sideways scroll away. Every player's name and
total now shows on the screen without scrolling, above the sheet, and the sheet says it
scrolls sideways. Screenshot in artifacts/screenshots/phone-call-ace-totals.png."""

import pytest

from club import recording
from tests.browser import PHONE, open_phone, shot
from tests.worlds import _open, call_ace_first_deal, club_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEVEN = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Gwendolyn Fairweather-Smith"]

#: Each element showing text on the page (its own text nodes), with its box.
SHOWN = """() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el.checkVisibility({visibilityProperty: true})) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    found.push({text: node.textContent.trim(), left: box.left, right: box.right,
                row: el.closest('li, tr')?.innerText || ''});
  }
  return found;
}"""


def test_every_players_total_shows_on_a_phone_without_scrolling(
    browser_page, live_server, django_capture_on_commit_callbacks
):
    club = club_in_play(django_capture_on_commit_callbacks).club
    evening = _open(club, "call-ace-foster-1905")
    order = call_ace_first_deal(evening, SEVEN)
    recording.hand_record(
        evening_id=evening.pk, table_number=1, data={"maker": order[1], "tricks": 4}
    )
    table = evening.tables.get(number=1)
    page = open_phone(browser_page, f"{live_server.url}/t/{table.token}/")
    page.get_by_test_id("dealer").wait_for()
    totals = page.locator("tfoot tr.total td").all_text_contents()
    names = page.locator("table.call-ace thead th.name").all_text_contents()
    assert sorted(names) == sorted(SEVEN) and len(totals) == 7
    shown = [
        box for box in page.evaluate(SHOWN) if box["left"] >= 0 and box["right"] <= PHONE["width"]
    ]
    for name, total in zip(names, totals, strict=True):
        # His name shown whole on the screen, his total beside it (in its row or item).
        beside = [box for box in shown if box["text"] == name and total in box["row"]]
        assert beside, f"{name}'s total {total} is not on the screen"
        assert any(box["text"] == total for box in shown if name in box["row"]), name
    assert page.get_by_text("scroll the sheet sideways").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "phone-call-ace-totals")
