"""A Call-Ace evening on the secretary's board and the room display, in Debian's chromium at
a phone's width (360 px). A late arrival admitted at a table mid-sitting ends the sitting in
play, settled as it stood, and a new one begins with him (law 1, reading T2-CA; ruling
C5): the board said only that he "plays from the next deal", while its ledger filled. The
board said "Nothing is waiting" while a sitting was in play, and its sittings table had
empty Winner and Value columns. Once the evening is closed, the room display said "No table
is playing yet" and listed everyone as in the room. Screenshots in
artifacts/screenshots/callace-late-arrival-*.png."""

import pytest
from django.urls import reverse

from club.models import Evening
from tests.browser import PHONE, settled, shot
from tests.club.closing_helpers import close_abandoning
from tests.club.test_browser_board_live import board_shown
from tests.worlds import bridge_and_call_ace_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def said(page, selector: str) -> str:
    return " ".join(page.locator(selector).inner_text().split())


def test_a_late_arrival_closes_the_sitting_in_words_and_the_room_once_closed(
    browser_page, live_server, secretary, club
):
    evening = Evening.objects.get(pk=bridge_and_call_ace_in_play(club).call_ace.evening_id)
    page = browser_page
    board_shown(page, live_server, evening)
    assert "Sitting 1 in play at table 1 (ruling C5)" in said(page, "section.next")
    assert "Nothing is waiting" not in said(page, "section.next")
    head = said(page, "[data-testid=rubbers] thead")
    assert "Winner" not in head and "Value" not in head and "Points (ruling C5)" in head

    page.fill("#arrive-player", "Frank")
    page.get_by_test_id("arrive").click()
    settled(page)
    page.select_option("#candidate-player", "Frank")
    page.select_option("#candidate-action", "claim")
    page.select_option("#candidate-table", "1")
    page.get_by_role("button", name="Do it", exact=True).click()
    settled(page)
    notice = said(page, ".alert.ok")
    assert (
        "Frank joins table 1: the sitting in play there is closed and settled as it stood, "
        "and a new sitting begins with Frank from its first deal"
    ) in notice, notice
    assert "Sitting 2 in play at table 1 (ruling C5)" in said(page, "section.next")
    first = said(page, "[data-testid=rubbers] tbody tr >> nth=0")
    assert "finished" in first and "Ann" in first, first
    assert "any sitting in play there is closed and settled" in said(page, "#history")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "callace-late-arrival-board")

    close_abandoning(evening.pk)
    page.goto(live_server.url + reverse("evening-room", args=[club.slug, evening.pk]))
    room = said(page, "#room")
    assert "The evening is over" in room
    assert "yet" not in said(page, ".room-tables")
    assert "In the room, at no table" not in room
    shot(page, "callace-late-arrival-room-closed")
    link = page.get_by_role("link", name="the evening's results")
    # Read on the room's dark ground: its accent, not the browser's dark blue.
    assert link.evaluate("a => getComputedStyle(a).color") == "rgb(255, 216, 102)"
    link.click()
    assert page.url.endswith(f"/evenings/{evening.pk}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "callace-late-arrival-results")
