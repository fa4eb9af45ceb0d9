"""Exports people can open (issue #15 item 8), as the secretary meets them in Debian's
chromium: from the board, the printable sheet prints each rubber labelled with its table,
players and result, and the two CSVs it links to hold names and one figure a column, a
ledger a treasurer pastes into a spreadsheet."""

import csv
import datetime
import io
from decimal import Decimal

import pytest

from club import evenings
from club.models import Evening
from tests.browser import log_in, shot
from tests.club.test_evenings import SWEEP, act, record, seat_six

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_sheet_prints_and_the_csvs_open(browser_page, live_server, club, secretary):
    evening = evenings.evening_open(
        club=club, date=datetime.date(1888, 11, 21), ruleset="euchre-somerset-1888",
        stake=Decimal("0.25"),
    )  # fmt: skip
    seat_six(evening)
    record(evening, SWEEP)
    while evenings.evening_state(Evening.objects.get(pk=evening.pk)).pending:
        act(evening, type="cut", draw=True)  # cutting out, then partners and deal
    answer = {"table": 1, "rubber": 2, "outcome": "abandoned", "reason": "the lamps went out"}
    evenings.evening_close(evening_id=evening.pk, rubbers=[answer])

    page = browser_page
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/evenings/{evening.pk}/")
    links = {
        name: page.get_by_role("link", name=name, exact=True).get_attribute("href")
        for name in ("Printable sheet", "Ledger CSV", "Hands CSV")
    }

    page.goto(f"{live_server.url}{links['Printable sheet']}")
    page.emulate_media(media="print")
    text = page.locator("body").inner_text()
    heading = page.get_by_role("heading", level=1).inner_text()
    assert heading == "Somerset Club: the evening of 21 November 1888"  # the club named once
    assert "Table 1, rubber 1: Ann & Bob v Cora & Dan" in text
    assert "Won by Ann & Bob (N-S), worth 8" in text
    assert "Abandoned when the evening closed: the lamps went out" in text
    shot(page, "evening-sheet-printed")

    def table(href):
        response = page.request.get(f"{live_server.url}{href}")
        assert response.status == 200
        assert response.headers["content-type"].startswith("text/csv")
        return list(csv.reader(io.StringIO(response.text())))

    hands = table(links["Hands CSV"])
    first = dict(zip(hands[0], hands[1], strict=True))
    assert first["players"] == "Ann & Bob v Cora & Dan"
    assert first["explanation"].startswith("law")
    assert not any("{" in cell for row in hands for cell in row)  # no Python dict text
    ledger = table(links["Ledger CSV"])
    amounts = [Decimal(row[-1]) for row in ledger[1:]]
    assert sum(amounts) == 0 and max(amounts) == Decimal("2.00")  # M1: adds to zero


def test_a_rubbers_score_sheet_prints_without_the_secretarys_forms(
    browser_page, live_server, django_capture_on_commit_callbacks
):
    """The secretary prints a rubber's score sheet from its page: the sheet, not the panel
    of his corrections. The forms were hidden in print but their panel was not: an empty
    box headed 'Correct or take off a hand', with its instructions, ended the sheet."""
    from tests.worlds import club_in_play

    played = club_in_play(django_capture_on_commit_callbacks)
    page = browser_page
    log_in(page, live_server)
    page.goto(f"{live_server.url}/clubs/somerset/rubbers/{played.rubber.pk}/")
    assert page.get_by_role("heading", name="Correct or take off a hand").is_visible()
    page.emulate_media(media="print")
    assert page.get_by_role("heading", name="Game 1").is_visible()
    assert page.get_by_role("heading", name="Correct or take off a hand").is_hidden()
    assert "As the club's referee" not in page.locator("body").inner_text()
    shot(page, "rubber-sheet-printed")


def test_the_scorecards_print_button_prints_under_the_production_policy(
    browser_page, live_server, settings, django_capture_on_commit_callbacks
):
    """A player's scorecard has a "Print the scorecard" button. Its inline onclick was
    blocked by the production Content-Security-Policy (script-src 'self'): the button did
    nothing. (The page's print is counted instead of opening the browser's dialog.)"""
    from tests.worlds import club_in_play

    settings.CSP_ENABLED = True
    played = club_in_play(django_capture_on_commit_callbacks)
    page = browser_page
    page.add_init_script("window.printed = 0; window.print = () => { window.printed += 1; };")
    log_in(page, live_server)  # the club is private
    member = played.members["Ann"]
    response = page.goto(f"{live_server.url}/clubs/{played.club.slug}/players/{member.pk}/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.get_by_role("button", name="Print the scorecard").click()
    # Asked from outside the page (wait_for_function's polling evaluates a string, which
    # the policy forbids).
    for _ in range(50):
        if page.evaluate("window.printed"):
            break
        page.wait_for_timeout(100)
    assert page.evaluate("window.printed") == 1
