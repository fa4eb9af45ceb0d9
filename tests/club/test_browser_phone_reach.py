"""Phones can reach the service (issue #14 item 5), as the secretary meets it in Debian's
chromium: a board opened at a loopback address with no address for the phones says so
plainly, and names the way out (`quickstart --lan` or PUBLIC_BASE_URL); once the phones'
address is set, the board says where the QR codes point and the codes carry it."""

import re

import pytest

from club.phone_links import qr_svg
from tests.browser import log_in, shot
from tests.club.test_browser_table_cards import BASE, five_tables

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_board(page, live_server, evening):
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/evenings/{evening.pk}/")


def test_a_board_on_a_loopback_address_says_phones_cannot_open_its_links(
    browser_page, live_server, club, secretary, settings
):
    settings.PUBLIC_BASE_URL = ""
    evening = five_tables(club)
    open_board(browser_page, live_server, evening)
    warning = browser_page.get_by_test_id("phone-reach")
    assert warning.is_visible()
    assert "Phones cannot open these table links." in warning.inner_text()
    assert "quickstart --lan" in warning.inner_text()
    shot(browser_page, "board-phones-cannot-reach")


def test_with_the_phones_address_set_the_board_says_where_the_codes_point(
    browser_page, live_server, club, secretary, settings
):
    settings.PUBLIC_BASE_URL = BASE  # what quickstart --lan sets
    evening = five_tables(club)
    open_board(browser_page, live_server, evening)
    note = browser_page.get_by_test_id("phone-reach")
    assert note.is_visible() and BASE in note.inner_text()
    table = evening.tables.get(number=1)
    qr = browser_page.request.get(
        f"{live_server.url}/secretary/evenings/{evening.pk}/tables/1/qr.svg"
    )
    assert qr.status == 200
    # The same modules as the code of the phones' link (segno draws it the same way).
    modules = re.compile(r' d="([^"]+)"')
    drawn = modules.findall(qr.text())
    assert drawn and drawn == modules.findall(qr_svg(f"{BASE}/t/{table.token}/"))
