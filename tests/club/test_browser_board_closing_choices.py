"""The close form's choices for what is still in play, at a phone's width (360 px), say
what each does. A Euchre or Bridge rubber in play is not over by its hands (rulings E1,
B7): a won rubber ends by itself with its winning hand and settles by its value (ruling
M1), so "finished as played" could only be refused there and is not offered; the form
says to record the last hands first. Abandoned, a rubber or sitting settles nothing, its
hands standing as scored (law 21 / ruling T9), which "abandoned, scored as it stood" did
not say. A Call-Ace sitting ended as played settles every player with every other (ruling
C5). Screenshots in artifacts/screenshots/board-closing-choices-*.png."""

import pytest

from club import recording
from club.models import Evening
from scoring.models import Rubber
from tests.browser import PHONE, settled, shot, words
from tests.club.test_browser_board_live import (
    board_shown,
    click,
    open_evening,
    seat_four,
)
from tests.worlds import call_ace_jack_drawn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_rubber_in_play_is_offered_only_what_can_be_done(
    browser_page, live_server, club, secretary
):
    evening = open_evening(club)
    seat_four(evening)
    recording.hand_record(evening_id=evening.pk, table_number=1, data={"makers": "NS", "tricks": 3})
    rubber = Rubber.objects.get(evening=evening)
    page = browser_page
    page.on("dialog", lambda dialog: dialog.accept())  # hx-confirm
    board_shown(page, live_server, evening, PHONE)

    block = page.get_by_test_id("unfinished-1-1")
    said = words(block)
    assert page.locator(f"#outcome-{rubber.pk}-finished").count() == 0
    assert "finished as played" not in said
    assert (
        "abandoned: its hands stand as scored and it settles nothing (law 21 / ruling T9)" in said
    )
    assert "Record them first, at the table's phone" in said
    assert "settles by its value (ruling M1)" in said
    block.scroll_into_view_if_needed()
    shot(page, "board-closing-choices-euchre-360")

    # Left unanswered, the refusal says what can be done, not "finished as played".
    click(page, "close-evening")
    refused = words(page.get_by_test_id("refusal"))
    assert (
        "Record the hands that finished a rubber before closing, or say it was abandoned "
        "(with the reason)."
    ) in refused, refused

    page.check(f"#outcome-{rubber.pk}-abandoned")
    page.fill(f"#reason-{rubber.pk}", "the lamps went out")
    click(page, "close-evening")
    page.wait_for_selector("[data-testid=closed-note]")
    assert Evening.objects.get(pk=evening.pk).status == Evening.Status.CLOSED
    rubber.refresh_from_db()
    assert rubber.status == Rubber.Status.ABANDONED and not rubber.settlements.exists()


def test_a_sitting_in_play_is_offered_both_in_words(browser_page, live_server, club, secretary):
    evening, order = call_ace_jack_drawn(club)
    recording.hand_record(
        evening_id=evening.pk, table_number=1, data={"maker": order[1], "tricks": 3}
    )
    sitting = Rubber.objects.get(evening=evening)
    page = browser_page
    page.on("dialog", lambda dialog: dialog.accept())
    board_shown(page, live_server, evening, PHONE)

    block = page.get_by_test_id("unfinished-1-1")
    said = words(block)
    assert (
        "ended as played: every player settles with every other by the points as they stand "
        "(ruling C5)"
    ) in said, said
    assert "abandoned: its deals stand as scored and it settles nothing (ruling T9)" in said
    assert "Record them first" not in said
    block.scroll_into_view_if_needed()
    shot(page, "board-closing-choices-call-ace-360")

    page.check(f"#outcome-{sitting.pk}-finished")
    click(page, "close-evening")
    settled(page)
    page.wait_for_selector("[data-testid=closed-note]")
    sitting.refresh_from_db()
    assert sitting.status == Rubber.Status.COMPLETE
