"""A hand recorded by mistake taken back from the phone at an evening's table, in Debian's
chromium at a 360 px phone's width (law 5, ruling E9): two taps ("Take back hand 2", then
"Yes, take back hand 2"), the sheet and the score as before it; with the network gone the
take-back waits in the phone's queue, with the hand entered in its place after it, and
both go once the network returns, in order; two phones at one table, the second records
the next hand, and the first's take-back is refused in words, nothing taken off.
Screenshots in artifacts/screenshots/phone-take-back-*.png."""

import pytest

from club import recording
from scoring.models import RemovedHand
from tests.browser import PHONE, enter_hand, open_phone, refusal_shown, shot
from tests.test_browser_accessibility import grave_violations
from tests.worlds import sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = "document.documentElement.scrollWidth"


def on_phone(page, live_server, played):
    page.set_default_timeout(10_000)
    return open_phone(page, f"{live_server.url}/t/{played.table.token}/")


def recorded_at_the_table(played, makers: str, tricks: int) -> None:
    """The next hand recorded by the table's phone link (another phone at the table)."""
    recording.hand_record(
        evening_id=played.evening.pk,
        table_number=1,
        data={"makers": makers, "tricks": tricks},
        table=played.table,
    )


def second_hand_by_mistake(played) -> None:
    """E-W, four tricks, recorded as hand 2 by the table's phone."""
    recorded_at_the_table(played, "EW", 4)


def hands_answered(page) -> list[int]:
    """The statuses of the page's posts of hands and their changes, as they are answered."""
    answers = []
    page.on("response", lambda r: answers.append(r.status) if r.url.endswith("/hand/") else None)
    return answers


def back_online(page) -> None:
    """The phone's network returns, and it is told so at once."""
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")


def score(page) -> str:
    """The game's running score as the sheet shows it: "Score so far 1 1"."""
    return " ".join(page.locator("#table-sheet tr.game-result").first.inner_text().split())


def take_back(page, number: int, reason: str = ""):
    """The two taps: the panel "Take back hand N" opens, then "Yes, take back hand N"."""
    panel = page.get_by_test_id("take-back")
    yes = panel.get_by_role("button", name=f"Yes, take back hand {number}")
    assert not yes.is_visible()  # one tap is never enough
    panel.locator("summary", has_text=f"Take back hand {number}").click()
    if reason:
        panel.locator("textarea[name=reason]").fill(reason)
    return yes


def test_a_hand_recorded_by_mistake_is_taken_back_in_two_taps(browser_page, live_server, played):
    page = on_phone(browser_page, live_server, played)
    enter_hand(page, makers="EW", tricks=4)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    assert score(page) == "Score so far 1 1"

    yes = take_back(page, 2, reason="entered twice")
    assert page.evaluate(WIDTH) <= PHONE["width"]
    assert grave_violations(page) == []
    shot(page, "phone-take-back-1-asked")
    yes.click()
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 taken back").wait_for()
    assert score(page) == "Score so far 1 0"  # as before hand 2
    assert page.locator("[data-next-label]").inner_text() == "2"
    assert "E-W make" not in page.locator("#table-sheet").inner_text()
    # Hand 1 is the last again, the table's no more (ruling E9): said, not offered.
    assert page.get_by_test_id("take-back").count() == 0
    assert (
        "Only the secretary may change it now"
        in page.get_by_test_id("last-hand-followed").inner_text()
    )
    assert sheet(played) == [("NS", 3)]
    assert RemovedHand.objects.get().reason == "entered twice"
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "phone-take-back-2-done")


def test_a_take_back_made_offline_waits_and_is_sent_once_the_network_returns(
    browser_page, live_server, played
):
    second_hand_by_mistake(played)
    page = on_phone(browser_page, live_server, played)
    answers = hands_answered(page)
    page.context.set_offline(True)
    take_back(page, 2).click()
    queue = page.get_by_test_id("phone-queue")
    queue.filter(has_text="Not sent yet: 1 take-back waiting (take-back of hand 2)").wait_for()
    assert page.get_by_test_id("phone-notice").count() == 0  # not "taken back" before it is
    # The hand as it was played goes in its place: hand 2, once hand 2 is taken back.
    assert page.locator("[data-next-label]").inner_text() == "2"
    enter_hand(page, makers="NS", tricks=3)
    queue.filter(has_text="Not sent yet: 2 waiting (take-back of hand 2, hand 2)").wait_for()
    assert sheet(played) == [("NS", 3), ("EW", 4)]
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "phone-take-back-3-offline")

    back_online(page)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    assert queue.is_hidden()
    assert answers == [200, 200]  # each sent once, in order
    assert sheet(played) == [("NS", 3), ("NS", 3)]
    assert RemovedHand.objects.get().data["makers"] == "EW"
    assert score(page) == "Score so far 2 0"
    assert page.get_by_test_id("phone-refused").is_hidden()
    shot(page, "phone-take-back-4-back-online")


