"""Real life interrupting the pages, in Debian's chromium: the secretary's login running
out in the middle of an evening, the Wi-Fi going while the other side confirms a hand,
and one form of the board answered while another is being typed in. Each test failed
before its fix. Screenshots in artifacts/screenshots/interrupted-*.png."""

import re

import pytest

from club import confirmations, evenings, recording
from club.models import Evening, HandConfirmation
from tests.browser import polled, settled, shot
from tests.club.test_browser_board_live import BOARD_POLL_MS, open_board, open_evening, seat_four

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_out_behind_the_page(page) -> None:
    """The secretary's session ends (it expired, or he logged out in another tab) while
    the board stays open: the browser no longer sends a session."""
    context = page.context
    kept = [cookie for cookie in context.cookies() if cookie["name"] != "sessionid"]
    context.clear_cookies()
    context.add_cookies(kept)


def test_a_board_whose_login_ran_out_says_so_and_keeps_what_was_typed(
    browser_page, live_server, club, secretary
):
    """The board's buttons and polls are answered by the login page once the session has
    run out. The board once vanished: the login page has no board, so the board was
    swapped for nothing, the name being typed with it, and nothing said why."""
    evening = open_evening(club)
    page = browser_page
    page.clock.install()  # the board's own clock: its polls are run forward, not waited for
    open_board(page, live_server, evening)
    settled(page)
    version = Evening.objects.get(pk=evening.pk).version
    log_out_behind_the_page(page)

    page.fill("#arrive-player", "Zed")
    page.get_by_test_id("arrive").click()
    notice = page.get_by_test_id("logged-out")
    notice.wait_for(timeout=5000)
    text = notice.inner_text()
    assert "You are logged out" in text and "nothing was done" in text
    # The polls, answered by the login page too, take nothing either.
    polled(page, f"/secretary/evenings/{evening.pk}/board/", times=2, run_for=BOARD_POLL_MS)
    assert page.locator("#board h1").is_visible()
    assert page.input_value("#arrive-player") == "Zed"
    assert Evening.objects.get(pk=evening.pk).version == version
    shot(page, "interrupted-1-logged-out")

    # He logs in again in the tab the notice opens; back on the board, he presses again.
    # (Logging in gave the browser a new CSRF token, which the board's forms, unchanged
    # since, do not hold: the button is answered all the same.)
    login = notice.get_by_role("link", name="Log in again")
    assert login.get_attribute("target") == "_blank"
    with page.context.expect_page() as opened:
        login.click()
    other = opened.value
    other.fill("input[name=username]", "secretary")
    other.fill("input[name=password]", "correct horse battery")
    other.click("button[type=submit]")
    other.wait_for_url(re.compile(r"/secretary/evenings/"))
    other.close()
    page.clock.run_for(BOARD_POLL_MS)  # the board's next poll
    notice.wait_for(state="hidden", timeout=6000)  # is answered again
    with page.expect_response(re.compile(r"/action/$")) as answer:
        page.get_by_test_id("arrive").click()
    assert answer.value.status == 200
    settled(page)
    page.wait_for_selector("#board .chip:text-is('Zed')")
    assert Evening.objects.get(pk=evening.pk).state.get("present") == ["Zed"]


PHONE = {"width": 360, "height": 740}


def confirming_table(club):
    """A club whose hands the other side confirms: table 1 (Ann (N) and Cora (S) against
    Bob (E) and Dan (W)) has North-South's hand 1 recorded by its phone. Returns the table."""
    club.confirm_hands = True
    club.save(update_fields=["confirm_hands"])
    evening = open_evening(club)
    seat_four(evening)
    table = evening.tables.get(number=1)
    recording.hand_record(
        evening_id=evening.pk, table_number=1, data={"makers": "NS", "tricks": 3}, table=table
    )
    return table


