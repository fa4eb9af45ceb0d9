"""A Bridge table's phone at 360 px: the honours' default read "neither side counts",
which the laws refuse with a trump suit (ruling B3: one side always holds three or more
of the five), and "most in one hand" was asked with no word that it is needed even of
three. The form names no side for the players and says what to give; "neither" is a
choice of its own, for no trumps. Screenshots in artifacts/screenshots/words-honours-*.png."""

import pytest

from scoring.models import Hand
from tests.browser import PHONE, open_phone, refusal_shown, shot
from tests.worlds import bridge_and_call_ace_in_play, club_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def bridge(django_capture_on_commit_callbacks):
    """A Bridge table (Ann, Bob, Cora, Dan), hand 1 recorded."""
    played = club_in_play(django_capture_on_commit_callbacks)
    return bridge_and_call_ace_in_play(played.club).bridge


def test_the_honours_lead_a_newcomer_to_a_hand_the_laws_take(browser_page, live_server, bridge):
    page = open_phone(browser_page, f"{live_server.url}/t/{bridge.token}/")
    form = page.locator("form.hand[data-kind=record]")
    side = form.locator("select[name=honours_side]")
    shown = side.evaluate("select => select.selectedOptions[0].textContent")
    assert "neither" not in shown  # no fact is chosen for the players
    key = " ".join(form.get_by_test_id("honours-key").inner_text().split())
    assert "three or more of the five honours" in key and "even of three" in key
    assert "ruling B3" in key
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "words-honours-form")

    # "Neither" with a trump suit: refused in words, by ruling B3.
    form.locator("input[name=declarer][value=EW]").check()  # hand 2: E-W's deal
    form.locator("select[name=trump]").select_option(label="Hearts")
    form.locator("input[name=tricks_ns]").fill("8")
    side.select_option(label="neither (no trumps, the aces two and two)")
    form.get_by_test_id("record-hand").click()
    page.get_by_test_id("phone-error").wait_for()
    assert "ruling B3" in refusal_shown(page)
    assert Hand.objects.filter(rubber__table=bridge).count() == 1

    # At no trumps, the aces divided two and two: neither side counts them.
    form.locator("select[name=trump]").select_option(label="No trumps")
    form.get_by_test_id("record-hand").click()
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    hand = Hand.objects.get(rubber__table=bridge, number=2).data
    assert hand["trump"] == "NT" and hand.get("honours") is None
    shot(page, "words-honours-neither-at-no-trumps")
