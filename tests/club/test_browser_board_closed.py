"""A closed evening's board, in a browser: it no longer warns that phones cannot open the
tables' links (a closed evening's links record nothing, whatever address they carry); it
says once that the evening is closed, and what to do. At a phone's width the list of
rubbers stacks its cells, so a rubber's score sheet is reached without scrolling sideways.
Screenshots in artifacts/screenshots/board-closed-*.png."""

import pytest

from club.models import Evening
from scoring.models import Rubber
from tests.browser import settled, shot
from tests.club.test_browser_board_live import click, open_board, open_evening, seat_four

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def close_from_the_board(page, evening: Evening) -> None:
    rubber = Rubber.objects.get(evening=evening)
    page.check(f"#outcome-{rubber.pk}-abandoned")
    page.fill(f"#reason-{rubber.pk}", "the club closed at eleven")
    page.once("dialog", lambda dialog: dialog.accept())
    click(page, "close-evening")
    evening.refresh_from_db()
    assert evening.status == "closed"


def test_a_closed_evening_says_it_is_closed_not_that_phones_cannot_open_its_links(
    browser_page, live_server, club, secretary
):
    """The board, opened at an address only this computer reaches, warns that phones cannot
    open the tables' links while they can record; once the evening is closed the warning
    went on ("Phones cannot open these table links ... start the service with --lan"),
    about links that open nothing any more."""
    evening = open_evening(club)
    seat_four(evening)
    page = browser_page
    open_board(page, live_server, evening)
    assert page.get_by_test_id("phone-reach").is_visible()  # open: the warning stands
    close_from_the_board(page, evening)
    assert not page.get_by_test_id("phone-reach").is_visible()
    note = page.get_by_test_id("closed-note")
    assert note.count() == 1
    assert note.inner_text() == (
        "This evening is closed: its tables' links and QR codes record nothing more. "
        "Reopen it, saying why, for them to record again."
    )
    page.reload()
    settled(page)
    assert page.get_by_test_id("phone-reach").count() == 0
    assert page.get_by_test_id("closed-note").count() == 1
    shot(page, "board-closed-1280")


def test_the_rubbers_list_stacks_at_a_phones_width(browser_page, live_server, club, secretary):
    """At 360 px the list of rubbers ran past the screen's edge in a sideways-scrolling box,
    its link to the score sheet out of sight; each row's cells now stack, each named."""
    evening = open_evening(club)
    seat_four(evening)
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 800})
    open_board(page, live_server, evening)
    close_from_the_board(page, evening)
    rubbers = page.get_by_test_id("rubbers")
    box = rubbers.locator("xpath=..")
    assert box.evaluate("b => b.scrollWidth <= b.clientWidth"), "the list scrolls sideways"
    link = rubbers.get_by_role("link", name="score sheet, corrections")
    link.scroll_into_view_if_needed()
    edge = link.bounding_box()
    assert edge is not None and edge["x"] >= 0 and edge["x"] + edge["width"] <= 360
    said = " ".join(rubbers.locator("tbody tr").first.inner_text().split())
    assert "abandoned when the evening closed: the club closed at eleven" in said
    # Each stacked cell is named, as its column's heading named it.
    named = rubbers.locator("tbody td[data-label]").evaluate_all(
        "cells => cells.map(c => getComputedStyle(c, '::before').content)"
    )
    assert named[:3] == ['"Table: "', '"Players: "', '"Status: "']
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "board-closed-360")
