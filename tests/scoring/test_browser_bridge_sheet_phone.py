"""A Bridge table's phone at a phone's width (360 px): each "Game 1: the hands" table of
its score sheet was about 447 px wide in its 323 px box, so E-W's heading and both E-W
columns were off the screen, with nothing saying so (the Call-Ace sheet says it scrolls).
Both sides' columns now show on the screen, as the rubber's totals above them do: the
hand's play wraps in a narrower column (Bridge laws, Scoring: below and above the line for
each side). Screenshot in artifacts/screenshots/phone-bridge-sheet.png."""

import pytest

from club import recording
from tests.browser import PHONE, open_phone, shot
from tests.worlds import bridge_and_call_ace_in_play, club_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Each game's table of hands: its width, its box's, and where each column's heading ends.
MEASURED = """() => Array.from(document.querySelectorAll('section.sheet-game'), (s) => {
  const box = s.querySelector('.sheet-scroll');
  return {box: box.clientWidth, table: box.scrollWidth,
          heads: Array.from(s.querySelectorAll('thead th'), (th) => {
            const r = th.getBoundingClientRect();
            return {text: th.innerText.trim(), left: r.left, right: r.right};
          })};
})"""


def test_both_sides_columns_of_each_game_show_on_a_phone(
    browser_page, live_server, django_capture_on_commit_callbacks
):
    club = club_in_play(django_capture_on_commit_callbacks).club
    table = bridge_and_call_ace_in_play(club).bridge
    evening = table.evening
    # Hand 2: E-W (the dealer's side) declare hearts and make honours; hand 3 N-S no trumps.
    recording.hand_record(
        evening_id=evening.pk, table_number=1,
        data={"declarer": "EW", "trump": "H", "tricks": {"NS": 4, "EW": 9},
              "honours": {"side": "EW", "held": 4, "in_one_hand": 4}},
    )  # fmt: skip
    page = open_phone(browser_page, f"{live_server.url}/t/{table.token}/")
    page.get_by_test_id("dealer").wait_for()
    games = page.evaluate(MEASURED)
    assert games, "no game's hands on the sheet"
    for game in games:
        assert game["table"] <= game["box"], (
            f"a game's hands are {game['table']} px wide: {game['heads']}"
        )
        shown = [h for h in game["heads"] if h["left"] >= 0 and h["right"] <= PHONE["width"]]
        words = " ".join(h["text"] for h in shown)
        assert "N-S" in words and "E-W" in words, game["heads"]
        assert len(shown) == len(game["heads"]) == 8  # Hand, Play, 2 sides, below/above x2
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "phone-bridge-sheet")
