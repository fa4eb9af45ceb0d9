"""The secretary's board in a browser: undoing the last action, correcting a hand late and
taking one off from the rubber's page, each with a reason, the evening's history saying
who and why (issue #15, item 4), and words rather than labels (item 9).
Screenshots in artifacts/screenshots/board-history-*.png."""

import re

import pytest

from club import recording
from club.models import Evening
from scoring.models import HandCorrection, RemovedHand, Rubber
from tests.browser import log_in, settled, shot
from tests.club.test_browser_board_live import click, open_board, open_evening, seat_four

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MARCH = {"makers": "NS", "tricks": 5}


def test_undo_and_corrections_from_the_board_with_who_and_why(
    browser_page, live_server, club, secretary
):
    secretary.first_name, secretary.last_name = "Silas", "Wegg"
    secretary.save()
    evening = open_evening(club)
    seat_four(evening)
    for _ in range(2):
        recording.hand_record(evening_id=evening.pk, table_number=1, data=MARCH)
    page = browser_page
    open_board(page, live_server, evening)

    # Words, not labels (item 9).
    head = page.locator("#board .board-head").inner_text()
    assert "Euchre (Somerset Club laws, 1888)" in head and "version" not in head
    rubbers = page.locator("#board table.grid").first.inner_text()
    assert "in play" in rubbers and "in_progress" not in rubbers

    # An arrival, undone with a reason: as if it never was, and the history says so.
    page.fill("#arrive-player", "Gus")
    click(page, "arrive")
    page.wait_for_selector("#board .chip:text-is('Gus')")
    assert page.get_by_test_id("undo-what").inner_text() == "Gus arrives"
    page.fill("#undo-reason", "he came to watch")
    click(page, "undo")
    assert page.locator("#board .chip:text-is('Gus')").count() == 0
    assert Evening.objects.get(pk=evening.pk).state["present"] == ["Ann", "Bob", "Cora", "Dan"]
    latest = page.locator("[data-testid=history] li").first.inner_text()
    assert "Undone: Gus arrives" in latest and "Silas Wegg" in latest
    assert "he came to watch" in latest
    assert page.locator("[data-testid=history] li.undone").first.inner_text().count("Gus arrives")
    shot(page, "board-history-1-undone")

    # A hand corrected late, and the last one taken off, on the rubber's page.
    page.get_by_test_id("correct-1").click()
    page.wait_for_url(re.compile(r"/rubbers/\d+/#corrections$"))
    # The form holds the last hand; the secretary asks for the first.
    assert (
        "Hand 2 as it should have been" in page.locator("#correct-form legend").first.inner_text()
    )
    page.locator("#choose-hand select[name=correct]").select_option("1")
    page.get_by_test_id("choose-hand").click()
    page.wait_for_selector("#correct-form legend:text('Hand 1 as it should have been')")
    form = page.locator("#correct-form")
    form.locator("input[name=makers][value=EW]").check()
    form.locator("input[name=tricks]").fill("3")
    form.locator("textarea[name=reason]").fill("E-W made it, three tricks")
    form.get_by_test_id("correct-hand").click()
    page.wait_for_selector("text=Hand 1 corrected")
    remove = page.locator("#remove-form")
    remove.locator("textarea[name=reason]").fill("entered twice")
    remove.get_by_test_id("remove-hand").click()
    page.wait_for_selector("text=Hand 2 taken off")
    shot(page, "board-history-2-rubber-page")
    assert HandCorrection.objects.get().reason == "E-W made it, three tricks"
    assert RemovedHand.objects.get().reason == "entered twice"
    assert Rubber.objects.get(evening=evening).hand_count == 1

    # Back on the board, the history shows both, who made them and why.
    page.goto(f"{live_server.url}/secretary/evenings/{evening.pk}/")
    settled(page)
    entries = page.locator("[data-testid=history] li")
    assert "Hand 2 of rubber 1 at table 1 is taken off" in entries.nth(0).inner_text()
    assert "entered twice" in entries.nth(0).inner_text()
    assert "Hand 1 of rubber 1 at table 1 is corrected" in entries.nth(1).inner_text()
    assert "Silas Wegg" in entries.nth(1).inner_text()
    assert "E-W made it, three tricks" in entries.nth(1).inner_text()
    shot(page, "board-history-3-history")


def test_a_late_correction_keeps_what_the_secretary_does_not_change(
    browser_page, live_server, club, secretary
):
    """Ruling E9: the secretary corrects any hand; the form holds it as recorded, its
    revokes and irregularities included (law 63), so changing the tricks keeps the revoke
    (the form had only makers, alone and tricks, and a correction lost the revoke)."""
    evening = open_evening(club)
    seat_four(evening)
    revoked = {"makers": "NS", "tricks": 4, "revokes": ["EW"], "law90": "EW"}
    recording.hand_record(evening_id=evening.pk, table_number=1, data=revoked)
    recording.hand_record(evening_id=evening.pk, table_number=1, data=MARCH)
    rubber = Rubber.objects.get(evening=evening)
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, live_server, secretary.username)
    page.goto(f"{live_server.url}/clubs/{club.slug}/rubbers/{rubber.pk}/?correct=1#corrections")
    form = page.locator("#correct-form")
    assert form.locator("input[name=makers][value=NS]").is_checked()
    assert form.locator("input[name=revokes_EW]").input_value() == "1"
    assert form.locator("select[name=law90]").input_value() == "EW"
    form.locator("input[name=tricks]").fill("3")
    form.locator("textarea[name=reason]").fill("three tricks, not four")
    form.get_by_test_id("correct-hand").click()
    page.wait_for_selector("text=Hand 1 corrected")
    shot(page, "board-history-4-late-correction-kept")
    hand = rubber.hands.get(number=1)
    assert hand.data["tricks"] == 3
    assert hand.data["revokes"] == ["EW"] and hand.data["law90"] == "EW"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
