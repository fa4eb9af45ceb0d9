"""A phone whose player is typing a hand while the other phone at the table records it
(or the screen was locked meanwhile), in Debian's chromium at a phone's 360 px: the
sheet's poll leaves the forms alone while a player types (static/js/phone-queue.js), so
the form still offered the hand just recorded, its dealer and number as they were, and
said nothing until the hand was sent and refused. The phone now says at once, above the
form, that the table has moved on and what the form would do (refused, the hand recorded
already; a wrong one is corrected, law 5, ruling E9), and offers to show the table as it
is, what is typed kept, for the next hand.
Screenshots in artifacts/screenshots/phone-stale-typing-*.png."""

import pytest

from scoring.models import Hand
from tests.browser import enter_hand, fill_hand, open_two_phones, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = "document.documentElement.scrollWidth"


def words(locator) -> str:
    return " ".join(locator.inner_text().split())


def test_typing_while_the_other_phone_records_says_so_and_keeps_what_is_typed(
    browser_page, live_server, played
):
    first, second = open_two_phones(
        browser_page, f"{live_server.url}/t/{played.table.token}/", clock=True
    )
    # The first phone's player starts on hand 2 (N-S, three tricks), then the screen locks.
    form = fill_hand(first, makers="NS", tricks=3)
    lock = first.context.new_cdp_session(first)
    lock.send("Page.setWebLifecycleState", {"state": "frozen"})
    # Meanwhile the second phone records hand 2 (E-W, four tricks).
    enter_hand(second, makers="EW", tricks=4)
    second.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()

    # Unlocked: the sheet's next poll shows hand 2; the form is left as typed, and says why.
    lock.send("Page.setWebLifecycleState", {"state": "active"})
    first.clock.run_for(3_000)
    note = first.get_by_test_id("table-moved-on")
    note.wait_for()
    assert words(note) == (
        "Another phone at this table has recorded hand 2 since this form was shown: the "
        "sheet below has it. This form is still for hand 2, and sent as it is it would be "
        "refused, hand 2 being recorded already; if the sheet's is not what was played, "
        "correct it (law 5, ruling E9). If what is typed here is the next hand, hand 3, show "
        "the table as it is now: what is typed is kept. Show hand 3, keeping what is typed"
    ), words(note)
    assert form.locator(".form-title").inner_text() == "Hand 2"
    assert form.locator("input[name=makers][value=NS]").is_checked()
    assert form.locator("input[name=tricks]").input_value() == "3"
    assert first.locator("#table-sheet tbody tr").count() >= 2
    assert first.evaluate(WIDTH) <= 360
    shot(first, "phone-stale-typing-1-said")

    # It was the next hand: one tap shows the table as it is, what was typed kept.
    first.get_by_test_id("show-table-now").click()
    note.wait_for(state="detached")
    form = first.locator("form.hand[data-kind=record]")
    assert form.locator(".form-title").inner_text() == "Hand 3"
    assert first.get_by_test_id("dealer").inner_text().startswith("Bob deals hand 3")
    assert form.locator("input[name=makers][value=NS]").is_checked()
    assert form.locator("input[name=tricks]").input_value() == "3"
    form.get_by_test_id("record-hand").click()
    first.get_by_test_id("phone-notice").filter(has_text="Hand 3 recorded.").wait_for()
    hands = Hand.objects.filter(rubber=played.rubber).order_by("number")
    assert [(h.data["makers"], h.data["tricks"]) for h in hands] == [
        ("NS", 3),
        ("EW", 4),
        ("NS", 3),
    ]
    # A laptop at the table reads the page as well.
    first.set_viewport_size({"width": 1280, "height": 900})
    assert first.evaluate(WIDTH) <= 1280
    shot(first, "phone-stale-typing-2-next-hand")


def test_the_note_goes_when_the_table_is_back_as_the_form_has_it(browser_page, live_server, played):
    """The other phone records hand 2 and takes it back: the table is again as the form
    has it, and the note goes (nothing is left saying the form would be refused)."""
    first, second = open_two_phones(
        browser_page, f"{live_server.url}/t/{played.table.token}/", clock=True
    )
    fill_hand(first, makers="NS", tricks=3)
    enter_hand(second, makers="EW", tricks=4)
    second.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    first.clock.run_for(3_000)
    note = first.get_by_test_id("table-moved-on")
    note.wait_for()
    second.get_by_test_id("take-back").locator("summary", has_text="Take back hand 2").click()
    second.get_by_role("button", name="Yes, take back hand 2").click()
    second.get_by_test_id("phone-notice").filter(has_text="Hand 2 taken back").wait_for()
    first.clock.run_for(3_000)
    note.wait_for(state="detached")
    assert first.locator("form.hand[data-kind=record] input[name=tricks]").input_value() == "3"
