"""Pages people land on by mistake, in Debian's chromium on a 360 px phone, DEBUG off (a
club's Wi-Fi, production): the page not found fits the phone and says what to do; the
site's icon, linked and asked for as /favicon.ico, is there. Screenshots in
artifacts/screenshots/not-found-*.png."""

import pytest

from tests.browser import PHONE, shot
from tests.factories import ClubFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def no_debug(settings):
    settings.DEBUG = False


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize(
    ("path", "says"),
    [
        ("/t/badtoken/", "Check the link on the table's card"),
        ("/clubs/{slug}/evenings/999/", "There is no page at this address."),
    ],
)
def test_the_page_not_found_fits_a_phone(browser_page, live_server, path, says):
    # A club's longest name (120 letters), unbroken, named by the page's link to it.
    club = ClubFactory(name="Somerset" * 15, slug="somerset")
    page = browser_page
    page.set_viewport_size(PHONE)
    response = page.goto(live_server.url + path.format(slug=club.slug))
    assert response.status == 404
    assert page.get_by_role("heading", name="Page not found").is_visible()
    assert page.get_by_text(says).is_visible()
    assert no_sideways_scroll(page)
    shot(page, f"not-found-{path.strip('/').split('/')[0]}-360")
    page.get_by_role("link", name="The clubs (the site's front page)").click()
    page.wait_for_url(f"{live_server.url}/")


def test_the_sites_icon_is_there(browser_page, live_server, db):
    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/")
    href = page.locator("link[rel=icon]").get_attribute("href")
    icon = page.request.get(live_server.url + href)
    assert icon.status == 200
    assert icon.headers["content-type"].startswith("image/svg+xml")
    asked = page.request.get(f"{live_server.url}/favicon.ico")  # redirects followed
    assert asked.status == 200
    assert asked.body() == icon.body()
