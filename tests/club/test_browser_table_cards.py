"""The table cards as printed (issue #14 item 6): Debian's chromium lays the page out for
print, each card fits in a quarter (or a half) of an A4 page inside its margins, none is split
between pages, and the PDF it prints has as many A4 pages as the cards need. Screenshots in
artifacts/screenshots/table-cards-*.png."""

import datetime
import math
import re
from decimal import Decimal

import pytest

from club import evenings
from club.models import Evening
from club.phone_links import qr_svg
from tests.browser import SHOTS, log_in, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PX_PER_MM = 96 / 25.4
# A4 inside the page's 10 mm margins.
PRINTABLE_MM = (210 - 20, 297 - 20)
BASE = "http://192.0.2.7:8000"  # a documentation address: nothing is sent to it
TABLES = 5


def five_tables(club) -> Evening:
    """An evening of Euchre at five tables, cut by the service: four tables of four with two
    waiting each (law 12), and a fifth of four."""
    evening = evenings.evening_open(
        club=club, date=datetime.date(1888, 11, 21), ruleset="euchre-somerset-1888",
        stake=Decimal("0.25"),
    )  # fmt: skip
    for n in range(6 * (TABLES - 1) + 4):
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": f"P{n}"})
    for _ in range(10 * TABLES):
        evening.refresh_from_db()
        required = {item["kind"] for item in evenings.evening_summary(evening=evening)["required"]}
        if "cut" in required:
            evenings.evening_act(evening_id=evening.pk, event={"type": "cut", "draw": True})
        elif "form_table" in required:
            evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
        else:
            break
    assert evening.tables.count() == TABLES
    return evening


def pdf_pages(pdf: bytes) -> list[tuple[float, float]]:
    """The width and height, in points, of each page of a PDF as chromium writes it (its
    page objects are not compressed)."""
    pages = re.findall(rb"/Type\s*/Page\b(?!s)", pdf)
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf)
    assert len(boxes) == len(pages)
    return [(float(w), float(h)) for w, h in boxes]


@pytest.mark.parametrize("per_page", [4, 2])
def test_table_cards_print_two_or_four_to_an_a4_page(
    browser_page, live_server, club, secretary, settings, per_page
):
    settings.PUBLIC_BASE_URL = BASE  # what quickstart --lan sets: the phones' address
    evening = five_tables(club)
    page = browser_page
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/evenings/{evening.pk}/")
    page.get_by_test_id("table-cards").click()
    page.wait_for_url(re.compile(r"/table-cards/$"))
    if per_page == 2:
        page.get_by_role("link", name="2", exact=True).click()
        page.wait_for_url(re.compile(r"per_page=2$"))
    # Opened at localhost: the page says where the codes point, on screen only.
    assert page.get_by_test_id("phone-reach").is_visible()
    shot(page, f"table-cards-screen-{per_page}")

    cards = page.locator("article.table-print-card")
    assert cards.count() == TABLES
    for table in evening.tables.all():
        link = f"{BASE}/t/{table.token}/"
        card = page.locator(f"article[data-table='{table.number}']")
        assert card.get_by_test_id(f"link-{table.number}").inner_text() == link
        assert card.locator("h2").inner_text() == f"Table {table.number}"
        assert card.locator("ol.how-to li").count() == 3
        assert card.locator("svg.qr path").get_attribute("d") in qr_svg(link)

    assert_printed_on_a4(page, cards_in_all=TABLES, per_page=per_page, name="table-cards")


