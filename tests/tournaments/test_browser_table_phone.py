"""A progressive's table scored by its players on their own phones (360 px, Debian's
chromium): the director hands out the table's link from his page; a deal entered with the
network gone waits on the phone and is sent once it returns; the phone says the round is
over at the table and to wait for the director, and shows the next round's rubber at the
table by itself once he seats it; two phones at one table entering the same deal record it
once, the second told in words; a player corrects the last deal and sees the corrected
sheet. Screenshots in artifacts/screenshots/table-phone-*.png."""

import re

import pytest

from club import recording
from tests.browser import enter_at_once, enter_hand, log_in, refusal_shown, shot
from tests.tournaments.test_table_phone import at_table, hands
from tournaments import rounds, table_links
from tournaments.models import TournamentTable

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
WIDTH = "document.documentElement.scrollWidth"


def test_a_deal_entered_offline_is_sent_once_and_the_phone_follows_the_table(
    browser_page, live_server, round_one, director
):
    page = browser_page
    page.set_viewport_size(PHONE)
    log_in(page, live_server, "director")
    page.goto(f"{live_server.url}/secretary/tournaments/{round_one.pk}/")
    assert page.evaluate(WIDTH) <= PHONE["width"]  # the tables' links and their buttons
    page.get_by_test_id("phones").scroll_into_view_if_needed()
    shot(page, "table-phone-1-directors-links")
    address = page.get_by_test_id("phone-link-1").get_attribute("href")
    token = TournamentTable.objects.get(tournament=round_one, number=1).token
    assert address == f"/p/{token}/"

    # The players' phone: no login, the card's link.
    phone = page.context.browser.new_context(viewport=PHONE).new_page()
    try:
        phone.set_default_timeout(10_000)
        phone.clock.install()  # the phone's own clock: its poll (3 s) run forward where waited
        phone.goto(f"{live_server.url}{address}")
        assert phone.locator("h1").inner_text() == "Table 1"
        assert phone.get_by_test_id("seats").is_visible()
        phone.context.set_offline(True)
        enter_hand(phone, makers="NS", tricks=3)
        queue = phone.get_by_test_id("phone-queue")
        queue.filter(has_text="Not sent yet: 1 hand waiting").wait_for()
        assert phone.get_by_test_id("phone-notice").count() == 0  # not "recorded" before it is
        assert hands(at_table(round_one)) == []
        assert phone.evaluate(WIDTH) <= PHONE["width"]
        shot(phone, "table-phone-2-offline")

        phone.context.set_offline(False)
        phone.evaluate("window.dispatchEvent(new Event('online'))")
        phone.get_by_test_id("phone-notice").filter(has_text="Hand 1 recorded.").wait_for()
        assert queue.is_hidden()
        assert [d["makers"] for d in hands(at_table(round_one))] == ["NS"]
        # Its one deal ends the round at the table (ruling P1): what next, in words.
        state = phone.get_by_test_id("table-state").inner_text()
        assert "Round 1 is over at this table: won by" in state
        assert "Wait for the director to seat round 2" in state
        assert "still playing: table 2" in state
        assert phone.locator("form.hand[data-kind=record]").count() == 0
        assert phone.evaluate(WIDTH) <= PHONE["width"]
        shot(phone, "table-phone-3-round-over")

        # Table 2 finishes, the director seats round 2: the phone left open shows table 1's
        # new players and rubber by itself, and records there.
        other = round_one.rounds.get(number=1).tables.get(number=2)
        recording.hand_record(rubber_id=other.rubber_id, data={"makers": "EW", "tricks": 3})
        rounds.round_seat_next(tournament_id=round_one.pk, user=director)
        phone.clock.run_for(3_000)
        phone.get_by_test_id("table-round").filter(has_text="round 2").wait_for(timeout=8000)
        assert phone.locator("[data-next-label]").inner_text() == "1"
        north = round_one.rounds.get(number=2).seating["tables"][0]["seats"]["N"]
        seats = phone.get_by_test_id("seats").inner_text()
        assert re.search(rf"north\s+{north}\b", seats, re.IGNORECASE), seats
        enter_hand(phone, makers="EW", tricks=4)
        phone.get_by_test_id("phone-notice").filter(has_text="Hand 1 recorded.").wait_for()
        assert [d["makers"] for d in hands(at_table(round_one, 2))] == ["EW"]
        assert [d["makers"] for d in hands(at_table(round_one))] == ["NS"]  # round 1's, untouched
        assert phone.evaluate(WIDTH) <= PHONE["width"]
        shot(phone, "table-phone-4-next-round")
    finally:
        phone.context.close()


