"""A Call-Ace table's phone at 360 px: a void deal is one of two plainly worded choices,
where one box served both law 17 (no one named a trump: the deal passes to the next
dealer) and laws 6 and 50 (a card found faced, an imperfect pack: the same dealer deals
again), told apart only by whether a maker was named, which the phone did not say. The
deal is stored as before: `void`, with the maker or without (scoring.rules.call_ace).
Screenshots in artifacts/screenshots/words-void-*.png."""

import pytest

from scoring.models import Hand
from tests.browser import PHONE, open_phone, refusal_shown, shot
from tests.worlds import bridge_and_call_ace_in_play, club_in_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def call_ace(django_capture_on_commit_callbacks):
    """A Call-Ace table of five, deal 1 recorded (its first dealer's, the deal passed)."""
    played = club_in_play(django_capture_on_commit_callbacks)
    return bridge_and_call_ace_in_play(played.club)


def void_choice(form, words: str):
    """Choose the void deal by its words, opening the irregularities if they are shut."""
    if not form.locator("details.irregular").evaluate("details => details.open"):
        form.locator("details.irregular summary").click()
    form.locator("label").filter(has_text=words).locator("input[name=void]").check()


def test_a_faced_card_void_keeps_the_dealer_and_a_deal_with_no_trump_passes(
    browser_page, live_server, call_ace
):
    order = call_ace.call_ace_order
    page = open_phone(browser_page, f"{live_server.url}/t/{call_ace.call_ace.token}/")
    dealer = page.get_by_test_id("dealer")
    dealer.filter(has_text=f"{order[1]} deals deal 2").wait_for()
    form = page.locator("form.hand[data-kind=record]")
    # Each choice names one case, and what it does to the deal.
    choices = form.locator("label").filter(has=page.locator("input[name=void]"))
    no_trump = choices.filter(has_text="no one named a trump").text_content()
    faced = choices.filter(has_text="a card was found faced").text_content()
    assert "law 17" in no_trump and "faced" not in no_trump and "passes" in no_trump
    assert "laws 6, 50" in faced and "trump" not in faced and "same dealer" in faced
    # Laws 6, 50: a card found faced voids the deal; its maker is named, the dealer stays.
    form.locator("select[name=maker]").select_option(order[3])
    void_choice(form, "a card was found faced")
    form.get_by_test_id("record-hand").click()
    page.get_by_test_id("phone-notice").filter(has_text="Deal 2 recorded").wait_for()
    deal = Hand.objects.get(rubber__table=call_ace.call_ace, number=2).data
    assert deal["void"] and deal["maker"] == order[3]
    dealer.filter(has_text=f"{order[1]} deals deal 3").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "words-void-faced")

    # Law 17: no one named a trump; no maker, and the deal passes to the left.
    form = page.locator("form.hand[data-kind=record]")
    void_choice(form, "no one named a trump")
    form.get_by_test_id("record-hand").click()
    page.get_by_test_id("phone-notice").filter(has_text="Deal 3 recorded").wait_for()
    deal = Hand.objects.get(rubber__table=call_ace.call_ace, number=3).data
    assert deal["void"] and deal.get("maker") is None
    dealer.filter(has_text=f"{order[2]} deals deal 4").wait_for()
    shot(page, "words-void-no-trump")


def test_a_void_choice_that_contradicts_the_maker_is_refused_in_words(
    browser_page, live_server, call_ace
):
    order = call_ace.call_ace_order
    page = open_phone(browser_page, f"{live_server.url}/t/{call_ace.call_ace.token}/")
    form = page.locator("form.hand[data-kind=record]")
    void_choice(form, "a card was found faced")
    form.get_by_test_id("record-hand").click()
    said = refusal_shown(page)
    assert "say who made it" in said and "laws 6, 50" in said
    form.locator("select[name=maker]").select_option(order[3])
    void_choice(form, "no one named a trump")
    form.get_by_test_id("record-hand").click()
    page.get_by_test_id("phone-error").filter(has_text="leave the maker empty").wait_for()
    assert "law 17" in refusal_shown(page)
    assert Hand.objects.filter(rubber__table=call_ace.call_ace).count() == 1
    shot(page, "words-void-refused")
