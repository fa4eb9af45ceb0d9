"""An open phone follows what the secretary does at its table, in Debian's chromium at
360 px: a substitute seated (law 18) shows in the seats and in the form's words for the
sides at the next poll, whatever the player has typed in the form kept as it was; and
when another phone records or takes back a hand while this one is being typed in, the
heading, the last hand's panels and a refusal that no longer holds follow the table
(law 5, law 28, ruling E9). Screenshots in artifacts/screenshots/phone-follows-*.png."""

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser import PHONE, enter_hand, fill_hand, open_phone, open_two_phones, shot
from tests.club.test_browser_phone_take_back import back_online, second_hand_by_mistake
from tests.worlds import edith_sits_in, sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = "document.documentElement.scrollWidth"


def on_phone(page, live_server, played):
    page.set_default_timeout(10_000)
    return open_phone(page, f"{live_server.url}/t/{played.table.token}/")


def side_words(page, value: str) -> str:
    label = page.locator(f"form.hand[data-kind=record] label:has(input[value={value}])")
    return " ".join(label.inner_text().split())


def test_a_substitute_seated_shows_at_the_next_poll_keeping_what_is_typed(
    browser_page, live_server, played
):
    """Dan leaves the rubber to Edith (law 18) while hand 2 is half entered: at the next
    poll the seats name her in his seat and the form's E-W reads "Cora & Edith (for
    Dan)", the side chosen and the tricks typed still there."""
    page = on_phone(browser_page, live_server, played)
    assert side_words(page, "EW") == "E-W Cora & Dan"
    form = fill_hand(page, makers="EW", tricks=4)
    form.locator("input[name=alone]").check()
    evening = played.evening
    edith_sits_in(evening, "Dan")
    west = page.get_by_test_id("seats").locator("li", has_text="West")
    west.filter(has_text="substitute for Dan").wait_for()
    assert "Edith" in west.inner_text()
    page.wait_for_function(
        "() => document.querySelector('form.hand[data-kind=record] "
        "input[name=makers][value=EW]').parentElement.textContent.includes('Edith')"
    )
    assert side_words(page, "EW") == "E-W Cora & Edith (for Dan)"
    assert form.locator("input[name=makers][value=EW]").is_checked()
    assert form.locator("input[name=tricks]").input_value() == "4"
    assert form.locator("input[name=alone]").is_checked()
    # The correction of hand 1 names her too.
    correction = page.locator("form[data-kind=correct]")
    assert (
        "Edith (for Dan)"
        in correction.locator("label:has(input[name=makers][value=EW])").text_content()
    )
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "phone-follows-1-substitute")


def two_phones(browser_page, live_server, played):
    return open_two_phones(browser_page, f"{live_server.url}/t/{played.table.token}/", clock=True)


def test_the_heading_names_the_dealer_of_the_hand_the_table_is_at_while_one_types(
    browser_page, live_server, played
):
    """The other phone records hand 2 (Cora's deal) while this one types: at the next poll
    the heading says Bob deals hand 3 (law 28), not "Cora deals hand 2" beside a sheet that
    holds hand 2; the form, still for hand 2, says why, what is typed kept."""
    first, second = two_phones(browser_page, live_server, played)
    assert first.get_by_test_id("dealer").inner_text().startswith("Cora deals hand 2")
    form = fill_hand(first, makers="NS", tricks=3)
    enter_hand(second, makers="EW", tricks=4)
    second.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    first.clock.run_for(3_000)
    first.get_by_test_id("table-moved-on").wait_for()
    first.get_by_test_id("dealer").filter(has_text="Bob deals hand 3").wait_for()
    south = first.get_by_test_id("seats").locator("li", has_text="South")
    assert south.locator(".badge").is_visible()  # Bob, South, marked as dealing
    assert form.locator("input[name=makers][value=NS]").is_checked()
    assert form.locator("input[name=tricks]").input_value() == "3"
    assert first.evaluate(WIDTH) <= PHONE["width"]
    shot(first, "phone-follows-2-dealer")


