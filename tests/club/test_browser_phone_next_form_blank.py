"""Once a hand is queued, the entry form for the next one is empty, in Debian's chromium at
a phone's width, even when the form had come back holding a refused hand (another phone
at the table recorded that hand first: law 2, ruling E9): the form was reset to what the
page brought, the refused hand, so while the new one waited (offline) the next hand's form
offered the refused hand again, filled in, one tap from being sent as the next hand."""

import pytest

from scoring.models import Hand
from tests.browser import PHONE, enter_at_once, enter_hand, open_two_phones, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_next_hand_s_form_is_empty_once_a_hand_is_queued(browser_page, live_server, played):
    first, second = open_two_phones(browser_page, f"{live_server.url}/t/{played.table.token}/")
    enter_at_once([first, second], tricks=4)  # N-S from the first, E-W from the second
    loser = None
    while loser is None:
        for page in (first, second):
            error = page.get_by_test_id("phone-error")
            if error.count() and "Not recorded." in error.inner_text():
                loser = page
        first.wait_for_timeout(100)
    form = loser.locator("form.hand[data-kind=record]")
    assert form.locator("input[name=tricks]").input_value() == "4"  # kept, to send again
    loser.context.set_offline(True)
    enter_hand(loser, makers="NS", tricks=1)
    loser.get_by_test_id("phone-queue").filter(has_text="Not sent yet: 1 hand").wait_for()
    assert form.locator("input[name=makers]:checked").count() == 0
    assert form.locator("input[name=tricks]").input_value() == ""
    assert form.locator("input[name=alone]").is_checked() is False
    assert form.locator("input[name=revokes_NS]").input_value() == "0"
    assert loser.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(loser, "phone-next-form-blank")
    loser.context.set_offline(False)
    loser.get_by_test_id("phone-notice").filter(has_text="Hand 3 recorded.").wait_for()
    assert [h.data["tricks"] for h in Hand.objects.order_by("number")] == [3, 4, 1]
