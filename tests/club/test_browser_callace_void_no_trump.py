"""A Call-Ace deal that no one made trumps in is recorded from a table's phone, in
Debian's chromium at a phone's width: the deal is void and passes to the player on the
dealer's left (law 17). The phone's Maker list was required, so the browser refused to
send a void deal with no maker; the only way to record it was to name a maker, which made
it a void deal under law 6 or 50, dealt again by the same dealer. A deal with no maker
that is not void is refused by the service, naming the field and the law (law 15).
Screenshots in artifacts/screenshots/callace-void-no-trump-*.png."""

import pytest

from scoring.models import Hand
from tests.browser import PHONE, open_phone, refusal_shown, shot
from tests.worlds import bridge_and_call_ace_in_play, club_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def call_ace(django_capture_on_commit_callbacks):
    """A Call-Ace table of five, deal 1 recorded (its first dealer's, the deal passed)."""
    played = club_in_play(django_capture_on_commit_callbacks)
    return bridge_and_call_ace_in_play(played.club)


def test_a_deal_no_one_made_trumps_in_is_void_and_the_deal_passes(
    browser_page, live_server, call_ace
):
    order = call_ace.call_ace_order
    page = open_phone(browser_page, f"{live_server.url}/t/{call_ace.call_ace.token}/")
    dealer = page.get_by_test_id("dealer")
    assert dealer.inner_text().startswith(f"{order[1]} deals deal 2")
    form = page.locator("form.hand[data-kind=record]")
    form.locator("details.irregular summary").click()
    form.locator("input[name=void][value=no_trump]").check()
    form.get_by_test_id("record-hand").click()
    page.get_by_test_id("phone-notice").filter(has_text="Deal 2 recorded").wait_for()
    deal = Hand.objects.get(rubber__table=call_ace.call_ace, number=2).data
    assert deal["void"] and deal.get("maker") is None
    # Law 17: the void deal passes to the player on the dealer's left.
    dealer.filter(has_text=f"{order[2]} deals deal 3").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "callace-void-no-trump-recorded")


def test_a_deal_with_no_maker_that_is_not_void_is_refused_by_name(
    browser_page, live_server, call_ace
):
    page = open_phone(browser_page, f"{live_server.url}/t/{call_ace.call_ace.token}/")
    form = page.locator("form.hand[data-kind=record]")
    form.locator("input[name=tricks]").fill("3")
    form.get_by_test_id("record-hand").click()
    assert "The maker: say who made the trump (law 15)" in refusal_shown(page)
    assert Hand.objects.filter(rubber__table=call_ace.call_ace).count() == 1
    # What was typed is still there to be finished.
    assert form.locator("input[name=tricks]").input_value() == "3"
    shot(page, "callace-void-no-trump-refused")
