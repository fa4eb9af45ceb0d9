"""A progressive's table's phone (`/p/<token>/`, Debian's chromium at 360 px) with the
network gone: a take-back or a correction of the last deal waiting in the phone's queue is
not offered again (a second tap would be refused once the first is made, "taken back
already", and listed as a refusal), nor is the deal being taken back offered for
correction; the form says it is waiting, and the change is made
once the network returns (law 5, ruling E9). Screenshots in
artifacts/screenshots/table-phone-waiting-*.png."""

import pytest

from club import recording
from scoring.models import RemovedHand
from tests.browser import fill_hand, shot
from tests.tournaments.test_table_phone import at_table, hands
from tournaments import rounds
from tournaments.models import TournamentTable

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
WIDTH = "document.documentElement.scrollWidth"


@pytest.fixture
def two_deals(make, director):
    """A rotation progressive of two deals a round, round 1 seated, deal 1 (N-S, three
    tricks) recorded at table 1: its round not over there, so the deal may be taken back."""
    tournament = make("rotation", deals=2)
    rounds.round_seat_next(tournament_id=tournament.pk, user=director)
    recording.hand_record(
        rubber_id=at_table(tournament).rubber_id, data={"makers": "NS", "tricks": 3}
    )
    return tournament


def on_phone(page, live_server, tournament):
    page.set_viewport_size(PHONE)
    page.set_default_timeout(10_000)
    token = TournamentTable.objects.get(tournament=tournament, number=1).token
    page.goto(f"{live_server.url}/p/{token}/")
    answers = []
    page.on("response", lambda r: answers.append(r.status) if r.request.method == "POST" else None)
    return answers


def back_online(page):
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")


def test_a_take_back_waiting_at_a_progressives_table_is_not_offered_again(
    browser_page, live_server, two_deals
):
    page = browser_page
    answers = on_phone(page, live_server, two_deals)
    panel = page.get_by_test_id("take-back")
    panel.locator("summary", has_text="Take back hand 1").click()
    page.context.set_offline(True)
    panel.get_by_role("button", name="Yes, take back hand 1").click()
    page.get_by_test_id("phone-queue").filter(has_text="(take-back of hand 1)").wait_for()
    note = page.get_by_test_id("change-waiting")
    assert note.inner_text().startswith("Take-back of hand 1 waiting to be sent")
    button = page.get_by_test_id("take-back-hand")
    assert button.is_hidden() and button.is_disabled()
    # Nor is the hand offered for correction meanwhile: it is being taken back.
    held = page.get_by_test_id("correction-held")
    assert held.inner_text().startswith(
        "Hand 1 is being taken back, so it is not offered for correction"
    )
    assert page.get_by_test_id("last-hand").is_hidden()
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "table-phone-waiting-1-take-back")

    back_online(page)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 1 taken back").wait_for()
    assert answers == [200]
    assert hands(at_table(two_deals)) == []
    assert RemovedHand.objects.count() == 1
    assert page.get_by_test_id("phone-refused").is_hidden()
    assert page.get_by_test_id("change-waiting").count() == 0
    assert held.count() == 0


def test_a_correction_waiting_at_a_progressives_table_is_not_offered_again(
    browser_page, live_server, two_deals
):
    page = browser_page
    answers = on_phone(page, live_server, two_deals)
    panel = page.get_by_test_id("last-hand")
    panel.locator("summary").first.click()
    form = panel.locator("form.correct")
    page.context.set_offline(True)
    form.locator("input[name=tricks]").fill("5")
    form.get_by_test_id("correct-hand").click()
    page.get_by_test_id("phone-queue").filter(has_text="(correction of hand 1)").wait_for()
    note = page.get_by_test_id("change-waiting")
    assert note.inner_text().startswith("Correction of hand 1 waiting to be sent")
    assert form.get_by_test_id("correct-hand").is_hidden()
    assert page.evaluate(WIDTH) <= PHONE["width"]

    back_online(page)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 1 corrected.").wait_for()
    assert answers == [200]
    assert [d["tricks"] for d in hands(at_table(two_deals))] == [5]
    assert page.get_by_test_id("change-waiting").count() == 0


def test_a_progressives_last_deal_is_not_offered_for_change_while_the_next_waits(
    browser_page, live_server, two_deals
):
    """The next deal entered on this phone waits (the network gone): the last deal is not
    offered for correction nor taken back meanwhile, either being refused once the next
    is recorded (law 5, ruling E9); the page says why."""
    page = browser_page
    answers = on_phone(page, live_server, two_deals)
    assert page.get_by_test_id("take-back").is_visible()
    page.context.set_offline(True)
    fill_hand(page, makers="EW", tricks=4).get_by_test_id("record-hand").click()
    page.get_by_test_id("phone-queue").filter(has_text="(hand 2)").wait_for()
    held = page.get_by_test_id("later-hand-waiting")
    held.wait_for()
    assert held.inner_text().startswith(
        "Hand 1 is not offered for correction or take-back while hand 2, entered on this "
        "phone, waits to be sent"
    )
    assert page.get_by_test_id("last-hand").is_hidden()
    assert page.get_by_test_id("take-back").is_hidden()
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "table-phone-waiting-3-later-deal")

    back_online(page)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded").wait_for()
    assert answers == [200]
    assert held.count() == 0
    assert [d["makers"] for d in hands(at_table(two_deals))] == ["NS", "EW"]