def awaiting_confirmation(page, live_server, club):
    """`confirming_table`, and the page that table's phone's, at a phone's width."""
    table = confirming_table(club)
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/t/{table.token}/")
    return table


def test_a_confirmation_tapped_with_the_network_gone_waits_and_is_sent_once(
    browser_page, live_server, club
):
    """East-West confirm North-South's hand just as the club's Wi-Fi drops. The tap once
    did nothing visible (htmx's post failed and nothing said so) and the confirmation was
    lost; now it waits in the phone's queue, says so, and goes when the network returns."""
    page = browser_page
    table = awaiting_confirmation(page, live_server, club)
    evening = table.evening
    confirm = page.get_by_test_id("confirm-1-EW")
    confirm.wait_for()

    page.context.set_offline(True)
    confirm.click()
    queue = page.get_by_test_id("phone-queue")
    queue.filter(
        has_text="Not sent yet: 1 answer waiting (East-West's confirmation of hand 1)"
    ).wait_for(timeout=5000)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "interrupted-2-confirmation-offline")
    assert confirmations.waiting_at_table(table=table, rubber=evening.rubbers.get())

    page.context.set_offline(False)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 1 confirmed by East-West.").wait_for(
        timeout=8000
    )
    assert queue.is_hidden()
    rubber = evening.rubbers.get()
    assert HandConfirmation.objects.get(hand__rubber=rubber, hand__number=1).state == "confirmed"
    assert not confirmations.waiting_at_table(table=table, rubber=rubber)


def test_settling_a_dispute_keeps_what_is_typed_elsewhere_on_the_board(
    browser_page, live_server, club, secretary
):
    """The secretary is typing a newcomer's name when he settles a disputed hand. The
    settle's answer replaced the whole board (every other button's answer is morphed in),
    and the name went with it."""
    table = confirming_table(club)
    evening = table.evening
    rubber = evening.rubbers.get()
    confirmations.hand_dispute(
        rubber_id=rubber.pk, number=1, by="EW", data={"makers": "NS", "tricks": 2}, table=table
    )
    page = browser_page
    open_board(page, live_server, evening)
    dispute = page.get_by_test_id("dispute-table-1-hand-1")
    dispute.get_by_test_id("settle-reason").fill("Bob showed the last trick")
    page.fill("#arrive-player", "Zed")
    with page.expect_response(re.compile(r"/settle/$")):
        dispute.get_by_test_id("settle").click()
    settled(page)
    page.get_by_text("Hand 1 settled as disputed, and corrected").wait_for()
    assert page.input_value("#arrive-player") == "Zed"
    assert page.get_by_test_id("dispute-table-1-hand-1").count() == 0
    assert rubber.hands.get(number=1).data["tricks"] == 2
    shot(page, "interrupted-3-settled-name-kept")


def test_a_reason_typed_for_closing_stays_with_its_rubber_when_another_ends(
    browser_page, live_server, club, secretary
):
    """The secretary starts closing: he types why table 2's rubber was abandoned, and
    table 1's rubber ends meanwhile, leaving the closing form's list. The board's poll
    morphed the list and, its fields having no ids, gave table 1's place to table 2's
    fields and dropped the field typed in: the reason vanished."""
    evening = open_evening(club)
    seat_four(evening)
    for name in ["Edith", "Fred", "Gus", "Hal"]:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    evenings.evening_act(
        evening_id=evening.pk,
        event={"type": "cut", "cards": {"Edith": "JH", "Fred": "AH", "Gus": "KH", "Hal": "QH"}},
    )
    page = browser_page
    page.clock.install()  # the board's own clock: its poll is run forward, not waited for
    open_board(page, live_server, evening)
    second = page.get_by_test_id("unfinished-2-1")
    second.locator("input[value=abandoned]").check()
    second.get_by_role("textbox").fill("Hal was called home")

    rubber = evening.rubbers.get(table__number=1)
    while rubber.status != rubber.Status.COMPLETE:  # N-S march until the rubber is over
        recording.hand_record(
            evening_id=evening.pk, table_number=1, data={"makers": "NS", "tricks": 5}
        )
        rubber.refresh_from_db()
    polled(page, f"/secretary/evenings/{evening.pk}/board/", run_for=BOARD_POLL_MS)
    page.get_by_test_id("unfinished-1-1").wait_for(state="detached")
    settled(page)
    second = page.get_by_test_id("unfinished-2-1")
    assert second.get_by_role("textbox").input_value() == "Hal was called home"
    assert second.locator("input[value=abandoned]").is_checked()
    shot(page, "interrupted-4-closing-reason-kept")


