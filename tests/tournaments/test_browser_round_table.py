"""A progressive's tables scored by their director on a phone (360 px, Debian's chromium):
from the director's page to each table's sheet, a deal entered with the network gone kept
and sent once it returns, two directors entering the same deal stored once and the
second told. Screenshots in artifacts/screenshots/round-table-*.png."""

import re

import pytest

from tests.browser import enter_at_once, enter_hand, log_in, shot
from tests.tournaments.test_table_phone import at_table, hands

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
WIDTH = "document.documentElement.scrollWidth"


def test_a_director_scores_a_round_on_a_phone_one_deal_sent_after_the_network_returns(
    browser_page, live_server, round_one
):
    page = browser_page
    page.set_viewport_size(PHONE)
    log_in(page, live_server, "director")
    page.goto(f"{live_server.url}/secretary/tournaments/{round_one.pk}/")
    page.get_by_test_id("table-1-1").click()
    page.wait_for_url(re.compile(r"/rounds/1/tables/1/$"))
    assert page.locator("h1").inner_text() == "Round 1, table 1"
    enter_hand(page, makers="NS", tricks=3)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 1 recorded.").wait_for()
    assert "Won by " in page.get_by_test_id("table-over").inner_text()
    assert page.locator("form.hand[data-kind=record]").count() == 0  # the deal ends it
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "round-table-1-won")

    # Table 2, the network gone as the deal is entered: it waits, and goes once it returns.
    page.goto(f"{live_server.url}/secretary/tournaments/{round_one.pk}/rounds/1/tables/2/")
    page.context.set_offline(True)
    enter_hand(page, makers="EW", tricks=5)
    queue = page.get_by_test_id("phone-queue")
    queue.filter(has_text="Not sent yet: 1 hand waiting").wait_for()
    assert page.get_by_test_id("phone-notice").count() == 0
    assert hands(at_table(round_one, number=2)) == []
    shot(page, "round-table-2-offline")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.get_by_test_id("phone-notice").filter(has_text="Hand 1 recorded.").wait_for()
    assert queue.is_hidden()
    assert [d["makers"] for d in hands(at_table(round_one, number=2))] == ["EW"]

    # Every table has its result: the next round can be seated from the director's page.
    page.goto(f"{live_server.url}/secretary/tournaments/{round_one.pk}/")
    assert page.evaluate(WIDTH) <= PHONE["width"]  # the rounds' tables and their links
    assert page.get_by_test_id("table-links-1").inner_text().count("(done)") == 2
    rows = page.locator("section.panel table.grid").last.inner_text()
    assert rows.count("(N-S)") + rows.count("(E-W)") == 2  # each table's winners named
    page.get_by_test_id("seat").click()
    page.get_by_test_id("notice").filter(has_text="Round 2 is seated.").wait_for()


def test_two_directors_entering_the_same_deal_store_it_once(
    browser_page, live_server, round_one, secretary, postgres
):
    first = browser_page
    first.set_viewport_size(PHONE)
    log_in(first, live_server, "director")
    address = f"{live_server.url}/secretary/tournaments/{round_one.pk}/rounds/1/tables/1/"
    first.goto(address)
    other = first.context.browser.new_context(viewport=PHONE)
    try:
        second = other.new_page()
        second.set_default_timeout(10_000)
        log_in(second, live_server, "secretary")
        second.goto(address)
        enter_at_once((first, second), tricks=4)
        answers = "[data-testid=phone-notice], [data-testid=refusal]"
        for page in (first, second):
            page.wait_for_selector(answers)
        assert len(hands(at_table(round_one))) == 1  # never two
        texts = [page.locator(answers).first.inner_text() for page in (first, second)]
        assert sum("Hand 1 recorded." in text for text in texts) == 1
        refused = next(text for text in texts if "Not recorded." in text)
        assert "Hand 1 is already recorded at this table" in refused
        loser = first if "Not recorded." in texts[0] else second
        assert loser.evaluate(WIDTH) <= PHONE["width"]
        shot(loser, "round-table-3-second-refused")
    finally:
        other.close()


def test_the_director_corrects_the_last_deal_on_the_sheet_after_the_results_are_final(
    browser_page, live_server, round_one, director
):
    """The tournament's last deal, its results declared final: the director corrects it on
    the table's sheet, with a reason, as the club's referee (law 5, ruling E9), and sees
    the round's result as it now is."""
    from club import recording
    from tournaments import rounds

    director.first_name, director.last_name = "Dora", "Whist"
    director.save()
    round_one.rounds_planned = 1
    round_one.save(update_fields=["rounds_planned"])
    for number, makers in ((1, "EW"), (2, "NS")):
        rubber_id = at_table(round_one, number=number).rubber_id
        recording.hand_record(rubber_id=rubber_id, data={"makers": makers, "tricks": 3})
    rounds.tournament_results_final(tournament_id=round_one.pk)

    page = browser_page
    page.set_viewport_size(PHONE)
    log_in(page, live_server, "director")
    page.goto(f"{live_server.url}/secretary/tournaments/{round_one.pk}/")
    assert (
        "The results were declared final at " in page.get_by_test_id("results-final").inner_text()
    )
    page.get_by_test_id("table-1-2").click()
    page.wait_for_url(re.compile(r"/rounds/1/tables/2/$"))
    form = page.get_by_test_id("correction-form")
    assert form.locator("input[name=makers][value=NS]").is_checked()  # as recorded
    form.locator("input[name=makers][value=EW]").check()
    form.locator("textarea[name=reason]").fill("The sides were entered the wrong way round")
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "round-table-4-correcting-after-the-results")
    form.get_by_test_id("correct-hand").click()
    page.wait_for_url(re.compile(r"/rounds/1/tables/2/#corrections$"))
    seats = round_one.rounds.get(number=1).seating["tables"][1]["seats"]
    # Said beside the corrections, in view where the page went (it was at the page's head,
    # off a phone's screen, the page scrolled to the corrections).
    corrected = page.get_by_test_id("corrected")
    assert corrected.is_visible() and page.locator("ul.messages li").count() == 0
    top = corrected.evaluate("e => e.getBoundingClientRect().top")
    assert 0 <= top < page.viewport_size["height"], top
    said = " ".join(corrected.inner_text().split())
    assert said == (
        "Hand 1 corrected; the original stays beside it (ruling E9). Round 1 at table 2 is now "
        f"won by {seats['E']} & {seats['W']} (E-W), no longer by {seats['N']} & {seats['S']} "
        "(N-S). The standings are recalculated with it."
    )
    assert (
        f"Won by {seats['E']} & {seats['W']} (E-W)."
        in page.get_by_test_id("table-over").inner_text()
    )
    row = " ".join(page.locator("tr.hand.corrected").inner_text().split())
    assert "was N-S make, 3 tricks" in row
    assert "corrected by the club's referee (Dora Whist)" in row
    assert [d["makers"] for d in hands(at_table(round_one, number=2))] == ["EW"]
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "round-table-5-corrected-after-the-results")
