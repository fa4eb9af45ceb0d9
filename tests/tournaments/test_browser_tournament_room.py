"""A progressive's room display on the wall (a television of 1280 x 900, Debian's
chromium): a round of seven tables, or ten, with their scores and the standings, fits the
screen without scrolling, as nobody scrolls a wall. Seven tables ran below it."""

import pytest

from club import recording
from tests.browser import shot
from tests.room_wall import fits_the_wall, long_names, on_the_wall
from tournaments import rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("tables", [7, 10])
def test_the_room_fits_the_wall_without_scrolling(
    browser_page, live_server, make, secretary, commit, tables
):
    tournament = make("progressive", players=long_names(4 * tables))
    tournament.is_public = True
    tournament.save(update_fields=["is_public"])
    played = rounds.round_seat_next(tournament_id=tournament.pk, user=secretary)
    for table in played.tables.all():  # a hand at each table: its score shown
        commit(recording.hand_record, rubber_id=table.rubber_id,
               data={"makers": "NS", "tricks": 3})  # fmt: skip
    page = browser_page
    url = f"{live_server.url}/clubs/somerset/tournaments/{tournament.slug}/room/"
    on_the_wall(page, url, tables)
    shot(page, f"tournament-room-{tables}-tables")
    # Every table, and the standings, are on the screen and read at a distance.
    fits_the_wall(page, tables, boxes="#room .room-table, #room .room-side-col section")