def test_a_dispute_being_typed_stays_when_the_next_hand_is_recorded(
    browser_page, live_server, club
):
    """East-West are typing their version of hand 1 when North-South's phone records hand
    2. The phone's poll brought the hands waiting anew and replaced them whole: the
    dispute being typed closed and lost what was typed."""
    page = browser_page
    page.clock.install()  # the phone's own clock: its poll is run forward, not waited for
    table = awaiting_confirmation(page, live_server, club)
    evening = table.evening
    page.get_by_test_id("dispute-1").click()
    block = page.get_by_test_id("confirm-hand-1")
    block.locator("input[name=tricks]").fill("2")

    recording.hand_record(
        evening_id=evening.pk, table_number=1, data={"makers": "EW", "tricks": 3}, table=table
    )
    # The poll (every 3 s) brings the sheet with hand 2; the hands waiting are left as they
    # are.
    page.clock.run_for(3_000)
    page.locator("#table-sheet").get_by_text("E-W make, 3 tricks").wait_for(timeout=8000)
    settled(page)
    assert block.locator("details").first.get_attribute("open") is not None
    assert block.locator("input[name=tricks]").input_value() == "2"
    shot(page, "interrupted-5-dispute-kept")
    block.get_by_test_id("dispute-send-1").click()
    page.get_by_test_id("phone-notice").filter(has_text="Hand 1 disputed by East-West").wait_for()
    assert HandConfirmation.objects.get(hand__number=1).disputed_version["tricks"] == 2
    # Sent, the dispute brings the hands waiting up to date: hand 2, to confirm.
    page.get_by_test_id("confirm-2-NS").wait_for()


def test_a_correction_queued_while_the_next_rubber_was_played_never_changes_that_rubber(
    browser_page, live_server, club
):
    """The phone corrects the last hand of a finished rubber with the Wi-Fi gone and comes
    back only once the next rubber has as many hands. The correction named a hand by its
    number alone and the service took the table's latest rubber: it silently changed the
    new rubber's hand of that number. It now names its rubber, which the laws no longer let
    the table correct (law 5: the next hand was played), and the phone says so."""
    evening = open_evening(club)
    seat_four(evening)
    table = evening.tables.get(number=1)
    first = evening.rubbers.get()
    while first.status != first.Status.COMPLETE:  # N-S march until the rubber is over
        recording.hand_record(
            evening_id=evening.pk, table_number=1, data={"makers": "NS", "tricks": 5}
        )
        first.refresh_from_db()
    last = first.hand_count
    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/t/{table.token}/")
    page.get_by_text("The rubber is over.").wait_for()

    page.context.set_offline(True)
    page.get_by_test_id("last-hand").locator("summary").first.click()
    form = page.locator("form.correct")
    form.locator("input[name=tricks]").fill("4")
    form.get_by_test_id("correct-hand").click()
    page.get_by_test_id("phone-queue").filter(has_text=f"correction of hand {last}").wait_for()

    # The four cut again and play the next rubber's first hands, one point each way.
    while evenings.evening_state(Evening.objects.get(pk=evening.pk)).pending:
        evenings.evening_act(evening_id=evening.pk, event={"type": "cut", "draw": True})
    second = evening.rubbers.exclude(pk=first.pk).get()
    for number in range(1, last + 1):
        makers = "NS" if number % 2 else "EW"
        recording.hand_record(
            evening_id=evening.pk, table_number=1, data={"makers": makers, "tricks": 3}
        )
    before = list(second.hands.order_by("number").values_list("data", flat=True))

    page.context.set_offline(False)
    refusal = page.get_by_test_id("phone-error")
    refusal.wait_for(timeout=8000)
    assert "Not recorded." in refusal.inner_text()
    said = refusal.inner_text()
    assert f"This correction was of hand {last} of the rubber before this one" in said
    shot(page, "interrupted-6-late-correction-refused")
    # The refused correction is not offered again as one of the new rubber's hand.
    assert page.get_by_test_id("last-hand").get_attribute("open") is None
    assert page.locator("form.correct input[name=tricks]").input_value() == "3"
    assert list(second.hands.order_by("number").values_list("data", flat=True)) == before
    assert first.hands.get(number=last).data["tricks"] == 5


