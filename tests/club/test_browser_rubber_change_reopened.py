"""A refused correction on the rubber's page leaves the address bar at the form's
address, .../change/, which only takes posts: opened again (a reload from the address
bar, a bookmark) it answered Chrome's bare "HTTP ERROR 405". It leads to the rubber's
page, where the forms are. (A copy of the refused correction of
tests/club/test_browser_rubber_page_correct_race.py, on a 360 px phone.)
Screenshot in artifacts/screenshots/rubber-change-reopened-360.png."""

import re

import pytest

from tests.browser import PHONE, correct, log_in, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_refused_corrections_address_opened_again_leads_to_the_rubbers_page(
    browser_page, live_server, played
):
    page = browser_page
    page.set_viewport_size(PHONE)
    log_in(page, live_server)
    rubber = f"{live_server.url}/clubs/{played.club.slug}/rubbers/{played.rubber.pk}/"
    page.goto(f"{rubber}?correct=1#corrections")
    form = page.locator("#correct-form")
    form.locator("input[name=makers][value=EW]").check()
    form.locator("textarea[name=reason]").fill("E-W made it, says Cora")

    # Meanwhile a phone at the table corrects hand 1: the secretary's is refused (409).
    phone = page.context.browser.new_context(viewport=PHONE).new_page()
    phone.goto(f"{live_server.url}/t/{played.table.token}/")
    phone.get_by_test_id("last-hand").locator("> summary").click()
    correct(phone, tricks="5")
    phone.get_by_test_id("phone-notice").filter(has_text="Hand 1 corrected.").wait_for()
    with page.expect_response(re.compile(r"/change/$")) as answer:
        form.get_by_test_id("correct-hand").click()
    assert answer.value.status == 409
    assert page.url == f"{rubber}change/"

    # The address in the bar, opened again.
    response = page.goto(page.url)
    assert response.status == 200
    assert page.url == rubber
    assert page.locator("#correct-form").is_visible()
    shot(page, "rubber-change-reopened-360")
    phone.context.close()
