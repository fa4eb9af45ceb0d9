"""A browser runs an evening on the secretary's board: ten arrivals, two tables formed by
drawn cuts, hands recorded from a table's phone link, a rubber finished and a waiting
member cut in (law 15, ruling T5). Screenshots in artifacts/screenshots/board-*.png."""

import re

import pytest

from club.models import Evening
from tests.browser import log_in, settled, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Hugh", "Iris", "Jack"]


def act(page, testid: str):
    """Click a board button and wait until htmx has swapped in the board it answered."""
    settled(page)
    with page.expect_response(re.compile(r"/action/$")):
        page.get_by_test_id(testid).first.click()
    settled(page)


def test_an_evening_on_the_board(browser_page, live_server, club, secretary):
    page = browser_page
    log_in(page, live_server)
    page.get_by_test_id("open-evening").click()
    page.wait_for_url(re.compile(r"/secretary/evenings/\d+/$"))
    evening = Evening.objects.get()

    for name in PLAYERS:
        page.fill("input[name=player]", name)
        act(page, "arrive")
    assert page.locator("#board .chip.candidate").count() >= 10
    shot(page, "board-1-arrivals")

    # Ten candidates: a cut forms the first table of four with two waiting (law 12).
    act(page, "form-table")
    while page.get_by_test_id("draw-cut").count():
        act(page, "draw-cut")
    # The four remaining candidates form the second table; they cut for partners and deal.
    act(page, "form-table")
    while page.get_by_test_id("draw-cut").count():
        act(page, "draw-cut")
    assert page.locator("article.table-card").count() == 2
    evening.refresh_from_db()
    table_one = next(t for t in evening.state["tables"] if t["number"] == 1)
    waiting = table_one["waiting"]
    assert len(waiting) == 2  # the fifth and sixth belong to table 1
    shot(page, "board-2-two-tables")

    # A player at table 1 records the hands of a whole rubber on his phone.
    link = page.get_by_test_id("table-link-1").get_attribute("href")
    phone = page.context.new_page()
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto(f"{live_server.url}{link}")
    shot(phone, "board-3-phone-before")
    for tricks in [5, 5, 3] * 3:  # march, march, three tricks: N-S win three games
        settled(phone)
        form = phone.locator("form.hand")
        form.locator("input[name=makers][value=NS]").check()
        form.locator("input[name=tricks]").fill(str(tricks))
        with phone.expect_response(re.compile(r"/hand/$")):
            form.get_by_test_id("record-hand").click()
    shot(phone, "board-3-phone")

    # The board sees the rubber end without a reload; the waiting members claim (ruling T5)
    # and a cut decides who goes out.
    page.wait_for_selector("text=cut to decide who goes out", timeout=8000)
    shot(page, "board-4-rubber-over")
    while page.get_by_test_id("draw-cut").count():
        act(page, "draw-cut")
    evening.refresh_from_db()
    table_one = next(t for t in evening.state["tables"] if t["number"] == 1)
    assert set(waiting) <= set(table_one["playing"])  # both waiting members cut in
    assert len(table_one["waiting"]) == 2  # and two who had played went out to wait
    assert not set(waiting) & set(table_one["waiting"])
    shot(page, "board-5-cut-in")
