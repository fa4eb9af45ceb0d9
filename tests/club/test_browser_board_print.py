"""The board printed (Ctrl-P): the state of the room on A4, the tables, their seats, who
waits and the rubbers with their scores, without its forms, buttons, links or the alert
about phones, and a line saying where the evening's sheet for the club's book is printed.
It printed the "Phones cannot open these table links" alert, the links, every form, and
the Rubbers table spilling past its panel. Screenshot in
artifacts/screenshots/board-print-a4.png."""

import pytest

from club import evenings, recording
from tests.browser import settled, shot
from tests.club.test_browser_board_live import open_board, open_evening, seat_four

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: A4 portrait less the board's 12 mm margins, in CSS pixels (96 to the inch): 186 mm.
A4_WIDTH = 703

#: Whatever in the printed board is wider than the page, or is a control to press.
OUTSIDE_OR_CONTROL = """() => {
  const visible = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden'; };
  const page = document.documentElement.clientWidth + 0.5;
  const wide = [...document.querySelectorAll('body *')].filter(
    (el) => visible(el) && el.getBoundingClientRect().right > page
  ).map((el) => el.tagName + (el.id ? '#' + el.id : '') + '.' + el.className);
  const pressed = 'form, input, select, button, textarea, summary, .alert';
  const controls = [...document.querySelectorAll(pressed)].filter(visible)
    .map((el) => el.tagName + '.' + el.className);
  return {wide, controls, scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth};
}"""


def test_the_board_printed_on_a4_is_the_room_without_its_forms(
    browser_page, live_server, club, secretary
):
    evening = open_evening(club)
    seat_four(evening)
    for name in ("Edith", "Frank Featherstonehaugh-Cholmondeley", "W" * 80):  # they wait
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    for tricks in (5, 3):  # a march (law 3) and a point: N-S 3
        recording.hand_record(
            evening_id=evening.pk, table_number=1, data={"makers": "NS", "tricks": tricks}
        )
    page = browser_page
    page.set_viewport_size({"width": A4_WIDTH, "height": 1000})
    open_board(page, live_server, evening)
    settled(page)
    assert page.get_by_test_id("phone-reach").is_visible()  # on screen, the alert
    page.emulate_media(media="print")
    found = page.evaluate(OUTSIDE_OR_CONTROL)
    assert found["wide"] == [] and found["scroll"] <= found["client"], found
    assert found["controls"] == [], found
    said = " ".join(page.locator("main").inner_text().split())
    # The room as it stands: the table's seats, who waits, the rubber with its score.
    assert "Table 1" in said and "Partners: " in said
    assert "Edith" in said and "Frank Featherstonehaugh-Cholmondeley" in said
    assert "Rubber 1, 2 hands: games won N-S 0, E-W 0; this game N-S 3, E-W 0" in said, said
    assert "Ann & Bob v Cora & Dan in play" in said
    assert page.get_by_test_id("rubbers").is_visible()
    # Nothing to press or follow on paper.
    for gone in (
        "Phones cannot open",
        "Printable sheet",
        "phone link",
        "score sheet",
        "A fresh link",
        "Players come and go",
        "The evening's history",
    ):
        assert gone not in said, gone
    # Where the evening's sheet is printed, written out for paper.
    line = " ".join(page.get_by_test_id("board-print-note").inner_text().split())
    assert "For the club's book print the evening's sheet:" in line
    assert f"{live_server.url}/secretary/evenings/{evening.pk}/sheet/" in line
    shot(page, "board-print-a4")
    # On screen again, the note is not shown and the board is as it was.
    page.emulate_media(media="screen")
    assert not page.get_by_test_id("board-print-note").is_visible()
    assert page.get_by_test_id("phone-reach").is_visible()
