"""A Call-Ace sitting ended before any deal was played, in Debian's chromium at a phone's
width (360 px): it was listed as "finished", its log entry said it was "settled", and the
ledger counted it among the sittings played. It settles nothing (ruling C5: Foster settles
"the scores at the end", and there are none; no law of his speaks of a sitting without a
deal): the board's log, its list of sittings, the public results, the score sheet and the
ledgers say it ended before any deal was played, and count only the sitting played.
Screenshots in artifacts/screenshots/callace-unplayed-*.png."""

import re

import pytest
from django.urls import reverse

from club.exports import ledger_rows
from scoring.models import Rubber
from tests.browser import PHONE, settled, shot
from tests.club.test_browser_board_live import open_board
from tests.worlds import call_ace_jack_drawn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

UNPLAYED = "ended before any deal was played: it settles nothing (ruling C5)"


def said(page, selector: str) -> str:
    return " ".join(page.locator(selector).inner_text().split())


@pytest.fixture
def one_unplayed_one_played(club):
    """Four at a Call-Ace table: the first jack thrown (law 1), the sitting ended at once,
    then a second sitting of one deal, ended and settled (ruling C5)."""
    return call_ace_jack_drawn(club, unplayed=True, played=True)[0]


def test_a_sitting_ended_with_no_deal_settles_nothing_and_is_not_counted(
    browser_page, live_server, secretary, one_unplayed_one_played
):
    evening = one_unplayed_one_played
    unplayed, played = Rubber.objects.filter(evening=evening).order_by("pk")
    assert (unplayed.hand_count, played.hand_count) == (0, 1)
    page = browser_page
    page.set_viewport_size(PHONE)

    open_board(page, live_server, evening)
    settled(page)
    sittings = page.get_by_test_id("rubbers").locator("tbody tr")
    assert UNPLAYED in said(page, "[data-testid=rubbers] tbody tr >> nth=0")
    assert "finished" in " ".join(sittings.nth(1).inner_text().split())
    history = said(page, "[data-testid=history]")
    assert (
        "The sitting at table 1 ends before any deal is played: it settles nothing (ruling C5)"
        in history
    ), history
    assert history.count("ends and is settled") == 1  # the sitting played
    shot(page, "callace-unplayed-board")

    page.goto(live_server.url + reverse("evening-results", args=[evening.club.slug, evening.pk]))
    rows = page.locator("table.grid").first.locator("tbody tr")
    assert UNPLAYED in " ".join(rows.nth(0).inner_text().split())
    ledger = page.locator("table.grid").nth(1)
    assert re.search(r"Sittings", ledger.locator("thead").inner_text())
    counts = ledger.locator("tbody tr td:nth-child(2)").all_inner_texts()
    assert counts == ["1"] * 4, counts  # the sitting played, not the one ended unplayed
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "callace-unplayed-results")
    page.set_viewport_size({"width": 1280, "height": 900})
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    shot(page, "callace-unplayed-results-1280")
    page.set_viewport_size(PHONE)

    page.goto(live_server.url + reverse("rubber-detail", args=[evening.club.slug, unplayed.pk]))
    verdict = said(page, "p.verdict")
    assert verdict == f"The sitting {UNPLAYED}.", verdict
    assert page.locator(f"#rubber-{unplayed.pk}-settlement").count() == 0
    assert f"{UNPLAYED[0].upper()}{UNPLAYED[1:]}; closed at" in said(page, "dl")
    shot(page, "callace-unplayed-sheet")

    # The treasurer's CSV counts the sittings settled likewise (ruling M1's ledger).
    assert [row[3] for row in ledger_rows(evening=evening)[1:]] == [1] * 4
