"""A round's score sheets printed at once (Debian's chromium, A4): a very long rubber ran
onto a second page with nothing to say whose it was, a row cut through at the page's
foot. Now each table starts a page; a sheet too long for one goes on at a row, the next
page headed "Round 1, table 1, continued" with its column heads again
(static/js/round-sheets.js), and the other tables' sheets still begin pages of their own.
Checked on the PDF chromium prints (its pages) and on the layout under the print rules."""

import itertools
import re

import pytest

from club import recording
from scoring.models import Hand
from tests.browser import shot
from tests.club.test_browser_table_cards import pdf_pages
from tests.tournaments.round_sheets import (
    PRINTABLE_PX,
    all_a4,
    as_printed,
    open_sheets,
    round_one_seated,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REASON = (
    "The scorer wrote four tricks where three were taken; the players at the table agreed "
    "on it when the cards were counted again at the end of the deal, and the director "
    "heard both sides before putting it right on the table's sheet. "
) * 2


def one_point(makers: str, tricks: int = 3) -> dict:
    return {"makers": makers, "tricks": tricks, "alone": False}


@pytest.fixture
def long_rubber(club, roster, secretary):
    """Round 1 of a rotation progressive at three tables: table 1's rubber three games of
    nine one-point hands each (4-4, then 5-4; rulings E1, E3), every hand corrected by the
    director with a long reason (ruling E9); tables 2 and 3 a hand each."""
    tournament, played = round_one_seated(club, secretary)
    one = played.tables.get(number=1).rubber_id
    number = 0
    for _ in range(3):
        for makers in ["NS", "EW"] * 4 + ["NS"]:
            recording.hand_record(rubber_id=one, data=one_point(makers))
            number += 1
    for hand in Hand.objects.filter(rubber_id=one).order_by("number"):
        makers, n = hand.data["makers"], hand.number
        recording.hand_correct(
            rubber_id=one, number=n, data=one_point(makers, 4), reason=REASON,
            user=secretary, is_secretary=True,
        )  # fmt: skip
    for number in (2, 3):
        rubber = played.tables.get(number=number).rubber_id
        recording.hand_record(rubber_id=rubber, data=one_point("NS"))
    return tournament


def test_a_long_sheet_goes_on_to_a_page_headed_continued(browser_page, live_server, long_rubber):
    page = browser_page
    open_sheets(page, live_server, long_rubber)
    page.wait_for_function("typeof window.roundSheetsPaginate === 'function'")

    pdf = page.pdf(prefer_css_page_size=True, print_background=False)
    pages = pdf_pages(pdf)
    assert all_a4(pages), pages
    # After printing, the sheets on the screen are as they were.
    assert page.locator("[data-testid=sheet-continued]").count() == 0

    # The same layout, under the print rules at the printable width.
    as_printed(page)
    page.evaluate("window.roundSheetsPaginate()")
    marks = page.locator("[data-testid=sheet-continued]")
    assert marks.count() >= 1
    for text in marks.all_inner_texts():
        assert re.fullmatch(r"Round 1, table 1, continued( \(Game \d\))?\.", text), text
    assert len(pages) == 3 + marks.count()  # table 1 on 1 + marks pages, tables 2, 3 one each
    # Each page of table 1 (from its top, or a "continued", to the next) fits the page;
    # the other tables' sheets start pages of their own, nothing continued in them.
    parts = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=round-sheet]')].map(s => {
             const top = s.getBoundingClientRect().top;
             const cuts = [...s.querySelectorAll('.sheet-continued')]
               .map(m => m.getBoundingClientRect().top - top);
             return {table: s.dataset.table, cuts: cuts, height: s.getBoundingClientRect().height,
                     after: getComputedStyle(s).breakAfter,
                     before: [...s.querySelectorAll('.sheet-continued')]
                       .map(m => getComputedStyle(m).breakBefore)};
           })"""
    )
    assert [p["table"] for p in parts] == ["1", "2", "3"]
    assert [p["after"] for p in parts] == ["page", "page", "auto"]
    first = parts[0]
    assert set(first["before"]) == {"page"}
    edges = [0, *first["cuts"], first["height"]]
    for start, end in itertools.pairwise(edges):
        assert end - start <= PRINTABLE_PX[1], (start, end)
    assert parts[1]["cuts"] == [] and parts[2]["cuts"] == []
    # A row of table 1 is never cut by a page's edge: none straddles a "continued".
    straddling = page.evaluate(
        """() => { const s = document.querySelector('[data-table="1"]');
             const cuts = [...s.querySelectorAll('.sheet-continued')]
               .map(m => m.getBoundingClientRect().top);
             return [...s.querySelectorAll('tr')].filter(r => { const b = r.getBoundingClientRect();
               return cuts.some(c => b.top < c && b.bottom > c); }).length; }"""
    )
    assert straddling == 0
    shot(page, "round-sheets-long-print")
