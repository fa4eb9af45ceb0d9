"""The secretary's board on a phone (360 px, Debian's chromium): the controls he taps are
a finger's tap tall, as the table's phone's are (WCAG 2.5.5; tests/club/
test_browser_phone_tap_targets.py), and each tick box or radio button stays on the line of
its words. "Players come and go" > Substitute's "with the consent of" boxes (law 18) were
13 px and wrapped apart from their names ("☐ Cora ☐ / Dan"), the closing form's radios
were 13 px in mid-line, and the fold-outs ("Players come and go", "What the laws made of
it") 20 to 23 px tall. Screenshot in artifacts/screenshots/board-tap-targets.png."""

import pytest

from tests.browser import PHONE, log_in, shot
from tests.worlds import club_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Each label of a tick box or radio, and each fold-out's heading, shown (every <details>
#: opened): whether it is 44 px tall, and whether its box sits on the line of its words.
MEASURED = """() => {
  for (const d of document.querySelectorAll('#board details')) d.open = true;
  const found = [];
  const tappable = '#board label:has(input[type=checkbox], input[type=radio]), #board summary';
  for (const el of document.querySelectorAll(tappable)) {
    if (!el.checkVisibility({visibilityProperty: true})) continue;
    const box = el.getBoundingClientRect();
    const words = el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40);
    const input = el.querySelector('input');
    let beside = true;
    if (input) {
      const text = [...el.childNodes].find((n) => n.nodeType === 3 && n.data.trim());
      const range = document.createRange();
      range.selectNodeContents(text);
      const line = range.getClientRects()[0], b = input.getBoundingClientRect();
      beside = b.right <= line.left + 1 && b.top < line.bottom && b.bottom > line.top;
    }
    found.push({words, tag: el.tagName.toLowerCase(), height: box.height, beside});
  }
  return found;
}"""


def test_the_boards_boxes_and_fold_outs_are_a_fingers_tap_and_keep_their_words(
    browser_page, live_server, django_capture_on_commit_callbacks
):
    played = club_in_play(django_capture_on_commit_callbacks)
    page = browser_page
    page.set_viewport_size(PHONE)
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/evenings/{played.evening.pk}/")
    controls = page.evaluate(MEASURED)
    shot(page, "board-tap-targets")
    said = [c["words"] for c in controls]
    # The consent of the three other players (law 18: the absent one's box is not shown),
    # the closing form's choice for the rubber in play (abandoned), the fold-outs.
    assert sum(1 for c in controls if c["tag"] == "label") >= 4, said
    assert "Players come and go" in said
    assert any(w.startswith("What the laws made of it") for w in said), said
    too_short = [f"{c['words']}: {c['height']:.0f} px" for c in controls if c["height"] < 44]
    assert too_short == []
    apart = [c["words"] for c in controls if not c["beside"]]
    assert apart == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