def assert_printed_on_a4(page, *, cards_in_all: int, per_page: int, name: str) -> None:
    """The cards page laid out for print: a sheet an A4 page inside its margins, `per_page`
    cards on each, none split between pages, each card's QR code and words inside it; and
    the PDF chromium prints has as many A4 pages as the cards need. Shared by the evening's
    cards and a progressive's (tests/tournaments/test_browser_table_phone.py)."""
    page.emulate_media(media="print")
    assert not page.get_by_test_id("phone-reach").is_visible()
    assert not page.locator("header.site").is_visible()
    sheets = page.locator("section.card-sheet")
    assert sheets.count() == math.ceil(cards_in_all / per_page)
    width_mm, height_mm = PRINTABLE_MM
    for s in range(sheets.count()):
        sheet = sheets.nth(s)
        box = sheet.bounding_box()
        assert box["width"] <= width_mm * PX_PER_MM + 1
        assert box["height"] <= height_mm * PX_PER_MM + 1
        if s < sheets.count() - 1:  # each sheet is a page of its own
            assert sheet.evaluate("e => getComputedStyle(e).breakAfter") == "page"
        on_sheet = sheet.locator("article.table-print-card")
        assert on_sheet.count() == min(per_page, cards_in_all - s * per_page)
        for c in range(on_sheet.count()):
            card = on_sheet.nth(c)
            inner = card.bounding_box()
            assert card.evaluate("e => getComputedStyle(e).breakInside") == "avoid"
            # A card is a half (two to a page) or a quarter (four) of the printable page,
            # and lies wholly on its sheet; its QR code and words lie wholly inside it.
            columns = 2 if per_page == 4 else 1
            assert inner["width"] <= box["width"] / columns + 1
            assert inner["height"] <= box["height"] / 2 + 1
            assert box["y"] - 1 <= inner["y"]
            assert inner["y"] + inner["height"] <= box["y"] + box["height"] + 1
            for part in ("svg.qr", "ol.how-to", ".card-link"):
                piece = card.locator(part).bounding_box()
                assert piece["height"] > 0
                assert inner["y"] <= piece["y"] + 0.5
                assert piece["y"] + piece["height"] <= inner["y"] + inner["height"] + 0.5
            qr = card.locator("svg.qr").bounding_box()
            assert qr["width"] >= 50 * PX_PER_MM  # big enough for a phone across the table
    shot(page, f"{name}-print-{per_page}")

    pdf = page.pdf(format="A4", prefer_css_page_size=True, print_background=True)
    (SHOTS / f"{name}-{per_page}.pdf").write_bytes(pdf)
    # No card spilled onto a page of its own.
    assert len(pdf_pages(pdf)) == math.ceil(cards_in_all / per_page)
    assert {(round(w), round(h)) for w, h in pdf_pages(pdf)} == {(595, 842)}  # A4 in points


def test_the_table_cards_page_fits_a_phone_screen(browser_page, live_server, club, secretary):
    """The secretary opens the table cards on his phone to see them before printing: the
    A4 pages shown were wider than the screen and the whole page scrolled sideways, its
    words and buttons with them. The pages scroll inside their box; the page never does."""
    from tests.club.test_browser_board_live import open_evening, seat_four

    evening = open_evening(club)
    seat_four(evening)
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/evenings/{evening.pk}/table-cards/")
    assert page.locator("article.table-print-card").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "table-cards-on-a-phone")


LINE_ENDS = """(element) => {
    // The last character of each line the link is laid out on (a range per character).
    const text = element.textContent, range = document.createRange(), ends = [];
    let node = null, top = null;
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    const chars = [];
    while ((node = walker.nextNode())) {
        for (let i = 0; i < node.length; i++) chars.push([node, i]);
    }
    chars.forEach(([node, i], k) => {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const y = Math.round(range.getBoundingClientRect().top);
        if (top !== null && y > top + 2) ends.push(text[k - 1]);
        top = y;
    });
    return ends;
}"""


@pytest.mark.parametrize("per_page", [4, 2])
def test_a_printed_link_never_breaks_at_its_hyphen(
    browser_page, live_server, club, secretary, settings, per_page
):
    """A link printed on a card wraps; where it wrapped at a hyphen of its token, the card
    read "...WkNb-" over "PlDeny...", and a player typing it took the hyphen for the
    printer's and left it out (the audit's table card). Tokens full of hyphens, so that
    wherever the line is full a hyphen is near: no line ends with one; the link's text
    is the link."""
    from tests.club.test_browser_board_live import open_evening, seat_four

    settings.PUBLIC_BASE_URL = "http://the-card-room.somerset-whist-and-euchre-club.example.org"
    evening = open_evening(club)
    seat_four(evening)
    table = evening.tables.get()
    table.token = "-".join(["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8", "i9", "j0", "kk"])
    table.save(update_fields=["token"])
    page = browser_page
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/evenings/{evening.pk}/table-cards/?per_page={per_page}")
    page.emulate_media(media="print")
    words = page.get_by_test_id(f"link-{table.number}")
    assert words.inner_text() == f"{settings.PUBLIC_BASE_URL}/t/{table.token}/"
    ends = words.evaluate(LINE_ENDS)
    assert ends, "the link fits one line: the test shows nothing"
    assert "-" not in ends, ends
    shot(page, f"table-cards-hyphens-{per_page}")
