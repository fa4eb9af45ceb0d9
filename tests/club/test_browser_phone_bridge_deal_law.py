"""A Bridge table's phone, in Debian's chromium at a phone's width (360 px): its heading
said who deals next and that "the deal passes to the left (the deal)", citing nothing. It
cites the law as the other games' phones do theirs (Euchre law 28, Call-Ace law 3): Elwell's
laws number none, so by its heading, The Deal ("Each player deals in his turn; the order
of dealing goes to the left"), before and after a hand recorded from the phone (the line
the page rewrites itself). Screenshot in artifacts/screenshots/phone-bridge-deal-law.png."""

import pytest

from scoring.models import Hand
from tests.browser import PHONE, shot
from tests.worlds import bridge_and_call_ace_in_play, club_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CITED = "; the deal passes to the left (Bridge laws, The Deal)."


def test_the_bridge_phone_cites_the_deal_by_elwells_heading(
    browser_page, live_server, django_capture_on_commit_callbacks
):
    tables = bridge_and_call_ace_in_play(club_in_play(django_capture_on_commit_callbacks).club)
    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/t/{tables.bridge.token}/")
    dealer = page.get_by_test_id("dealer")
    assert dealer.inner_text().endswith("deals hand 2" + CITED), dealer.inner_text()

    form = page.locator("form.hand[data-kind=record]")
    form.locator("input[name=declarer][value=EW]").check()  # hand 2: E-W's deal
    form.locator("select[name=trump]").select_option("NT")  # no honours to say (B3)
    form.locator("input[name=tricks_ns]").fill("7")
    form.get_by_test_id("record-hand").click()
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    assert Hand.objects.filter(rubber__table=tables.bridge).count() == 2
    said = dealer.inner_text()
    assert said.endswith("deals hand 3" + CITED) and "(the deal)" not in said, said
    shot(page, "phone-bridge-deal-law")