def test_the_other_phone_records_the_next_hand_and_the_take_back_is_refused_in_words(
    browser_page, live_server, played
):
    second_hand_by_mistake(played)
    first = on_phone(browser_page, live_server, played)
    yes = take_back(first, 2)  # asked, not yet confirmed
    other = first.context.browser.new_context(viewport=PHONE)
    try:
        second = on_phone(other.new_page(), live_server, played)
        enter_hand(second, makers="NS", tricks=3)
        second.get_by_test_id("phone-notice").filter(has_text="Hand 3 recorded.").wait_for()
    finally:
        other.close()
    yes.click()
    first.get_by_test_id("phone-error").wait_for()
    assert refusal_shown(first) == (
        "Not taken back. Hand 2 was not taken back: hand 3 has been recorded at this table "
        "since (law 2: N-S make, three tricks: 1), and only the last hand is taken back. "
        "Hand 2 may now be changed only by the secretary, as the club's referee. (law 5, "
        "ruling E9)"
    )
    assert sheet(played) == [("NS", 3), ("EW", 4), ("NS", 3)]
    assert not RemovedHand.objects.exists()
    # The page as the table now is: hand 3 is the last, to correct or take back, its
    # take-back closed (never one tap from taking off the hand just refused for).
    panel = first.get_by_test_id("take-back")
    assert panel.locator("summary").inner_text() == "Take back hand 3"
    assert not panel.get_by_role("button", name="Yes, take back hand 3").is_visible()
    assert score(first) == "Score so far 2 1"
    assert first.evaluate(WIDTH) <= PHONE["width"]
    shot(first, "phone-take-back-5-refused")


def waiting_note(page):
    return page.get_by_test_id("change-waiting")


def test_a_take_back_waiting_is_not_offered_again_and_is_made_once(
    browser_page, live_server, played
):
    """A second tap while the take-back waits (the network gone) would queue it again, to
    be refused once the first is made ("taken back already"): the phone puts the button
    away and says the take-back is waiting, until it is made."""
    second_hand_by_mistake(played)
    browser_page.clock.install()  # the page's own clock, run forward where it waits
    page = on_phone(browser_page, live_server, played)
    answers = hands_answered(page)
    page.context.set_offline(True)
    yes = take_back(page, 2)
    yes.click()
    queue = page.get_by_test_id("phone-queue")
    queue.filter(has_text="Not sent yet: 1 take-back waiting (take-back of hand 2)").wait_for()
    note = waiting_note(page)
    assert note.inner_text().startswith("Take-back of hand 2 waiting to be sent")
    assert note.is_visible()
    button = page.get_by_test_id("take-back-hand")  # out of the page's roles, hidden
    assert button.is_hidden() and button.is_disabled()
    # Nor does the form, sent another way (the Enter key, a script), queue it twice.
    page.evaluate("document.querySelector('form.take-back-form').requestSubmit()")
    page.clock.run_for(1_600)  # past the double-tap guard's 1.5 s
    page.evaluate("document.querySelector('form.take-back-form').requestSubmit()")
    assert (
        page.evaluate(
            "JSON.parse(localStorage.getItem("
            + f"'cardclub-phone-queue:/t/{played.table.token}/')).length"
        )
        == 1
    )
    queue.filter(has_text="Not sent yet: 1 take-back waiting").wait_for()
    assert page.evaluate(WIDTH) <= PHONE["width"]
    assert grave_violations(page) == []
    shot(page, "phone-take-back-6-waiting")

    back_online(page)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 taken back").wait_for()
    assert answers == [200]  # sent once
    assert sheet(played) == [("NS", 3)]
    assert RemovedHand.objects.count() == 1
    assert page.get_by_test_id("phone-refused").is_hidden()  # nothing refused
    assert waiting_note(page).count() == 0


