"""A Call-Ace table's phone once its sitting is closed and settled (ruling C5), as a player
meets it on a 360 px phone in Debian's chromium: no deal of the settled sitting offered for
correction or taking back, the page saying the sitting was settled, that a new sitting
begins with its deal 1 and who deals it, and nothing wider than the screen. (The words
and the refusal of a correction sent anyway: tests/club/test_phone_rubber_end.py.)
Screenshot in artifacts/screenshots/phone-sitting-settled-360.png."""

import pytest

from club import evenings, recording
from tests.browser import PHONE, shot
from tests.worlds import bridge_and_call_ace_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = "document.documentElement.scrollWidth"


def test_a_settled_sittings_phone_offers_nothing_to_correct_and_names_the_next_dealer(
    browser_page, live_server, played
):
    world = bridge_and_call_ace_in_play(played.club)
    table, order = world.call_ace, world.call_ace_order
    for maker in order[1:3]:
        recording.hand_record(
            evening_id=table.evening_id, table_number=1, data={"maker": maker, "tricks": 3}
        )
    evenings.evening_close_sitting(evening_id=table.evening_id, table_number=1)

    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/t/{table.token}/")
    main = " ".join(page.locator("main").inner_text().split())
    assert "The sitting was closed and settled (ruling C5)." in main
    # Three deals dealt from order[0]: the deal passes on to order[3] (law 3).
    assert f"A new sitting begins with its deal 1, which {order[3]} deals." in main
    assert page.get_by_text("Correct deal", exact=False).count() == 0
    assert page.get_by_text("Take back deal", exact=False).count() == 0
    assert page.locator("form.hand[data-kind=record]").is_visible()  # the next deal, to enter
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "phone-sitting-settled-360")
