"""With two Call-Ace tables waiting for their first jack (ruling T14: eleven arrive, seven
play at one table and four form another), "Throw for them" under the second table throws
round that table, in Debian's chromium at a phone's width and a laptop's. The service
threw for whichever cut was waiting first, so the second table's button threw round the
first table. Screenshots in artifacts/screenshots/callace-throw-second-*.png."""

import pytest

from club import evenings
from club.models import Evening
from tests.browser import PHONE, log_in, settled, shot
from tests.worlds import club_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 900}
ELEVEN = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Hugh", "Iris", "Jack", "Kim"]


@pytest.fixture
def two_tables(django_capture_on_commit_callbacks):
    """A Call-Ace evening of eleven: table 1 of seven and table 2 of four, neither with
    its first dealer yet (law 1, ruling T14)."""
    played = club_in_play(django_capture_on_commit_callbacks)
    evening = evenings.evening_open(
        club=played.club, date=played.evening.date, ruleset="call-ace-foster-1905", stake=1
    )
    for name in ELEVEN:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    for _ in range(2):
        evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    return evening


def dealer_of(evening: Evening, number: int):
    state = evenings.evening_state(Evening.objects.get(pk=evening.pk))
    return state.table(number).dealer


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_throw_for_them_throws_round_the_table_it_is_under(
    browser_page, live_server, two_tables, size
):
    page = browser_page
    page.set_viewport_size(size)
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/evenings/{two_tables.pk}/")
    second = page.locator("form").filter(has=page.locator("#throws-2"))
    second.get_by_role("button", name="Throw for them").click()
    page.locator("#table-2").filter(has_text="dealer").wait_for()
    settled(page)
    assert dealer_of(two_tables, 2) in ["Hugh", "Iris", "Jack", "Kim"]
    assert dealer_of(two_tables, 1) is None
    # Table 1 still waits for its throw, and says so.
    assert page.locator("#throws-1").count() == 1
    assert page.locator("#throws-2").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    shot(page, f"callace-throw-second-{size['width']}")
