"""The secretary changes the sheet while a phone at the table keeps a hand it could not
send, in Debian's chromium at a phone's 360 px: the phone, its network gone, keeps hand 3;
meanwhile the secretary takes hand 2 back (law 5, ruling E9: the secretary may change a
hand after the next). Back online, hand 3 is refused, since the sheet now stops at hand
1, and listed in words that count the hands as the sheet has them ("1 hand recorded",
once "1 hands") and name the hand to enter next; nothing is recorded in hand 2's place.
Screenshot in artifacts/screenshots/phone-secretary-meanwhile.png."""

import pytest

from club import recording
from scoring.models import Hand
from tests.browser import enter_hand, enter_hand_offline, open_phone, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_hand_kept_while_the_secretary_took_one_back_is_refused_in_words(
    browser_page, live_server, played
):
    page = browser_page
    page.clock.install()  # its timers run forward where the test says, not waited out
    open_phone(page, f"{live_server.url}/t/{played.table.token}/")
    enter_hand(page, makers="EW", tricks=4)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    page.clock.run_for(1_600)  # past the double-tap guard's 1.5 s
    enter_hand_offline(page, makers="NS", tricks=5, waiting="Not sent yet: 1 hand")

    recording.hand_remove(
        evening_id=played.evening.pk, table_number=1, rubber_number=1, number=2,
        reason="entered at the wrong table", is_secretary=True,
    )  # fmt: skip

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.get_by_test_id("phone-queue").wait_for(state="hidden")
    listed = page.get_by_test_id("refused-hand")
    listed.first.wait_for()
    words = " ".join(listed.first.inner_text().split())
    assert words.startswith("Hand 3 ("), words
    assert (
        "This rubber has 1 hand recorded, so the next is hand 2, not 3; look at the sheet "
        "as it is now." in words
    ), words
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "phone-secretary-meanwhile")
    hands = Hand.objects.filter(rubber=played.rubber).order_by("number")
    assert [(h.data["makers"], h.data["tricks"]) for h in hands] == [("NS", 3)]
