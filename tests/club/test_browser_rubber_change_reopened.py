"""A refused correction on the rubber's page leaves the address bar at the form's
address, .../change/, which only takes posts: opened again (a reload from the address
bar, a bookmark) it answered Chrome's bare "HTTP ERROR 405". It leads to the rubber's
page, where the forms are. (The refused correction of
tests/club/test_browser_rubber_page_correct_race.py, on a 360 px phone.)
Screenshot in artifacts/screenshots/rubber-change-reopened-360.png."""

import pytest

from tests.browser import PHONE, shot
from tests.club.test_browser_rubber_page_correct_race import refused_by_a_phones_correction

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_refused_corrections_address_opened_again_leads_to_the_rubbers_page(
    browser_page, live_server, played
):
    page = browser_page
    page.set_viewport_size(PHONE)
    phone = refused_by_a_phones_correction(page, live_server, played)
    rubber = f"{live_server.url}/clubs/{played.club.slug}/rubbers/{played.rubber.pk}/"
    assert page.url == f"{rubber}change/"

    # The address in the bar, opened again.
    response = page.goto(page.url)
    assert response.status == 200
    assert page.url == rubber
    assert page.locator("#correct-form").is_visible()
    shot(page, "rubber-change-reopened-360")
    phone.context.close()
