"""A progressive's room display on the wall (a television of 1280 x 900, Debian's
chromium): a round of seven tables, or ten, with their scores and the standings, fits the
screen without scrolling, as nobody scrolls a wall. Seven tables ran below it."""

import pytest

from club import recording
from tests.browser import shot
from tournaments import rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WALL = {"width": 1280, "height": 900}


def names(count: int) -> list[str]:
    first = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Hugh", "Ida", "Jack"]
    return [f"{first[i % 10]} {'Abcdefghij'[i // 10]}. Longfellow" for i in range(count)]


@pytest.mark.parametrize("tables", [7, 10])
def test_the_room_fits_the_wall_without_scrolling(
    browser_page, live_server, make, secretary, commit, tables
):
    tournament = make("progressive", players=names(4 * tables))
    tournament.is_public = True
    tournament.save(update_fields=["is_public"])
    played = rounds.round_seat_next(tournament_id=tournament.pk, user=secretary)
    for table in played.tables.all():  # a hand at each table: its score shown
        commit(recording.hand_record, rubber_id=table.rubber_id,
               data={"makers": "NS", "tricks": 3})  # fmt: skip
    page = browser_page
    page.set_viewport_size(WALL)
    page.goto(f"{live_server.url}/clubs/somerset/tournaments/{tournament.slug}/room/")
    page.wait_for_selector(f"#room .room-table[data-table='{tables}']")
    assert page.locator("#room .room-table").count() == tables
    size = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    shot(page, f"tournament-room-{tables}-tables")
    assert size[0] <= WALL["width"] and size[1] <= WALL["height"], size
    # Every table, and the standings, are on the screen and read at a distance.
    for box in page.locator("#room .room-table, #room .room-side-col section").all():
        edge = box.bounding_box()
        assert edge["y"] + edge["height"] <= WALL["height"]
    smallest = page.evaluate(
        "Math.min(...[...document.querySelectorAll('#room .room-table h3, #room .room-points')]"
        ".map(e => parseFloat(getComputedStyle(e).fontSize)))"
    )
    assert smallest >= 18  # the tables' numbers and points: large type still