def test_a_player_corrects_the_last_deal_and_sees_the_corrected_sheet(
    browser_page, live_server, round_one
):
    """As at an evening's table (law 5, ruling E9): the last deal's form filled with it,
    sent by the phone's queue (kept while the network is gone, with its Idempotency-Key),
    the sheet showing the corrected deal with the original beside it. Its one deal ended
    the round at the table (ruling P1): its figures may still be corrected."""
    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/p/{TournamentTable.objects.get(number=1).token}/")
    enter_hand(page, makers="NS", tricks=3)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 1 recorded.").wait_for()
    assert "Round 1 is over at this table" in page.get_by_test_id("table-state").inner_text()

    panel = page.get_by_test_id("last-hand")
    panel.locator("summary").first.click()
    form = panel.locator("form.correct")
    assert form.locator("input[name=makers][value=NS]").is_checked()
    assert form.locator("input[name=tricks]").input_value() == "3"
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "table-phone-7-correcting")

    page.context.set_offline(True)
    form.locator("input[name=tricks]").fill("5")
    form.get_by_test_id("correct-hand").click()
    queue = page.get_by_test_id("phone-queue")
    queue.filter(has_text="(correction of hand 1)").wait_for()
    # Not corrected before it is sent.
    assert [d["tricks"] for d in hands(at_table(round_one))] == [3]
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.get_by_test_id("phone-notice").filter(has_text="Hand 1 corrected.").wait_for()
    assert queue.is_hidden()
    assert [d["tricks"] for d in hands(at_table(round_one))] == [5]

    row = page.locator("#table-sheet tr.hand.corrected")
    assert row.count() == 1
    text = row.inner_text()
    assert "N-S make, 5 tricks (march)" in text and "+2" in text  # law 2
    assert "was N-S make, 3 tricks" in text  # the original beside it (ruling E9)
    assert "corrected by the players, before the next hand" in text and "(law 5)" in text
    assert "Round 1 is over at this table" in page.get_by_test_id("table-state").inner_text()
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "table-phone-8-corrected")


def test_the_last_table_corrects_the_tournaments_last_deal_until_the_results_are_final(
    browser_page, live_server, round_one
):
    """The last deal of the last round ends the tournament, and no deal follows it (law 5,
    ruling E9): the phone at that table still offers its correction, and makes it, until
    the director declares the results final; then, left open, it says so by itself and
    offers nothing more. It once refused the correction the moment the deal was recorded."""
    round_one.rounds_planned = 1
    round_one.save(update_fields=["rounds_planned"])
    recording.hand_record(
        rubber_id=at_table(round_one).rubber_id, data={"makers": "EW", "tricks": 3}
    )
    page = browser_page
    page.set_viewport_size(PHONE)
    page.clock.install()  # the phone's own clock: its poll (3 s) run forward where waited
    page.goto(f"{live_server.url}/p/{TournamentTable.objects.get(number=2).token}/")
    enter_hand(page, makers="NS", tricks=3)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 1 recorded.").wait_for()
    state = " ".join(page.get_by_test_id("table-state").inner_text().split())
    assert state.startswith(
        "The tournament is over: every table has played its last round, round 1, and this "
        "table's link records nothing more. No deal follows this table's last, so it may "
        "still be corrected here (law 5, ruling E9) until the director declares the results "
        "final."
    )
    assert page.locator("form.hand[data-kind=record]").count() == 0

    panel = page.get_by_test_id("last-hand")
    panel.locator("summary").first.click()
    form = panel.locator("form.correct")
    form.locator("input[name=makers][value=EW]").check()  # the sides were the wrong way round
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "table-phone-11-last-deal-correcting")
    form.get_by_test_id("correct-hand").click()
    page.get_by_test_id("phone-notice").filter(has_text="Hand 1 corrected.").wait_for()
    assert [d["makers"] for d in hands(at_table(round_one, number=2))] == ["EW"]
    row = page.locator("#table-sheet tr.hand.corrected")
    assert "was N-S make, 3 tricks" in row.inner_text()  # the original beside it (E9)
    assert rounds.round_as_dict(round_one.rounds.get(number=1))["tables"][1]["winner"] == "EW"

    # The director declares the results final: the phone left open follows by itself.
    rounds.tournament_results_final(tournament_id=round_one.pk)
    page.clock.run_for(3_000)
    page.get_by_test_id("table-state").filter(has_text="declared the results final").wait_for(
        timeout=8000
    )
    assert "records and corrects nothing more" in page.get_by_test_id("table-state").inner_text()
    assert page.get_by_test_id("last-hand").count() == 0
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "table-phone-12-results-final")


