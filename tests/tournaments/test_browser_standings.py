"""A browser keeps the public standings open; a hand recorded through the API shows up
without a reload (Playwright driving Debian's chromium)."""

import json
import urllib.request

import pytest

from club import recording
from club.secretary_tokens import token_issue
from tests.browser import polled, shot
from tests.tournaments.conftest import start
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STANDINGS_POLL_MS = 2_000  # templates/tournaments/standings.html: every 2s
FRAGMENT = "/clubs/somerset/tournaments/winter/standings/"  # what the standings poll


def test_standings_page_changes_without_a_reload(
    browser_page, live_server, club, roster, secretary
):
    evening = club.evenings.create(date="1888-11-21", ruleset="euchre-somerset-1888", stake="0.25")
    services.tournament_create(
        club=club, name="Winter ladder", slug="winter", kind="ladder", evening_ids=[evening.pk]
    )
    rubber = start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"])
    recording.hand_record(rubber_id=rubber.pk, data={"makers": "NS", "tricks": 3})

    page = browser_page
    page.clock.install()  # the page's own clock: its poll is run forward, not waited for
    page.goto(f"{live_server.url}/clubs/somerset/tournaments/winter/")
    page.wait_for_selector("#standings")
    assert page.locator("#standings tbody tr").first.inner_text().split("\t")[1] in {"Ann", "Cora"}
    version = page.locator("#standings").get_attribute("data-version")
    shot(page, "standings-before")
    page.evaluate("window.__not_reloaded = true")

    token = token_issue(user=secretary)[0]
    request = urllib.request.Request(
        f"{live_server.url}/api/v1/clubs/somerset/rubbers/{rubber.pk}/hands/",
        data=json.dumps({"makers": "EW", "tricks": 5, "alone": True}).encode(),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201
    polled(page, FRAGMENT, run_for=STANDINGS_POLL_MS)
    page.wait_for_function(
        "v => document.querySelector('#standings').dataset.version !== v", arg=version
    )
    assert page.evaluate("window.__not_reloaded") is True  # the same page, updated in place
    first = page.locator("#standings tbody tr").first.inner_text()
    assert "Bob" in first or "Dan" in first  # EW's lone march (4) puts them ahead
    shot(page, "standings-after")


def test_a_printed_page_of_the_standings_says_which_page_it_is(
    browser_page, live_server, crowd_ladder
):
    """Printed, a page of the standings said neither which page of three it was (every
    nav is hidden in print) and still said it updates by itself, with the room display's
    link: words for a screen, not for paper."""
    page = browser_page
    page.goto(f"{live_server.url}/clubs/somerset/tournaments/big/?page=2")
    assert page.get_by_text("update by themselves").is_visible()
    page.emulate_media(media="print")
    assert page.get_by_text("Page 2 of 3 (228 players)").is_visible()
    assert page.get_by_role("link", name="Next").is_hidden()
    assert page.get_by_role("link", name="Previous").is_hidden()
    assert page.get_by_text("update by themselves").is_hidden()
    assert page.get_by_role("link", name="The room display").is_hidden()
    assert page.locator("#standings tbody tr").count() == 100
    shot(page, "standings-printed")


@pytest.mark.parametrize("width", [360, 1280])
def test_a_ladders_room_display_does_not_send_the_reader_right_on_a_phone(
    browser_page, live_server, ladder, width
):
    """A ladder's room display said "the standings are on the right"; on a phone (its
    link is on the standings page) the standings are below those words, not beside them.
    The words say where they are at every width."""
    page = browser_page
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(f"{live_server.url}/clubs/somerset/tournaments/winter/room/")
    note = page.locator(".room-empty")
    standings = page.locator("#room-standings-h")
    assert "right" not in note.inner_text()
    assert "its standings are shown here" in note.inner_text()
    assert standings.is_visible()
    shot(page, f"ladder-room-{width}")


def test_the_stake_won_updates_live_written_as_money(
    browser_page, live_server, club, roster, secretary
):
    """Ruling M1: a ladder ranked by "Stake won" shows it as every page shows money, a win
    "+2.00" and a loss "\u22122.00" (a true minus), coloured, the currency in the column's head;
    so too when the rubber's last hand arrives while the page is open. It showed "2.00"
    and "-2.00"."""
    from tests.tournaments.conftest import sweep

    evening = club.evenings.create(date="1888-11-21", ruleset="euchre-somerset-1888", stake="0.25")
    services.tournament_create(
        club=club, name="Winter ladder", slug="winter", kind="ladder",
        evening_ids=[evening.pk], precedence=["stake_won", "rubbers_won"],
    )  # fmt: skip
    rubber = start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"])
    *first, last = sweep("NS")  # worth 8 at 0.25: 2.00 a player
    for hand in first:
        recording.hand_record(rubber_id=rubber.pk, data=hand)

    page = browser_page
    page.set_viewport_size({"width": 360, "height": 740})
    page.clock.install()  # the page's own clock: its poll is run forward, not waited for
    page.goto(f"{live_server.url}/clubs/somerset/tournaments/winter/")
    page.wait_for_selector("#standings")
    assert "Stake won (USD)" in page.locator("#standings thead").inner_text()
    version = page.locator("#standings").get_attribute("data-version")
    token = token_issue(user=secretary)[0]
    request = urllib.request.Request(
        f"{live_server.url}/api/v1/clubs/somerset/rubbers/{rubber.pk}/hands/",
        data=json.dumps(last).encode(),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201
    polled(page, FRAGMENT, run_for=STANDINGS_POLL_MS)
    page.wait_for_function(
        "v => document.querySelector('#standings').dataset.version !== v", arg=version
    )
    rows = {
        cells[1]: cells[2]
        for cells in (
            row.split("\t") for row in page.locator("#standings tbody tr").all_inner_texts()
        )
    }
    assert rows == {"Ann": "+2.00", "Cora": "+2.00", "Bob": "\u22122.00", "Dan": "\u22122.00"}
    lost = page.locator("#standings tbody td.lost")
    assert lost.count() == 2
    assert lost.first.evaluate("td => getComputedStyle(td).color") == "rgb(164, 22, 26)"
    shot(page, "standings-stake-won-360")
