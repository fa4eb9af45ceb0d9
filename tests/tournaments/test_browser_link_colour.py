"""Links are in the site's colour (its green, as the breadcrumbs and the buttons that read
as links are), not the browser's default blue: the "Room display (for the projector)" link
on the board and the director's page (1280 px) and the "Room" links of the club's public
page (360 px). Playwright driving Debian's chromium."""

import pytest

from tests.browser import log_in, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DEFAULT_BLUE = "rgb(0, 0, 238)"
COLOUR = "a => getComputedStyle(a).color"


def site_colour(page) -> str:
    """The site's link colour, as the breadcrumbs show it (static/css/site.css, --accent)."""
    return page.locator(".crumbs a").first.evaluate(COLOUR)


def test_the_room_display_link_is_in_the_sites_colour_on_the_secretarys_pages(
    browser_page, live_server, club, secretary, ladder, evening
):
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, live_server)
    for path, name in [
        (f"/secretary/evenings/{evening.pk}/", "board"),
        (f"/secretary/tournaments/{ladder.pk}/", "director"),
    ]:
        page.goto(f"{live_server.url}{path}")
        green = site_colour(page)
        assert green == "rgb(11, 93, 59)", green
        room = page.get_by_role("link", name="Room display (for the projector)")
        assert room.evaluate(COLOUR) == green, name
        # Its neighbours on the line, too (the board's printable sheet, CSV exports ...).
        colours = page.locator("main a").evaluate_all(
            "links => links.map(a => getComputedStyle(a).color)"
        )
        assert DEFAULT_BLUE not in colours, (name, colours)
        shot(page, f"link-colour-{name}-1280")


def test_the_public_club_pages_links_are_in_the_sites_colour_on_a_phone(
    browser_page, live_server, club, ladder, evening
):
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    rooms = page.get_by_role("link", name=f"Room display of {ladder.name}")
    assert rooms.evaluate(COLOUR) == "rgb(11, 93, 59)"
    colours = page.locator("main a").evaluate_all(
        "links => links.map(a => getComputedStyle(a).color)"
    )
    assert colours and DEFAULT_BLUE not in colours, colours
    shot(page, "link-colour-club-360")
