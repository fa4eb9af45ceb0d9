"""The other side's confirmation tapped twice on a slow network, in Debian's chromium at a
phone's 360 px: the first tap's request is slow to come back and the player, seeing
nothing happen, taps "Confirm" again. The second was queued too, and once the first was
made it was refused ("Not recorded. Hand 2 is already confirmed."), the phone saying in
red that the confirmation failed when it had been made. While an answer to a hand waits
in the queue, its buttons are now put away and the form says it is waiting, as for a
correction or a take-back (static/js/phone-queue.js, showWaitingChanges).
Screenshot in artifacts/screenshots/phone-confirm-twice.png."""

import re

import pytest

from club.models import HandConfirmation
from tests.browser import enter_hand, open_phone, shot, stop_clock
from tests.worlds import club_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANSWER = re.compile(r"/answer/$")


@pytest.fixture
def played(django_capture_on_commit_callbacks):
    """Table 1 of a Euchre evening at a club whose hands the other side confirms (law 5,
    ruling E9: a hand may be questioned); hand 1 recorded."""
    world = club_in_play(django_capture_on_commit_callbacks)
    world.club.confirm_hands = True
    world.club.save()
    return world


def test_a_confirmation_tapped_twice_is_made_once_and_said_made(browser_page, live_server, played):
    page = browser_page
    page.clock.install()
    open_phone(page, f"{live_server.url}/t/{played.table.token}/")
    enter_hand(page, makers="NS", tricks=3)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    # Held still from here (stop_clock): the confirmation held on its way below passes its
    # 15 s limit (and is sent again) only if the test runs the clock there, never by itself
    # while a loaded machine is slow (the installed clock ran in real time).
    stop_clock(page)
    held = []
    answers = []
    page.route(ANSWER, lambda route: held.append(route) if not held else route.continue_())
    page.on("response", lambda r: answers.append(r.status) if ANSWER.search(r.url) else None)
    confirm = page.get_by_test_id("confirm-hand-2")
    confirm.get_by_role("button", name="Confirm (East-West)").click()
    while not held:  # on its way, slowly
        page.wait_for_timeout(20)
    page.clock.run_for(2_000)  # past the double-tap guard: nothing seems to happen

    # The button is not offered again while the confirmation waits; the form says so.
    assert confirm.get_by_role("button", name="Confirm (East-West)").is_hidden()
    waiting = confirm.get_by_test_id("change-waiting").first  # the dispute's form says it too
    assert " ".join(waiting.inner_text().split()).startswith(
        "East-West's confirmation of hand 2 waiting to be sent"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "phone-confirm-twice")
    # A tap that reaches the form anyway (the Enter key) queues nothing more.
    page.evaluate("document.querySelector('form[data-kind=answer]:not(.dispute)').requestSubmit()")
    held[0].continue_()
    page.get_by_test_id("phone-queue").wait_for(state="hidden")
    page.clock.run_for(4_000)  # past the queue's retry: nothing else goes
    assert answers == [200]
    assert list(HandConfirmation.objects.values_list("state", flat=True)) == ["confirmed"]
    assert page.get_by_test_id("phone-error").count() == 0
    refused = page.get_by_test_id("phone-refused")
    assert refused.count() == 0 or refused.is_hidden()
