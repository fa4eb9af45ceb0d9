"""Every control a player taps on a table's phone is a finger's tap tall, in Debian's
chromium at a phone's width (360 px): the labels of its checkboxes and radios ("Played
alone", Call-Ace's "wrong cards" and "no score", Bridge's declarer), the headings that
fold out (<summary>: "Revokes, void deals, no score", "Correct deal N", "Take back deal
N", "Why"), its buttons and the links in its forms are at least 44 px tall (WCAG 2.5.5,
the site's rule for buttons: tests/test_browser_long_names.py). They were 20 to 38 px.
Every fold-out is opened first, so what it holds is measured too. Screenshots in
artifacts/screenshots/phone-tap-targets-*.png."""

import pytest

from tests.browser import PHONE, open_phone, shot
from tests.worlds import bridge_and_call_ace_in_play, club_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Each tappable control shown (every <details> opened) less than 44 px tall, in words.
TOO_SHORT = """() => {
  for (const d of document.querySelectorAll('details')) d.open = true;
  const tappable = 'label, summary, button, input[type=submit], input[type=button], form a';
  const found = [];
  for (const el of document.querySelectorAll(tappable)) {
    if (!el.checkVisibility({visibilityProperty: true})) continue;
    const box = el.getBoundingClientRect();
    if (box.height >= 44) continue;
    const words = (el.textContent || el.value || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    found.push(`${el.tagName.toLowerCase()} "${words}" is ${Math.round(box.height)} px tall`);
  }
  return found;
}"""


@pytest.fixture
def tables(django_capture_on_commit_callbacks):
    played = club_in_play(django_capture_on_commit_callbacks)
    more = bridge_and_call_ace_in_play(played.club)
    return {"euchre": played.table, "bridge": more.bridge, "call-ace": more.call_ace}


@pytest.mark.parametrize("game", ["euchre", "bridge", "call-ace"])
def test_every_control_on_the_phone_is_a_fingers_tap_tall(browser_page, live_server, tables, game):
    page = open_phone(browser_page, f"{live_server.url}/t/{tables[game].token}/")
    page.get_by_test_id("dealer").wait_for()
    too_short = page.evaluate(TOO_SHORT)
    shot(page, f"phone-tap-targets-{game}")
    assert too_short == [], too_short
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
