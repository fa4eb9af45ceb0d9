"""A phone whose own later hand waits (the network gone, or its answer not yet back) does
not offer to correct or take back the hand before it, in Debian's chromium at 360 px: sent
after the later hand, either would be refused ("a later hand has been recorded", law 5,
ruling E9) and the table would need the secretary. The page says why; once the later hand
is recorded, it is the one offered. Screenshots in
artifacts/screenshots/phone-later-hand-waiting-*.png."""

import pytest

from tests.browser import PHONE, enter_hand, open_phone, shot
from tests.club.test_browser_phone_take_back import back_online, second_hand_by_mistake
from tests.test_browser_accessibility import grave_violations
from tests.worlds import sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = "document.documentElement.scrollWidth"


def test_hand_2_is_not_offered_for_change_while_this_phones_hand_3_waits(
    browser_page, live_server, played
):
    """Hand 2 recorded; hand 3 entered with the network gone: neither "Correct hand 2"
    nor "Take back hand 2" is offered while hand 3 waits (law 5, ruling E9)."""
    second_hand_by_mistake(played)
    browser_page.set_default_timeout(10_000)
    page = open_phone(browser_page, f"{live_server.url}/t/{played.table.token}/")
    correction = page.get_by_test_id("last-hand")
    take_back = page.get_by_test_id("take-back")
    assert correction.locator("summary").first.inner_text() == "Correct hand 2"
    page.context.set_offline(True)
    enter_hand(page, makers="NS", tricks=3)
    page.get_by_test_id("phone-queue").filter(has_text="(hand 3)").wait_for()
    held = page.get_by_test_id("later-hand-waiting")
    held.wait_for()
    assert held.inner_text().startswith(
        "Hand 2 is not offered for correction or take-back while hand 3, entered on this "
        "phone, waits to be sent (it goes by itself as soon as the connection returns)"
    )
    assert "(law 5, ruling E9)" in held.inner_text()
    assert correction.is_hidden() and take_back.is_hidden()
    for words in ("Correct hand 2", "Take back hand 2"):
        assert page.get_by_text(words, exact=True).filter(visible=True).count() == 0
    assert page.evaluate(WIDTH) <= PHONE["width"]
    assert grave_violations(page) == []
    shot(page, "phone-later-hand-waiting-1-offline")

    back_online(page)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 3 recorded.").wait_for()
    assert held.count() == 0
    assert correction.locator("summary").first.inner_text() == "Correct hand 3"
    assert take_back.locator("summary").inner_text() == "Take back hand 3"
    assert correction.is_visible() and take_back.is_visible()
    assert sheet(played) == [("NS", 3), ("EW", 4), ("NS", 3)]


def test_hand_2_is_not_offered_for_change_while_hand_3_is_on_its_way(
    browser_page, live_server, played
):
    """The same on a slow network: hand 3 sent, its answer not yet back (held here)."""
    second_hand_by_mistake(played)
    browser_page.set_default_timeout(10_000)
    page = open_phone(browser_page, f"{live_server.url}/t/{played.table.token}/")
    held_posts = []
    page.route("**/hand/", lambda route: held_posts.append(route))
    enter_hand(page, makers="NS", tricks=3)
    held = page.get_by_test_id("later-hand-waiting")
    held.wait_for()
    assert "while hand 3, entered on this phone, waits to be sent" in held.inner_text()
    assert page.get_by_test_id("last-hand").is_hidden()
    assert page.get_by_test_id("take-back").is_hidden()
    assert len(held_posts) == 1
    held_posts[0].continue_()
    page.get_by_test_id("phone-notice").filter(has_text="Hand 3 recorded.").wait_for()
    assert held.count() == 0
    assert page.get_by_test_id("take-back").locator("summary").inner_text() == "Take back hand 3"
