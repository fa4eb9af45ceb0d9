"""A table's link renewed on one board reaches a second board showing the evening at its
next poll, in Debian's chromium: the secretary's laptop (1280 px) gives table 1 a fresh
link, and his phone beside it (360 px, a browser context of its own), polling the same
board, shows the new link's address within its next poll, never the dead one. Renewing a
link moves no version of the evening (it is no event of its log): the board's ETag holds
the tables' links too (club.views_board), or the phone's polls were answered "unchanged"
and kept the old card's link until the evening moved on for another reason. Each page's
clock is run forward by the board's poll, not waited for. Screenshot in
artifacts/screenshots/second-board-link.png."""

import pytest

from club.models import Table
from tests.browser import PHONE, log_in, polled, settled, shot
from tests.club.test_browser_board_live import BOARD_POLL_MS
from tests.worlds import euchre_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 900}


def board_on(page, live_server, evening, size) -> None:
    page.set_viewport_size(size)
    page.clock.install()  # the board's own clock: its polls are run forward
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/evenings/{evening.pk}/")
    settled(page)


def link_shown(page) -> str:
    return page.get_by_test_id("table-link-1").get_attribute("href")


def test_a_link_renewed_on_one_board_reaches_the_other_at_its_next_poll(
    browser_page, live_server, club, secretary
):
    evening = euchre_table(club)
    laptop = browser_page
    board_on(laptop, live_server, evening, LAPTOP)
    phone = laptop.context.browser.new_context().new_page()
    phone.set_default_timeout(10_000)
    board_on(phone, live_server, evening, PHONE)
    old = Table.objects.get(evening=evening, number=1).token
    assert f"/t/{old}/" in link_shown(phone)
    path = f"/secretary/evenings/{evening.pk}/board/"
    polled(phone, path, run_for=BOARD_POLL_MS)  # unchanged: answered 304
    assert f"/t/{old}/" in link_shown(phone)

    laptop.on("dialog", lambda dialog: dialog.accept())
    with laptop.expect_response(lambda r: r.url.endswith("/action/")):
        laptop.get_by_test_id("new-link-1").click()
    settled(laptop)
    new = Table.objects.get(evening=evening, number=1).token
    assert new != old and f"/t/{new}/" in link_shown(laptop)

    polled(phone, path, run_for=BOARD_POLL_MS)  # the phone's next poll
    assert f"/t/{new}/" in link_shown(phone), link_shown(phone)
    assert old not in phone.locator("#board").inner_html()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "second-board-link")