def test_a_hand_queued_for_a_rubber_that_ended_is_not_recorded_in_the_next(
    browser_page, live_server, club
):
    """The phone enters hand 2 with the Wi-Fi gone; the other phone records the rubber to
    its end, the four cut again and play the next rubber's first hand. The queued hand,
    sent as the table's hand 2, was recorded as the new rubber's hand 2. It names its
    rubber now, and the phone is told it was not recorded."""
    evening = open_evening(club)
    seat_four(evening)
    table = evening.tables.get(number=1)
    first = evening.rubbers.get()
    recording.hand_record(evening_id=evening.pk, table_number=1, data={"makers": "NS", "tricks": 5})
    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/t/{table.token}/")
    page.context.set_offline(True)
    form = page.locator("form.hand[data-kind=record]")
    form.locator("input[name=makers][value=EW]").check()
    form.locator("input[name=tricks]").fill("3")
    form.get_by_test_id("record-hand").click()
    page.get_by_test_id("phone-queue").filter(has_text="(hand 2)").wait_for()

    while first.status != first.Status.COMPLETE:  # N-S march until the rubber is over
        recording.hand_record(
            evening_id=evening.pk, table_number=1, data={"makers": "NS", "tricks": 5}
        )
        first.refresh_from_db()
    played = first.hand_count
    while evenings.evening_state(Evening.objects.get(pk=evening.pk)).pending:
        evenings.evening_act(evening_id=evening.pk, event={"type": "cut", "draw": True})
    second = evening.rubbers.exclude(pk=first.pk).get()
    recording.hand_record(evening_id=evening.pk, table_number=1, data={"makers": "NS", "tricks": 3})

    page.context.set_offline(False)
    refusal = page.get_by_test_id("phone-error")
    refusal.wait_for(timeout=8000)
    assert "Not recorded." in refusal.inner_text()
    assert "rubber before this one" in refusal.inner_text()
    shot(page, "interrupted-7-queued-hand-of-an-ended-rubber")
    assert second.hands.count() == 1
    assert first.hands.count() == played


def test_reloading_or_going_back_after_adding_someone_does_not_post_again(
    browser_page, live_server, club, secretary
):
    """The secretary adds a tournament director on the club's people page, then reloads
    the page (or goes back to it). The page was the answer to his post, so the browser
    sent the form again, and he was told the account he had just made already exists."""
    from tests.browser import log_in

    page = browser_page
    log_in(page, live_server)
    people = f"{live_server.url}/secretary/clubs/{club.slug}/people/"
    page.goto(people)
    page.fill("input[name=username]", "tom")
    page.fill("input[name=full_name]", "Tom Moore")
    page.select_option("select[name=role]", "director")
    page.fill("input[name=password]", "a long and unusual passphrase 1888")
    page.fill("input[name=password2]", "a long and unusual passphrase 1888")
    page.get_by_test_id("add-officer").click()
    page.get_by_text("A new account, tom, is now a tournament director of the club.").wait_for()
    assert page.url == people

    page.reload()
    assert page.get_by_role("alert").count() == 0
    assert "of the club already" not in page.locator("main").inner_text()
    assert page.get_by_text("A new account, tom").count() == 0  # said once, not again
    page.goto(f"{live_server.url}/secretary/")
    page.go_back()
    assert page.get_by_role("alert").count() == 0
    assert list(club.directors.values_list("username", flat=True)) == ["tom"]


