"""While a take-back waits in the phone's queue (offline), the Call-Ace dealer the phone
shows is the one the table will have once it is made, in Debian's chromium at a phone's
width (static/js/phone-queue.js, followQueue): a deal its dealer deals again (both sides
revoked, law 42) passed no deal on, so taking it back leaves the same dealer; a deal that
passed the deal to the left (law 3) gives it back. The queue took one pass back for every
take-back, so after a deal dealt again the phone named the player on the dealer's right.
Screenshot in artifacts/screenshots/phone-call-ace-dealer-*.png."""

import pytest

from club import recording
from tests.browser import PHONE, open_phone, shot
from tests.worlds import bridge_and_call_ace_in_play, club_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def call_ace(django_capture_on_commit_callbacks):
    """A Call-Ace table of five, deal 1 recorded (its first dealer's, the deal passed)."""
    played = club_in_play(django_capture_on_commit_callbacks)
    return bridge_and_call_ace_in_play(played.club)


def take_back_offline(page, number: int) -> None:
    page.context.set_offline(True)
    panel = page.get_by_test_id("take-back")
    panel.locator("summary", has_text=f"Take back deal {number}").click()
    panel.get_by_role("button", name=f"Yes, take back deal {number}").click()
    page.get_by_test_id("phone-queue").filter(
        has_text=f"Not sent yet: 1 take-back waiting (take-back of deal {number})"
    ).wait_for()


@pytest.mark.parametrize(
    ("deal_2", "dealt_again"),
    [({"revoke": "both"}, True), ({"tricks": 3}, False)],
    ids=["both-revoked", "passed"],
)
def test_the_dealer_shown_while_a_take_back_waits_is_exact(
    browser_page, live_server, call_ace, deal_2, dealt_again
):
    order = call_ace.call_ace_order
    table = call_ace.call_ace
    recording.hand_record(
        evening_id=table.evening_id, table_number=1, data={"maker": order[1], **deal_2}
    )
    page = open_phone(browser_page, f"{live_server.url}/t/{table.token}/")
    dealer = page.get_by_test_id("dealer")
    # Deal 2 was order[1]'s to deal (deal 1 passed it on); after it, deal 3 is his again
    # when both sides revoked (law 42), else the next player's on his left's.
    after = order[1] if dealt_again else order[2]
    assert dealer.inner_text().startswith(f"{after} deals deal 3")
    take_back_offline(page, 2)
    # Deal 2 off the sheet: order[1] deals deal 2 again, whichever deal it was.
    dealer.filter(has_text=f"{order[1]} deals deal 2;").wait_for()
    dealing = page.locator("[data-seat-at].deals")
    assert dealing.count() == 1 and order[1] in dealing.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, f"phone-call-ace-dealer-{'again' if dealt_again else 'passed'}")
    page.context.set_offline(False)
    page.get_by_test_id("phone-notice").filter(has_text="Deal 2 taken back").wait_for()
    assert dealer.inner_text().startswith(f"{order[1]} deals deal 2;")