def test_a_hand_taken_back_by_the_other_phone_is_no_longer_offered_here(
    browser_page, live_server, played
):
    """Hand 2 on the sheet; this phone types hand 3 while the other takes hand 2 back: at
    the next poll "Correct hand 2" and "Take back hand 2" go, hand 1 being the last and no
    longer the table's to change (law 5, ruling E9); what is typed stays."""
    second_hand_by_mistake(played)
    first, second = two_phones(browser_page, live_server, played)
    assert first.get_by_test_id("take-back").locator("summary").inner_text() == ("Take back hand 2")
    form = fill_hand(first, makers="NS", tricks=5)
    second.get_by_test_id("take-back").locator("summary", has_text="Take back hand 2").click()
    second.get_by_role("button", name="Yes, take back hand 2").click()
    second.get_by_test_id("phone-notice").filter(has_text="Hand 2 taken back").wait_for()
    first.clock.run_for(3_000)
    first.get_by_test_id("last-hand-followed").wait_for()
    assert first.get_by_test_id("take-back").count() == 0
    assert first.get_by_test_id("last-hand").count() == 0
    assert first.get_by_text("Take back hand 2").count() == 0
    assert first.get_by_test_id("table-moved-on").is_visible()
    assert form.locator("input[name=tricks]").input_value() == "5"
    assert sheet(played) == [("NS", 3)]
    shot(first, "phone-follows-3-taken-back")


def test_a_refusal_that_no_longer_holds_goes_at_the_next_poll(browser_page, live_server, played):
    """Refused ("hand 2 is already recorded ... the next is hand 3: if that is the one
    meant, send it again"), then the other phone records hand 3: the refusal's words no
    longer hold and go at the next poll; the page says the table has moved on."""
    first, second = two_phones(browser_page, live_server, played)
    enter_hand(second, makers="EW", tricks=4)
    second.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    enter_hand(first, makers="NS", tricks=3)
    refusal = first.get_by_test_id("phone-error")
    refusal.filter(has_text="the next is hand 3: if that is the one meant").wait_for()
    second.clock.run_for(3_000)
    enter_hand(second, makers="NS", tricks=2)
    second.get_by_test_id("phone-notice").filter(has_text="Hand 3 recorded.").wait_for()
    # The next poll after hand 3 takes the refusal away. One already on its way when hand 3
    # was recorded brings the table as it was, so the clock is run on poll by poll (on a
    # loaded machine, one such poll made the test time out waiting).
    for _ in range(5):
        first.clock.run_for(3_000)
        try:
            refusal.wait_for(state="detached", timeout=4_000)
            break
        except PlaywrightTimeout:
            continue
    assert refusal.count() == 0
    note = first.get_by_test_id("table-moved-on")
    assert "Another phone at this table has recorded hand 3" in note.inner_text()
    assert first.get_by_test_id("dealer").inner_text().startswith("Dan deals hand 4")
    assert sheet(played) == [("NS", 3), ("EW", 4), ("NS", 2)]
    shot(first, "phone-follows-4-refusal-gone")


def test_a_refused_hands_listing_keeps_the_substitutes_words(browser_page, live_server, played):
    """A hand that waited and was refused is listed in the form's words: "makers: E-W Cora
    & Edith (for Dan)", the substitute's brackets kept (law 18); only a law cited at the
    end of a label is left out ("Played alone (law 3)": "played alone")."""
    evening = played.evening
    edith_sits_in(evening, "Dan")
    page = on_phone(browser_page, live_server, played)
    page.context.set_offline(True)
    form = fill_hand(page, makers="EW", tricks=4)
    form.locator("input[name=alone]").check()
    form.get_by_test_id("record-hand").click()
    page.get_by_test_id("phone-queue").filter(has_text="(hand 2)").wait_for()
    second_hand_by_mistake(played)  # another phone records hand 2 meanwhile
    back_online(page)
    refused = page.get_by_test_id("refused-hand")
    refused.first.wait_for()
    assert " ".join(refused.first.locator("p").first.inner_text().split()) == (
        "Hand 2 (makers: E-W Cora & Edith (for Dan); played alone; tricks taken by the "
        "makers: 4) was not recorded."
    )
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "phone-follows-5-refused-substitute")