def test_a_late_correction_sent_after_the_login_ran_out_is_kept_and_made_after_logging_in(
    browser_page, live_server, club, secretary, settings
):
    """The secretary's login runs out while he types a late correction of hand 1 on the
    rubber's page. Sending it led to the login page, and logging in to the address the form
    posted to, which only takes posts: a bare 'method not allowed' page, and no word that
    the correction was not made. He was then told so, and logging in brought him back to
    the rubber, but what he had typed was gone. Now he is brought back to hand 1's
    correction as he typed it (kept in the tab: static/js/keep-typed.js, under the
    production Content-Security-Policy), sends it, and it is made and forgotten."""
    from tests.browser import log_in

    settings.CSP_ENABLED = True
    evening = open_evening(club)
    seat_four(evening)
    for hand in ({"makers": "NS", "tricks": 4}, {"makers": "EW", "tricks": 3}):
        recording.hand_record(evening_id=evening.pk, table_number=1, data=hand)
    rubber = evening.rubbers.get()
    page = browser_page
    log_in(page, live_server)
    page.goto(f"{live_server.url}/clubs/{club.slug}/rubbers/{rubber.pk}/?correct=1#corrections")
    form = page.locator("#correct-form")
    form.locator("input[name=makers][value=EW]").check()
    form.locator("input[name=tricks]").fill("3")
    form.locator("details.irregular summary").click()
    form.locator("input[name=revokes_NS]").fill("1")
    form.locator("textarea[name=reason]").fill("E-W made it, and N-S revoked")
    log_out_behind_the_page(page)
    form.get_by_test_id("correct-hand").click()
    page.wait_for_url(re.compile(r"/accounts/login/"))
    assert "You were logged out: the change was not made" in page.locator("main").inner_text()
    shot(page, "interrupted-8-logged-out-correction")

    page.fill("input[name=username]", "secretary")
    page.fill("input[name=password]", "correct horse battery")
    with page.expect_navigation() as landed:
        page.click("button[type=submit]")
    assert landed.value.status == 200
    assert page.url.endswith(
        f"/clubs/{club.slug}/rubbers/{rubber.pk}/?correct=1&resume=1#corrections"
    )
    assert rubber.hands.get(number=1).data["tricks"] == 4  # nothing was made meanwhile
    assert form.locator("input[name=number]").input_value() == "1"
    assert form.locator("input[name=makers][value=EW]").is_checked()
    assert form.locator("input[name=tricks]").input_value() == "3"
    assert form.locator("details.irregular").get_attribute("open") is not None
    assert form.locator("input[name=revokes_NS]").input_value() == "1"
    assert form.locator("textarea[name=reason]").input_value() == "E-W made it, and N-S revoked"
    shot(page, "interrupted-9-correction-kept-through-the-login")
    kept = page.evaluate("Object.keys(sessionStorage)")
    assert f"cardclub-typed:rubber-{rubber.pk}:correct-form:1" in kept, kept

    form.get_by_test_id("correct-hand").click()
    page.get_by_text("Hand 1 corrected").wait_for()
    corrected = rubber.hands.get(number=1).data
    assert (corrected["makers"], corrected["tricks"], corrected["revokes"]) == ("EW", 3, ["NS"])
    assert not [key for key in page.evaluate("Object.keys(sessionStorage)") if "typed" in key]
    assert form.locator("textarea[name=reason]").input_value() == ""
