"""What the secretary's board put before him stays through the polls that follow, until
he answers it or presses the next button: the board is polled every 1.5 s, and on a busy
evening any table's phone recording a hand changes it. The look-alike name's question
(club.services.member_named), the notice of what the laws made of his last action, and
the undo form whose reason he is typing (only the log's last entry is undone,
club.evening_undo: a hand is never undone, law 5, ruling E9) went at the next poll that
brought a hand. Screenshots in artifacts/screenshots/board-kept-*.png."""

import pytest

from club import evenings, recording
from club.models import Evening, Member
from tests.browser import polled, shot
from tests.club.test_browser_board_live import (
    BOARD_POLL_MS,
    board_shown,
    click,
    open_evening,
    seat_four,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GREEK_KIT = "\u039ait"  # a Greek capital Kappa, then Latin "it"
MARCH = {"makers": "NS", "tricks": 5}


def a_phone_records_a_hand(page, evening: Evening, hands: int) -> None:
    """Table 1's phone records a hand (a march, law 3): the board's next poll brings it."""
    recording.hand_record(evening_id=evening.pk, table_number=1, data=MARCH)
    polled(page, f"/secretary/evenings/{evening.pk}/board/", run_for=BOARD_POLL_MS)
    page.wait_for_selector(f"[data-testid=score-1]:has-text('{hands} hand')")


def test_the_look_alike_question_stays_until_answered(browser_page, live_server, club, secretary):
    """Kit written with a Greek capital Kappa only looks like the member Kit: the board
    asks who it is (club.services.member_named). A hand recorded at table 1 meanwhile took
    the question and its two buttons away at the next poll, leaving the name in the field."""
    Member.objects.create(club=club, name="Kit")
    evening = open_evening(club)
    seat_four(evening)
    page = browser_page
    page.clock.install()  # the board's own clock: its poll is run forward, not waited for
    board_shown(page, live_server, evening)

    page.fill("#arrive-player", GREEK_KIT)
    click(page, "arrive")
    question = page.get_by_test_id("arrival-question")
    assert "Kit is a member: is this Kit, or a new player?" in question.inner_text()

    a_phone_records_a_hand(page, evening, hands=1)
    assert question.count() == 1
    assert "Kit is a member: is this Kit, or a new player?" in question.inner_text()
    assert page.get_by_test_id("arrival-is-member").is_visible()
    assert page.get_by_test_id("arrival-is-new").is_visible()
    assert page.input_value("#arrive-player") == GREEK_KIT
    shot(page, "board-kept-1-question-after-a-poll")

    # Answered, it goes: Kit, the member, arrives.
    click(page, "arrival-is-member")
    page.wait_for_selector("#board .chip:text-is('Kit')")
    assert question.count() == 0
    assert Evening.objects.get(pk=evening.pk).state["present"][-1] == "Kit"

    # Asked again and not answered, the next button pressed takes it away too.
    Member.objects.create(club=club, name="Ora")
    page.fill("#arrive-player", "\u039fra")  # a Greek capital Omicron
    click(page, "arrive")
    assert "Ora is a member" in question.inner_text()
    page.fill("#arrive-player", "Walt")
    click(page, "arrive")
    page.wait_for_selector("#board .chip:text-is('Walt')")
    assert question.count() == 0


def test_what_the_laws_made_of_a_cut_stays_until_the_next_button(
    browser_page, live_server, club, secretary
):
    """The notice of what the laws made of a cut (ruling T4: partners and the
    first deal) went at the next poll that brought a phone's hand, before it was
    read; it stays, as a refusal does, until the secretary's next button."""
    evening = open_evening(club)
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    page = browser_page
    page.clock.install()
    board_shown(page, live_server, evening, {"width": 1280, "height": 900})

    cards = page.locator("form.cut-form input[name^=card-]")
    for n, card in enumerate(["JH", "AH", "KH", "QH"]):  # Ann, Bob, Cora, Dan
        cards.nth(n).fill(card)
    click(page, "enter-cut")
    notice = page.get_by_test_id("board-notice")
    said = notice.inner_text()
    assert "cards cut for partners and deal at table 1" in said, said
    assert "deals and has the choice of seats" in said, said

    a_phone_records_a_hand(page, evening, hands=1)
    assert notice.count() == 1
    assert notice.inner_text() == said
    shot(page, "board-kept-2-notice-after-a-poll")

    # The next button's answer says what came of it instead.
    page.fill("#arrive-player", "Walt")
    click(page, "arrive")
    page.wait_for_selector("#board .chip:text-is('Walt')")
    assert notice.count() == 1
    assert "Walt" in notice.inner_text() and said not in notice.inner_text()


def test_the_undo_form_being_typed_in_stays_through_a_poll(
    browser_page, live_server, club, secretary
):
    """Only the log's last entry is undone, never a hand (club.evening_undo; law 5,
    ruling E9). The undo form with its reason half typed went from under the secretary as
    soon as a phone recorded a hand. It stays while he types in it, and pressed, is
    refused with what happened since; left alone, it gives way to why it cannot be undone."""
    evening = open_evening(club)
    seat_four(evening)
    evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": "Gus"})
    page = browser_page
    page.clock.install()
    board_shown(page, live_server, evening)
    assert page.get_by_test_id("undo-what").inner_text() == "Gus arrives"

    # Not typed in: a hand recorded, the form gives way to the words saying why.
    a_phone_records_a_hand(page, evening, hands=1)
    assert page.locator("#undo-form").count() == 0
    assert "A hand has been recorded" in page.get_by_test_id("cannot-undo").inner_text()

    # Hal arrives from another device: his arrival may be undone; the secretary types why.
    evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": "Hal"})
    polled(page, f"/secretary/evenings/{evening.pk}/board/", run_for=BOARD_POLL_MS)
    page.wait_for_selector("[data-testid=undo-what]:text-is('Hal arrives')")
    page.fill("#undo-reason", "he came to wat")

    a_phone_records_a_hand(page, evening, hands=2)
    assert page.input_value("#undo-reason") == "he came to wat"
    assert page.evaluate("document.activeElement.id") == "undo-reason"
    assert page.get_by_test_id("undo-what").inner_text() == "Hal arrives"
    # Why it can no longer be undone is said beside it.
    assert "A hand has been recorded" in page.get_by_test_id("cannot-undo").inner_text()
    shot(page, "board-kept-3-undo-being-typed")

    page.type("#undo-reason", "ch")
    click(page, "undo")
    refusal = page.get_by_test_id("refusal")
    said = " ".join(refusal.inner_text().split())
    assert "Not done. The board was out of date" in said, said
    assert "Nothing was done" in said
    assert "Hal" in Evening.objects.get(pk=evening.pk).state["present"]
    assert page.locator("#undo-form").count() == 0
    assert "A hand has been recorded" in page.get_by_test_id("cannot-undo").inner_text()
    shot(page, "board-kept-4-undo-refused")
