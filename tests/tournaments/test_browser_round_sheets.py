"""A round's score sheets printed at once from the director's page, in Debian's chromium:
every table of the round on one page, each printed on an A4 page of its own (a CSS page
break after each), headed with the club, the tournament, the round and the table, its
players and its totals readable on paper. Screenshots in
artifacts/screenshots/round-sheets-*.png."""

import re

import pytest

from club import recording
from tests.browser import log_in, shot
from tests.club.test_browser_table_cards import pdf_pages
from tests.tournaments.round_sheets import (
    PRINTABLE_PX,
    all_a4,
    as_printed,
    open_sheets,
    round_one_seated,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def hand(makers: str, tricks: int) -> dict:
    return {"makers": makers, "tricks": tricks, "alone": False}


@pytest.fixture
def three_tables(club, roster, secretary):
    """Round 1 seated at three tables (round_one_seated): table 1's rubber won by N-S
    (three games of march, march, three tricks), table 2 two hands in, table 3 nothing
    recorded yet."""
    tournament, played = round_one_seated(club, secretary)
    one = played.tables.get(number=1).rubber_id
    for _ in range(3):
        for tricks in (5, 5, 3):
            recording.hand_record(rubber_id=one, data=hand("NS", tricks))
    two = played.tables.get(number=2).rubber_id
    recording.hand_record(rubber_id=two, data=hand("EW", 3))
    recording.hand_record(rubber_id=two, data=hand("NS", 4))
    return tournament


def test_a_rounds_sheets_print_one_table_to_a_page(browser_page, live_server, three_tables):
    page = browser_page
    log_in(page, live_server)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/secretary/tournaments/{three_tables.pk}/")
    page.get_by_test_id("round-sheets-1").click()
    page.wait_for_url(re.compile(r"/rounds/1/sheets/$"))
    shot(page, "round-sheets-1280")

    seating = {t["number"]: t["seats"] for t in three_tables.rounds.get().seating["tables"]}
    sheets = page.get_by_test_id("round-sheet")
    assert sheets.count() == 3
    expected = {
        1: ("Won by", "Rubber to", "Total"),
        2: ("Still being played: 2 hands recorded so far.", "Score so far"),
        3: ("Still being played: 0 hands recorded so far.", "No hand played yet."),
    }
    for number, seats in seating.items():
        sheet = page.locator(f"[data-testid=round-sheet][data-table='{number}']")
        text = " ".join(sheet.inner_text().split())
        assert f"Round 1, table {number}" in text
        assert f"N-S {seats['N']} & {seats['S']} · E-W {seats['E']} & {seats['W']}" in text
        for words in expected[number]:
            assert words in text, (number, words)
    # Table 1's rubber: N-S won every game, each a double (ruling E3), and the rubber.
    total = page.locator("[data-table='1'] .sheet-rubber tr.total td")
    assert [total.nth(i).inner_text() for i in range(2)] == ["8", "0"]

    # On a phone the page itself never scrolls sideways.
    page.set_viewport_size({"width": 360, "height": 740})
    assert page.evaluate("document.documentElement.scrollWidth <= 360")
    shot(page, "round-sheets-360")

    # On paper: laid out at the printable width, each sheet fits a page and ends it.
    as_printed(page)
    assert page.get_by_role("link", name="Spring progressive").is_hidden()  # no crumbs
    laid = page.evaluate(
        "[...document.querySelectorAll('[data-testid=round-sheet]')].map(s => ["
        "s.getBoundingClientRect().height, getComputedStyle(s).breakAfter, s.innerText])"
    )
    assert [after for _, after, _ in laid] == ["page", "page", "auto"]
    for height, _, text in laid:
        assert height <= PRINTABLE_PX[1]
        assert "Somerset" in text or three_tables.club.name in text  # whose sheet it is
    shot(page, "round-sheets-print")

    pdf = page.pdf(prefer_css_page_size=True, print_background=False)
    pages = pdf_pages(pdf)
    assert len(pages) == 3  # one A4 page a table, upright
    assert all_a4(pages), pages


def test_a_round_of_no_stake_prints_not_played_for_money(browser_page, live_server, three_tables):
    """Ruling P2: the progressive has no stake, so table 1's finished rubber settles
    nothing; its printed sheet listed "0.00 USD" for each of its four players. It says in
    words that it was not played for money."""
    page = browser_page
    open_sheets(page, live_server, three_tables)
    page.emulate_media(media="print")
    sheet = page.locator("[data-testid=round-sheet][data-table='1']")
    words = sheet.get_by_test_id("not-for-money")
    assert words.is_visible()
    assert " ".join(words.inner_text().split()) == (
        "Not played for money: a progressive without a stake settles nothing (ruling P2)."
    )
    assert "0.00" not in sheet.inner_text()
    assert sheet.locator("table.ledger").count() == 0
    shot(page, "round-sheets-no-stake-print")
