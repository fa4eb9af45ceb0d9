"""A director's evening in chromium: a long name on a phone, a ladder's "stop counting it"
that can be seen, and the director's page, a table's sheet and the standings printed
clean (Playwright driving Debian's chromium, 360 px wide, print media)."""

import pytest

from club import recording
from tests.browser import log_in, shot
from tournaments import rounds, services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: A name with nowhere to break a line (a German club's end-of-season tournament).
LONG = "Vereinsmeisterschaftsabschlussturnier"
EIGHT = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Hugh"]


@pytest.fixture
def progressive(club, roster, secretary):
    """A rotation of one deal a round, EIGHT entered, round 1 seated and its first table's
    deal recorded (North-South win it)."""
    tournament = services.tournament_create(
        club=club, name=LONG, slug="thanksgiving", kind="progressive",
        ruleset="euchre-somerset-1888", movement="rotation", deals_per_round=1,
    )  # fmt: skip
    for name in EIGHT:
        rounds.tournament_enter(tournament=tournament, name=name)
    played = rounds.round_seat_next(tournament_id=tournament.pk, user=secretary)
    table = played.tables.get(number=1)
    recording.hand_record(rubber_id=table.rubber_id, data={"makers": "NS", "tricks": 3})
    return tournament


def width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def test_a_long_name_stays_within_a_phones_screen(browser_page, live_server, progressive):
    """The name, with no space or hyphen to break at, made the director's page wider than
    the phone's 360 px, and the secretary's page with it."""
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, live_server)
    assert width(page) <= 360
    page.goto(f"{live_server.url}/secretary/tournaments/{progressive.pk}/")
    assert page.get_by_role("heading", name=LONG).is_visible()
    assert width(page) <= 360
    shot(page, "director-evening-long-name")


def test_a_ladders_stop_counting_it_can_be_seen(browser_page, live_server, ladder, secretary):
    """A button styled as a link was white, the buttons' colour, on the page's white."""
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/tournaments/{ladder.pk}/")
    button = page.get_by_role("button", name="stop counting it")
    assert button.is_visible()
    colour = button.evaluate("b => getComputedStyle(b).color")
    panel = button.evaluate("b => getComputedStyle(b.closest('.panel')).backgroundColor")
    assert colour != panel and colour != "rgb(255, 255, 255)", (colour, panel)
    assert (
        page.get_by_role("button", name="Log out").evaluate("b => getComputedStyle(b).color")
        == "rgb(255, 255, 255)"
    )  # the header's stays white, on the header's green
    shot(page, "director-evening-ladder")


def test_the_directors_page_prints_the_rounds_without_buttons(
    browser_page, live_server, progressive
):
    """Printed, the page kept the progress bar, an empty "Ranked by", the phones' links
    and their warning, and the tables' sheets' links: a screen's, not a sheet's."""
    page = browser_page
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/tournaments/{progressive.pk}/")
    assert page.locator("#phones").is_visible()
    assert page.get_by_test_id("ranked-by-printed").is_hidden()
    page.emulate_media(media="print")
    for hidden in ["#phones", "#progress", "[data-testid=table-links-1]", "#director button"]:
        assert page.locator(hidden).first.is_hidden(), hidden
    assert page.get_by_role("link", name="Room display (for the projector)").is_hidden()
    assert page.get_by_role("heading", name="Ranked by").is_hidden()
    assert page.get_by_test_id("ranked-by-printed").inner_text() == (
        # A progressive of fixed deals created without a precedence (metrics.default_precedence).
        "Ranked by rounds won, then points won, then head-to-head."
    )
    assert page.get_by_role("heading", name="Round 1").is_visible()
    shot(page, "director-evening-printed")


def test_a_tables_sheet_prints_whose_it_is(browser_page, live_server, progressive):
    page = browser_page
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/tournaments/{progressive.pk}/rounds/1/tables/1/")
    back = page.get_by_role("link", name="back to the rounds")
    assert back.is_visible() and page.get_by_test_id("printed-tournament").is_hidden()
    page.emulate_media(media="print")
    assert back.is_hidden()
    assert page.get_by_test_id("printed-tournament").inner_text() == f"Somerset Club · {LONG}"
    assert page.get_by_test_id("table-over").is_visible()  # who won, still said
    shot(page, "director-evening-sheet-printed")


def test_the_standings_print_the_club_and_names_not_links(browser_page, live_server, progressive):
    page = browser_page
    page.goto(f"{live_server.url}/clubs/somerset/tournaments/thanksgiving/")
    page.wait_for_selector("#standings tbody a")
    assert page.get_by_test_id("printed-club").is_hidden()
    page.emulate_media(media="print")
    assert page.get_by_test_id("printed-club").inner_text() == "Somerset Club"
    name = page.locator("#standings tbody a").first
    style = name.evaluate(
        "a => [getComputedStyle(a).textDecorationLine, getComputedStyle(a).color,"
        " getComputedStyle(a.closest('td')).color]"
    )
    assert style[0] == "none" and style[1] == style[2], style
    shot(page, "director-evening-standings-printed")
