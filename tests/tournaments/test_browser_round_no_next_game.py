"""A progressive's round of fixed deals decided shows no next game, on a phone (360 px,
Debian's chromium) and on paper: its rubber opens game 2 once a deal ends game 1, but
the round is over and no deal follows (ruling P1). Screenshots in
artifacts/screenshots/round-no-next-game-*.png."""

import pytest

from club import recording
from tests.browser import PHONE, log_in, settled, shot, words
from tests.tournaments.test_table_phone import link

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = "document.documentElement.scrollWidth"


def test_a_round_decided_by_the_deal_that_ends_a_game_shows_no_empty_game_after_it(
    browser_page, live_server, four_deals, director
):
    """Ruling P1: four deals, the fourth taking N-S to five (march, march, E-W's three
    tricks, three tricks: 5 to 1, game 1 won, ruling E3). The phone, the director's table
    sheet and the printed round sheets showed "Game 2 · No hand played yet · Score so far
    0 0" under "Round to ... 5 points to 1"; a decided round shows no next game."""
    table = four_deals.rounds.get().tables.get(number=1)
    for makers, tricks in (("NS", 5), ("NS", 5), ("EW", 3), ("NS", 3)):
        recording.hand_record(
            rubber_id=table.rubber_id, data={"makers": makers, "tricks": tricks, "alone": False}
        )
    sheet_id = f"rubber-{table.rubber_id}"

    def decided_without_a_next_game(scope) -> None:
        assert scope.locator(f"#{sheet_id}-game-1").count() == 1
        assert scope.locator(f"#{sheet_id}-game-2").count() == 0
        sheet = words(scope.locator(f"#{sheet_id}-game-1 >> xpath=.."))
        assert "Game 1 to N-S" in sheet and "(ruling E3)" in sheet
        assert "No hand played yet" not in sheet and "Score so far" not in sheet
        verdict = words(scope.get_by_test_id("round-verdict").first)
        assert verdict.startswith("Round to ") and "5 points to 1" in verdict

    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/p/{link(four_deals).token}/")
    settled(page)
    decided_without_a_next_game(page)
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "round-no-next-game-1-phone")

    log_in(page, live_server, "director")
    page.goto(f"{live_server.url}/secretary/tournaments/{four_deals.pk}/rounds/1/tables/1/")
    settled(page)
    decided_without_a_next_game(page)
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "round-no-next-game-2-table-sheet")

    page.goto(f"{live_server.url}/secretary/tournaments/{four_deals.pk}/rounds/1/sheets/")
    settled(page)
    decided_without_a_next_game(page.get_by_test_id("round-sheet").first)
    page.emulate_media(media="print")
    shot(page, "round-no-next-game-3-printed")


def test_a_game_unfinished_when_the_round_ended_reads_so(browser_page, live_server, round_one):
    """Ruling P1: one deal a round, N-S's three tricks win it with game 1 at 1 to 0. The
    sheet said "Score so far", as if play went on; the round is over."""
    table = round_one.rounds.get().tables.get(number=1)
    recording.hand_record(
        rubber_id=table.rubber_id, data={"makers": "NS", "tricks": 3, "alone": False}
    )
    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/p/{link(round_one).token}/")
    settled(page)
    game = words(page.locator(f"#rubber-{table.rubber_id}-game-1"))
    assert "Score when the round ended (ruling P1) 1 0" in game
    assert "so far" not in game
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "round-no-next-game-4-unfinished-game")