def test_a_take_back_refused_after_waiting_offers_the_hand_as_it_now_is(
    browser_page, live_server, played
):
    """The other phone recorded hand 3 while the take-back of hand 2 waited: refused in
    words and listed; the button is offered again, for the last hand as it now is."""
    second_hand_by_mistake(played)
    page = on_phone(browser_page, live_server, played)
    page.context.set_offline(True)
    take_back(page, 2).click()
    waiting_note(page).filter(has_text="Take-back of hand 2 waiting to be sent").wait_for()
    recorded_at_the_table(played, "NS", 3)
    back_online(page)
    refused = page.get_by_test_id("refused-hand")
    refused.filter(has_text="Take-back of hand 2 was not made.").wait_for()
    assert "hand 3 has been recorded at this table since" in refused.inner_text()
    assert waiting_note(page).count() == 0
    panel = page.get_by_test_id("take-back")
    assert panel.locator("summary").inner_text() == "Take back hand 3"
    panel.locator("summary").click()
    again = panel.get_by_role("button", name="Yes, take back hand 3")
    assert again.is_visible() and again.is_enabled()
    assert sheet(played) == [("NS", 3), ("EW", 4), ("NS", 3)]
    assert not RemovedHand.objects.exists()
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "phone-take-back-7-refused-after-waiting")


def test_a_correction_waiting_is_not_offered_again_and_is_made_once(
    browser_page, live_server, played
):
    """The same for "Correct hand N" (law 5, ruling E9): while the correction waits, the
    form says so instead of offering to send it again; dropped from the queue (here, a
    stale one cleared by the player's phone), the button is back."""
    second_hand_by_mistake(played)
    page = on_phone(browser_page, live_server, played)
    answers = hands_answered(page)
    panel = page.get_by_test_id("last-hand")
    panel.locator("summary").first.click()
    form = panel.locator("form.correct")
    page.context.set_offline(True)
    form.locator("input[name=tricks]").fill("5")
    button = form.get_by_test_id("correct-hand")
    button.click()
    page.get_by_test_id("phone-queue").filter(has_text="(correction of hand 2)").wait_for()
    note = waiting_note(page)
    assert note.inner_text().startswith("Correction of hand 2 waiting to be sent")
    assert button.is_hidden() and button.is_disabled()
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "phone-take-back-8-correction-waiting")

    back_online(page)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 corrected.").wait_for()
    assert answers == [200]
    assert sheet(played) == [("NS", 3), ("EW", 5)]
    assert waiting_note(page).count() == 0
    panel = page.get_by_test_id("last-hand")
    panel.locator("summary").first.click()
    again = panel.get_by_test_id("correct-hand")
    assert again.is_visible() and again.is_enabled()


def test_a_hand_whose_take_back_waits_is_not_offered_for_correction(
    browser_page, live_server, played
):
    """While the take-back of hand 2 waits (the network gone), "Correct hand 2" is not
    offered: a correction queued behind the take-back would be refused, the hand gone. The
    page says the hand is being taken back; refused (the other phone recorded hand 3), the
    correction is offered again, for the last hand as it now is (law 5, ruling E9)."""
    second_hand_by_mistake(played)
    page = on_phone(browser_page, live_server, played)
    correction = page.get_by_test_id("last-hand")
    assert correction.locator("summary").first.inner_text() == "Correct hand 2"
    page.context.set_offline(True)
    take_back(page, 2).click()
    held = page.get_by_test_id("correction-held")
    held.wait_for()
    assert held.inner_text().startswith(
        "Hand 2 is being taken back, so it is not offered for correction"
    )
    assert "goes by itself as soon as the connection returns" in held.inner_text()
    assert correction.is_hidden()
    assert page.get_by_text("Correct hand 2", exact=True).filter(visible=True).count() == 0
    assert page.evaluate(WIDTH) <= PHONE["width"]
    assert grave_violations(page) == []
    shot(page, "phone-take-back-8-no-correction-meanwhile")

    recorded_at_the_table(played, "NS", 3)
    back_online(page)
    page.get_by_test_id("refused-hand").filter(
        has_text="Take-back of hand 2 was not made."
    ).wait_for()
    assert held.count() == 0
    assert correction.is_visible()
    assert correction.locator("summary").first.inner_text() == "Correct hand 3"
    assert sheet(played) == [("NS", 3), ("EW", 4), ("NS", 3)]