def test_a_refused_correction_names_its_field_in_words_and_comes_back_as_typed(
    browser_page, live_server, round_one
):
    """Answered as at an evening's table's phone: 400, the correction's form back as it
    was typed and open, the refusal naming the field as the form does ("the tricks taken
    by the makers"), never its path (hands[0].tricks); out of the queue, not listed."""
    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/p/{TournamentTable.objects.get(number=1).token}/")
    enter_hand(page, makers="NS", tricks=3)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 1 recorded.").wait_for()
    panel = page.get_by_test_id("last-hand")
    panel.locator("summary").first.click()
    form = panel.locator("form.correct")
    # The browser holds the field to 0-5 itself; the service refuses it all the same (a
    # browser that does not check, a page's limits out of date): sent unchecked here.
    form.evaluate("form => { form.noValidate = true; }")
    form.locator("input[name=tricks]").fill("6")
    with page.expect_response(re.compile(r"/hand/$")) as answer:
        form.get_by_test_id("correct-hand").click()
    assert answer.value.status == 400
    assert refusal_shown(page) == (
        "Not recorded. In hand 1, the tricks taken by the makers: 6 is out of range: must be "
        "from 0 to 5 (law 2)"
    )
    assert "hands[" not in page.inner_text("body")
    assert panel.get_attribute("open") is not None
    assert panel.locator("input[name=tricks]").input_value() == "6"
    assert page.get_by_test_id("phone-queue").is_hidden()
    assert page.get_by_test_id("phone-refused").is_hidden()
    assert [d["tricks"] for d in hands(at_table(round_one))] == [3]
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "table-phone-9-refused-in-words")


def test_two_phones_at_one_table_entering_the_same_deal_record_it_once(
    browser_page, live_server, round_one
):
    """Two phones at one progressive table send the same deal at once: it is recorded
    once. On SQLite too (its tests' database a file: each of the live server's threads
    has a connection of its own)."""
    address = f"{live_server.url}/p/{TournamentTable.objects.get(number=1).token}/"
    first = browser_page
    first.set_viewport_size(PHONE)
    first.goto(address)
    other = first.context.browser.new_context(viewport=PHONE)
    try:
        second = other.new_page()
        second.set_default_timeout(10_000)
        second.goto(address)
        enter_at_once((first, second), tricks=4)
        answers = "[data-testid=phone-notice], [data-testid=phone-error]"
        for page in (first, second):
            page.wait_for_selector(answers)
        assert len(hands(at_table(round_one))) == 1  # never two
        texts = [page.locator(answers).first.inner_text() for page in (first, second)]
        assert sum("Hand 1 recorded." in text for text in texts) == 1
        refused = next(text for text in texts if "Not recorded." in text)
        assert "Hand 1 is already recorded at this table" in refused
        loser = first if "Not recorded." in texts[0] else second
        assert loser.evaluate(WIDTH) <= PHONE["width"]
        shot(loser, "table-phone-5-second-refused")
    finally:
        other.close()


def test_a_phone_holding_a_replaced_link_is_told_in_words(browser_page, live_server, round_one):
    page = browser_page
    page.set_viewport_size(PHONE)
    old = TournamentTable.objects.get(tournament=round_one, number=1).token
    page.clock.install()  # the phone's own clock: its poll (3 s) run forward, not waited for
    page.goto(f"{live_server.url}/p/{old}/")
    table_links.table_link_renew(
        link_id=TournamentTable.objects.get(tournament=round_one, number=1).pk
    )
    # The page's poll finds its link dead: the page reloads and says why.
    page.clock.run_for(3_000)
    page.get_by_test_id("dead-link").wait_for(timeout=8000)
    assert page.get_by_test_id("dead-link").inner_text() == (
        "This table's link was replaced by a new one."
    )
    assert "Ask the tournament's director for the table's new card." in page.inner_text("main")
    assert page.evaluate(WIDTH) <= PHONE["width"]
    assert re.search(r"/p/[^/]+/$", page.url)
    shot(page, "table-phone-6-replaced")


@pytest.mark.parametrize("per_page", [4, 2])
def test_the_tables_cards_print_on_a4_with_each_tables_link(
    browser_page, live_server, round_one, director, settings, per_page
):
    """The director prints the progressive's table cards from his page: one card a table
    seated, carrying its link for the whole tournament (`/p/<token>/`), laid out on A4 as
    the evening's cards are (tests/club/test_browser_table_cards.py)."""
    from club.phone_links import qr_svg
    from tests.club.test_browser_table_cards import assert_printed_on_a4

    base = "http://192.0.2.7:8000"  # a documentation address: nothing is sent to it
    settings.PUBLIC_BASE_URL = base
    page = browser_page
    log_in(page, live_server, "director")
    page.goto(f"{live_server.url}/secretary/tournaments/{round_one.pk}/")
    page.get_by_test_id("table-cards").click()
    page.wait_for_url(re.compile(r"/table-cards/$"))
    if per_page == 2:
        page.get_by_role("link", name="2", exact=True).click()
        page.wait_for_url(re.compile(r"per_page=2$"))
    links = TournamentTable.objects.filter(tournament=round_one).order_by("number")
    assert page.locator("article.table-print-card").count() == len(links) == 2
    for link in links:
        address = f"{base}/p/{link.token}/"
        card = page.locator(f"article[data-table='{link.number}']")
        assert card.get_by_test_id(f"link-{link.number}").inner_text() == address
        assert card.locator("svg.qr path").get_attribute("d") in qr_svg(address)
    assert_printed_on_a4(page, cards_in_all=len(links), per_page=per_page, name="progressive-cards")
