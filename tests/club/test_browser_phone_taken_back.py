"""A hand queued on the phone for a rubber the table no longer has (issue: a queued hand
for a rubber that no longer exists), in Debian's chromium at a 360 px phone's width: the
network is cut, a hand is entered, the secretary undoes the cut that began the rubber
and the four cut again; the network returns, and the hand is refused in words, once: the
queue drops it (it is not sent again) and, the hand having waited, lists it until it is
dismissed; the form holds it as typed, nothing is recorded. Screenshot in
artifacts/screenshots/phone-11-rubber-taken-back.png."""

import re

import pytest

from club.evening_undo import evening_undo
from club.models import Table
from scoring.models import Hand, Rubber
from tests.browser import fill_hand, settled, shot
from tests.club.test_rubber_taken_back import cut_again, partners_cut

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


def test_a_queued_hand_for_a_rubber_taken_back_is_refused_once_in_words(
    browser_page, live_server, club
):
    evening = partners_cut(club)
    table = Table.objects.get(evening=evening, number=1)

    page = browser_page
    page.set_viewport_size(PHONE)
    page.clock.install()  # the phone's own clock, run past the queue's retry below
    page.goto(f"{live_server.url}/t/{table.token}/")
    answers = []  # the service's answers to the hand's posts (one offline gets none)
    page.on("response", lambda r: answers.append(r.status) if r.url.endswith("/hand/") else None)
    page.context.set_offline(True)
    form = fill_hand(page, makers="EW", tricks=4)
    form.get_by_test_id("record-hand").click()
    queue = page.get_by_test_id("phone-queue")
    queue.filter(has_text="Not sent yet: 1 hand waiting (hand 1)").wait_for()

    # Meanwhile the secretary undoes the cut for partners and the four cut again.
    evening_undo(evening_id=evening.pk, reason="the wrong pack")
    cut_again(evening)
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")

    error = page.get_by_test_id("phone-error")
    error.wait_for()
    assert re.sub(r"\s+", " ", error.inner_text()) == (
        "Not recorded. This hand was entered for a rubber that table 1 no longer has: the "
        "secretary undid the cut that began it, so the hand was not recorded. Ask the "
        "secretary; if the hand belongs to the rubber now in play, enter it again."
    )
    assert queue.is_hidden()
    # The form holds the hand as typed, ready to send for the new rubber.
    assert form.locator("input[name=makers][value=EW]").is_checked()
    assert form.locator("input[name=tricks]").input_value() == "4"
    new = Rubber.objects.get(evening=evening)
    assert form.locator("input[name=rubber]").input_value() == str(new.pk)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "phone-11-rubber-taken-back")

    # Past the queue's retry (3 s), on the phone's clock: the refused hand is not sent
    # again. A retry sent would mark the queue busy until answered (`settled`).
    page.clock.run_for(4_000)
    settled(page)
    assert answers == [409] and not Hand.objects.exists()
    assert page.evaluate(
        "!JSON.parse(localStorage.getItem('cardclub-phone-queue:' + location.pathname)).length"
    )
    # The hand had waited on the phone: its refusal is also listed until dismissed.
    listed = page.get_by_test_id("refused-hand")
    assert listed.count() == 1
    assert re.match(
        r"Hand 1 \(makers: E-W \w+ & \w+; tricks taken by the makers: 4\) was not "
        r"recorded\. This hand was entered for a rubber that table 1 no longer has",
        re.sub(r"\s+", " ", listed.inner_text()),
    )

    # Sent again from the form, it is the new rubber's hand 1.
    form.get_by_test_id("record-hand").click()
    page.get_by_test_id("phone-notice").filter(has_text="Hand 1 recorded.").wait_for()
    assert list(Hand.objects.values_list("rubber_id", "number")) == [(new.pk, 1)]
