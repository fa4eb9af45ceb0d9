"""At a Bridge cut, the board's "a player exposed more than one card" cites the law the
service cites when it records the exposure (ruling T12), in Debian's chromium at a
phone's width and a laptop's: it cited Euchre's law 10 on every evening, and Elwell's
Bridge laws have no law 10 (they are not numbered). Screenshots in
artifacts/screenshots/bridge-exposed-law-*.png."""

import re

import pytest

from club import evenings
from tests.browser import PHONE, log_in, settled, shot
from tests.worlds import club_in_play, table_formed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 900}


@pytest.fixture
def bridge_cut(django_capture_on_commit_callbacks):
    """A Bridge evening whose four have formed a table and must cut for partners."""
    played = club_in_play(django_capture_on_commit_callbacks)
    evening = evenings.evening_open(
        club=played.club, date=played.evening.date, ruleset="bridge-elwell-1907", stake=1
    )
    return table_formed(evening)


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_exposed_cards_cite_the_bridge_laws(browser_page, live_server, bridge_cut, size):
    page = browser_page
    page.set_viewport_size(size)
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/evenings/{bridge_cut.pk}/")
    summary = page.locator("details.exposed summary").first
    law = re.search(r"\(([^()]*)\)\s*$", summary.inner_text().strip()).group(1)
    summary.click()
    for name, card in {"Ann": "AS", "Bob": "2S", "Cora": "3S", "Dan": "4S"}.items():
        page.fill(f"input[name=card-{name}]", card)
    page.fill("input[name=exposed-Ann]", "KH QH")
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    shot(page, f"bridge-exposed-law-{size['width']}")
    page.get_by_test_id("enter-cut").first.click()
    settled(page)
    made = page.locator(".alert.ok").inner_text().splitlines()
    said = [line for line in made if "exposed more than one card" in line]
    assert said and said[0].startswith(f"{law}: "), (law, made)
