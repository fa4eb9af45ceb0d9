"""The phone at the table (issue #14 items 1, 2, 3, 7), in Debian's chromium at a 360 px
phone's width: a correction keeps the page and everything the hand had; two phones
recording the same hand store it once and the second is told; a hand entered with the
network gone waits in the phone's queue, survives a reload and is sent once when the
network returns, and one refused for too many requests from the table (429) waits and is
sent once allowed; seats, dealer and substitute in words; nothing wider than the screen.
Screenshots in artifacts/screenshots/phone-*.png."""

import re

import pytest
from django.core.cache import cache
from rest_framework.settings import api_settings

from club import evenings, recording
from config.throttles import AnonRateThrottle
from scoring.models import Hand, Rubber
from tests.browser import TABLE_POLL_MS, enter_at_once, fill_hand, polled, refusal_shown, shot
from tests.worlds import bridge_and_call_ace_in_play, edith_sits_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
WIDTH = "document.documentElement.scrollWidth"


@pytest.fixture
def phone(browser_page, live_server, played):
    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/t/{played.table.token}/")
    return page


def hands(played) -> list[dict]:
    return list(
        Hand.objects.filter(rubber=played.rubber).order_by("number").values_list("data", flat=True)
    )


def enter(page, *, makers: str, tricks: int, revokes_ew: int = 0):
    form = fill_hand(page, makers=makers, tricks=tricks)
    if revokes_ew:
        form.locator("details.irregular summary").click()
        form.locator("input[name=revokes_EW]").fill(str(revokes_ew))
    form.get_by_test_id("record-hand").click()


def test_a_correction_keeps_the_page_and_everything_the_hand_had(phone, played):
    page = phone
    enter(page, makers="NS", tricks=3, revokes_ew=1)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    assert hands(played)[1]["revokes"] == ["EW"]

    # The correction form is the entry form filled with hand 2: its revoke included.
    page.get_by_test_id("last-hand").locator("summary").first.click()
    form = page.locator("form.correct")
    assert form.locator("input[name=makers][value=NS]").is_checked()
    assert form.locator("input[name=tricks]").input_value() == "3"
    assert form.locator("input[name=revokes_EW]").input_value() == "1"
    assert form.locator("details.irregular").get_attribute("open") is not None
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "phone-1-correcting")

    form.locator("input[name=tricks]").fill("4")
    form.get_by_test_id("correct-hand").click()
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 corrected.").wait_for()
    # The heading, the seats and the entry form are all still there (they once vanished:
    # the answer was cut down to the score sheet alone).
    assert page.locator("h1", has_text="Table 1").is_visible()
    assert page.locator("form.hand[data-kind=record]").is_visible()
    assert page.get_by_test_id("seats").is_visible()
    corrected = hands(played)[1]
    assert corrected["tricks"] == 4
    assert corrected["revokes"] == ["EW"]  # not silently dropped
    assert len(hands(played)) == 2
    shot(page, "phone-2-corrected")


def test_two_phones_recording_the_same_hand_store_it_once(phone, played, live_server):
    """Two phones send hand 2 at once: one is recorded, the other refused as recorded.
    On SQLite too, since the tests' database is a file (config/settings.py): in memory the
    live server's threads shared the test's one connection, so two requests at once were
    not two transactions (one failed with the other's broken transaction, a 500)."""
    first = phone
    other = first.context.browser.new_context(viewport=PHONE)
    try:
        second = other.new_page()
        second.set_default_timeout(10_000)
        second.goto(f"{live_server.url}/t/{played.table.token}/")
        enter_at_once((first, second), tricks=3)
        for page in (first, second):
            page.wait_for_selector("[data-testid=phone-notice], [data-testid=phone-error]")
        assert len(hands(played)) == 2  # hand 1 and one hand 2: never two
        texts = [
            page.locator("[data-testid=phone-notice], [data-testid=phone-error]").first.inner_text()
            for page in (first, second)
        ]
        assert sum("Hand 2 recorded." in text for text in texts) == 1
        refused = next(text for text in texts if "Not recorded." in text)
        assert "Hand 2 is already recorded" in refused
        assert "the next is hand 3" in refused
        loser = first if "Not recorded." in texts[0] else second
        # The refused phone keeps what it typed, to send as hand 3 if that is what it was.
        assert loser.locator("form.hand[data-kind=record] input[name=tricks]").input_value() == "3"
        assert loser.locator("[data-next-label]").inner_text() == "3"
        assert loser.evaluate(WIDTH) <= PHONE["width"]
        shot(loser, "phone-3-second-phone-refused")
    finally:
        other.close()


def test_a_hand_entered_offline_waits_survives_a_reload_and_is_sent_once(phone, played):
    page = phone
    context = page.context
    context.set_offline(True)
    enter(page, makers="EW", tricks=5)
    queue = page.get_by_test_id("phone-queue")
    queue.filter(has_text="Not sent yet: 1 hand waiting").wait_for()
    assert page.get_by_test_id("phone-notice").count() == 0  # never "recorded" before it is
    assert len(hands(played)) == 1
    shot(page, "phone-4-offline")

    # Back online, but the hand's post still fails (a flaky Wi-Fi): the page is reloaded
    # and the queue is still there.
    page.route(re.compile(r"/hand/$"), lambda route: route.abort())
    context.set_offline(False)
    page.reload()
    queue.filter(has_text="Not sent yet: 1 hand waiting").wait_for()
    assert len(hands(played)) == 1

    # The connection is good again: the hand goes by itself, no second tap.
    page.unroute(re.compile(r"/hand/$"))
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    assert queue.is_hidden()
    assert [h["makers"] for h in hands(played)] == ["NS", "EW"]
    # Nothing left in the queue (beside it, the list of what was sent, shared with the
    # link's other tabs, may hold the hand sent).
    assert page.evaluate(
        "!Object.keys(localStorage).some("
        "k => k.startsWith('cardclub-phone-queue:') && JSON.parse(localStorage[k]).length)"
    )
    shot(page, "phone-5-back-online")


def test_seats_dealer_and_substitute_in_words_within_a_phones_width(phone, played):
    page = phone
    # Ann dealt hand 1; the deal passes to the left: Cora (East) deals hand 2.
    assert page.get_by_test_id("dealer").inner_text().startswith("Cora deals hand 2")
    body = page.locator("main").inner_text()
    for label in ("in_progress", "euchre-somerset-1888", "version", "[hand."):
        assert label not in body
    assert page.get_by_role("link", name="Log in").count() == 0
    assert page.get_by_role("link", name="API").count() == 0
    assert page.evaluate(WIDTH) <= PHONE["width"]

    enter(page, makers="NS", tricks=3)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    assert page.get_by_test_id("dealer").inner_text().startswith("Bob deals hand 3")

    # Dan leaves the rubber to Edith (law 18): she is shown in his seat as his substitute.
    evening = played.evening
    edith_sits_in(evening, "Dan")
    page.reload()
    west = page.get_by_test_id("seats").locator("li", has_text="West")
    assert "Edith" in west.inner_text() and "substitute for Dan" in west.inner_text()
    enter(page, makers="NS", tricks=3)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 3 recorded.").wait_for()
    # Hand 4 is West's deal: Edith deals it, in Dan's seat.
    assert page.get_by_test_id("dealer").inner_text().startswith("Edith deals hand 4")
    page.locator("form.hand[data-kind=record] details.irregular summary").click()
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "phone-6-substitute")


@pytest.fixture
def one_post_a_minute(monkeypatch):
    """The anonymous rate a table's phone is counted at (THROTTLE_ANON) at one request a
    minute (DRF reads the rates into the class)."""
    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "anon": "1/min"}
    monkeypatch.setattr(AnonRateThrottle, "THROTTLE_RATES", rates)


def test_a_throttled_hand_stays_queued_and_is_sent_once_allowed(
    browser_page, live_server, played, one_post_a_minute
):
    """Too many posts from the table (429, config/ratelimit.py): the hand is not dropped
    from the phone's queue, which says why in words and sends it again by itself once the
    wait the service gave (Retry-After) is over, not before."""
    page = browser_page
    page.clock.install()  # the phone's timers, run forward when the test says
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/t/{played.table.token}/")
    enter(page, makers="NS", tricks=3)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()

    enter(page, makers="EW", tricks=5)  # the minute's second post: refused
    queue = page.get_by_test_id("phone-queue")
    queue.filter(has_text="Too many requests from this table; wait").wait_for()
    text = queue.inner_text()
    assert text.startswith("Not sent yet: 1 hand waiting (hand 3). Too many requests")
    assert re.search(r"wait (59|60) seconds and try again\. What is waiting is kept", text)
    assert len(hands(played)) == 2
    assert page.get_by_test_id("refused-hand").count() == 0  # waiting, not refused
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "phone-10-throttled")

    cache.clear()  # the minute is over: the table may post again
    page.clock.run_for(20_000)  # its usual 3 s retry would have sent it by now
    assert len(hands(played)) == 2 and queue.is_visible()
    page.clock.run_for(45_000)  # past the wait the service gave
    page.get_by_test_id("phone-notice").filter(has_text="Hand 3 recorded.").wait_for()
    assert queue.is_hidden()
    assert page.get_by_test_id("refused-hand").count() == 0
    assert [h["makers"] for h in hands(played)] == ["NS", "NS", "EW"]


def test_the_public_standings_fit_a_phone(browser_page, live_server, played):
    page = browser_page
    played.club.is_public = True
    played.club.save(update_fields=["is_public"])
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/clubs/somerset/tournaments/winter/")
    page.wait_for_selector("#standings")
    assert "version" not in page.locator("#standings").inner_text().lower()
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "phone-7-standings")


def test_the_phone_moves_on_to_the_next_rubber_by_itself(phone, played):
    """The rubber ends and the four cut again for the next (law 11, ruling T4): the phone
    left open at the table shows the next rubber's first hand to record, without a reload.
    It once kept "The rubber is over" and no form until someone reloaded the page, while
    its score sheet, polled, already showed the new rubber."""
    page = phone
    evening = played.evening
    rubber = played.rubber
    page.clock.install()  # the sheet's poll run forward on the page's own clock, below
    while rubber.status != rubber.Status.COMPLETE:  # N-S march until the rubber is over
        recording.hand_record(
            evening_id=evening.pk, table_number=1, data={"makers": "NS", "tricks": 5}
        )
        rubber.refresh_from_db()
    page.reload()
    page.get_by_text("The rubber is over.").wait_for()
    assert page.locator("form.hand[data-kind=record]").count() == 0

    # The secretary has the four cut for partners and deal again.
    def pending_cut():
        evening.refresh_from_db()
        required = evenings.evening_summary(evening=evening)["required"]
        return any(item["kind"] == "cut" for item in required)

    while pending_cut():
        evenings.evening_act(evening_id=evening.pk, event={"type": "cut", "draw": True})
    polled(page, f"/t/{played.table.token}/", run_for=TABLE_POLL_MS)
    page.locator("form.hand[data-kind=record]").wait_for()
    assert page.get_by_text("The rubber is over.").count() == 0
    assert page.locator("[data-next-label]").inner_text() == "1"
    assert (
        page.get_by_test_id("dealer")
        .inner_text()
        .endswith("deals hand 1; the deal passes to the left (law 28).")
    )
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "phone-8-next-rubber")

    # And the hand is recorded in the new rubber.
    enter(page, makers="EW", tricks=3)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 1 recorded.").wait_for()


def test_call_ace_and_bridge_ask_for_the_maker_and_the_trump(browser_page, live_server, played):
    """A Call-Ace deal's maker and a Bridge hand's trump are chosen, never taken by
    default from the first in the list (a deal once went to Ann, first in the list, when
    the maker was not chosen). The Bridge declarer's side is named by its players."""
    tables = bridge_and_call_ace_in_play(played.club)
    page = browser_page
    page.set_viewport_size(PHONE)

    page.goto(f"{live_server.url}/t/{tables.call_ace.token}/")
    form = page.locator("form.hand[data-kind=record]")
    maker = form.locator("select[name=maker]")
    assert maker.input_value() == ""
    form.locator("input[name=tricks]").fill("3")
    form.get_by_test_id("record-hand").click()
    # Refused by name, not given to the first in the list (the list is not required: a
    # void deal no one made trumps in has no maker, law 17).
    page.get_by_test_id("phone-error").filter(
        has_text="The maker: say who made the trump"
    ).wait_for()
    assert Hand.objects.filter(rubber__table=tables.call_ace).count() == 1
    maker.select_option(tables.call_ace_order[1])
    form.locator("input[name=tricks]").fill("")
    form.get_by_test_id("record-hand").click()
    page.get_by_test_id("phone-error").filter(has_text="The tricks taken").wait_for()
    error = page.get_by_test_id("phone-error").inner_text()
    # A sentence, after the field as the form names it.
    assert (
        "The tricks taken by the maker and partner: give the tricks the maker and partner "
        "took (law 43)"
    ) in " ".join(error.split())
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "phone-9-call-ace-maker")

    page.goto(f"{live_server.url}/t/{tables.bridge.token}/")
    form = page.locator("form.hand[data-kind=record]")
    trump = form.locator("select[name=trump]")
    assert trump.input_value() == ""
    # The declarer's side is named by its players, as the Euchre makers are.
    north_south = " & ".join(Rubber.objects.get(table=tables.bridge).players["NS"])
    declarer = form.locator("label", has=page.locator("input[name=declarer][value=NS]"))
    assert declarer.inner_text().strip() == f"N-S {north_south}"
    form.locator("input[name=declarer][value=EW]").check()  # hand 2: E-W deal and declare
    form.locator("input[name=tricks_ns]").fill("7")
    form.get_by_test_id("record-hand").click()
    assert trump.evaluate("select => select.validity.valueMissing")
    assert Hand.objects.filter(rubber__table=tables.bridge).count() == 1
    trump.select_option(label="Hearts")
    form.locator("select[name=honours_side]").select_option("NS")
    form.locator("input[name=honours_held]").fill("3")
    form.locator("input[name=honours_in_one_hand]").fill("2")
    form.get_by_test_id("record-hand").click()
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()


def test_the_clubs_public_pages_fit_a_phone(browser_page, live_server, played):
    """The club's page, an evening's results and a player's record: a table wider than a
    360 px screen scrolls inside its box; the page itself never scrolls sideways."""
    played.club.is_public = True
    played.club.save(update_fields=["is_public"])
    page = browser_page
    page.set_viewport_size(PHONE)
    ann = played.members["Ann"]
    widths = {}
    for path in (
        "/clubs/somerset/",
        f"/clubs/somerset/evenings/{played.evening.pk}/",
        f"/clubs/somerset/players/{ann.pk}/",
    ):
        page.goto(f"{live_server.url}{path}")
        widths[path] = page.evaluate(WIDTH)
    shot(page, "phone-10-player-record")
    assert all(width <= PHONE["width"] for width in widths.values()), widths


def test_a_hand_refused_for_a_lost_csrf_cookie_is_kept_and_sent_again(phone, played):
    """The phone's browser lost its CSRF cookie (cleared, or the page restored without it):
    Django refuses the post (403) before anything is done. The hand was dropped from the
    queue and Django's refusal page swapped into the sheet; now it stays in the queue, the
    page is fetched again for a fresh cookie, and the hand is sent again, once."""
    page = phone
    page.context.clear_cookies()  # the phone holds no session, only the CSRF cookie
    with page.expect_response(re.compile(r"/hand/$")) as refused:
        enter(page, makers="EW", tricks=4)
    assert refused.value.status == 403
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    assert [h["makers"] for h in hands(played)] == ["NS", "EW"]
    assert page.get_by_test_id("phone-queue").is_hidden()
    assert "CSRF" not in page.inner_text("body")


def test_a_refused_hand_comes_back_as_typed_with_its_field_in_words(phone, played):
    """A hand the laws refuse, typed at the table: answered 400, as at a progressive's
    table's phone and the API; the form back as it was typed, the refusal naming the field
    as the form does, the hand out of the queue and not listed (it was seen at once)."""
    page = phone
    form = fill_hand(page, makers="EW", tricks=4)
    form.locator("details.irregular summary").click()
    form.locator("input[name=law102]").check()  # without "Played alone"
    with page.expect_response(re.compile(r"/hand/$")) as answer:
        form.get_by_test_id("record-hand").click()
    assert answer.value.status == 400
    assert refusal_shown(page) == (
        "Not recorded. The lone player's partner exposed a card: law 102 applies only when a "
        "lone hand is played"
    )
    form = page.locator("form.hand[data-kind=record]")
    assert form.locator("input[name=makers][value=EW]").is_checked()
    assert form.locator("input[name=tricks]").input_value() == "4"
    assert form.locator("input[name=law102]").is_checked()
    assert page.get_by_test_id("phone-queue").is_hidden()
    assert page.get_by_test_id("phone-refused").is_hidden()
    assert len(hands(played)) == 1
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "phone-11-refused-in-words")


def test_a_phone_without_javascript_records_a_hand_and_sees_a_styled_page(
    browser_page, live_server, played
):
    """JavaScript switched off (or its script never loaded): the form posts the ordinary
    way, and the answer is the whole page, styled, with the new score; it was once the
    live part alone, an unstyled scrap."""
    context = browser_page.context.browser.new_context(java_script_enabled=False, viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{played.table.token}/")
    fill_hand(page, makers="NS", tricks=5).get_by_test_id("record-hand").click()
    page.wait_for_url(re.compile(r"/hand/$"))
    page.get_by_test_id("phone-notice").filter(has_text="Hand 2 recorded.").wait_for()
    assert [hand["tricks"] for hand in hands(played)] == [3, 5]
    # The new score on the sheet: N-S 1 after hand 1, a march (2) makes 3 (law 2).
    row = page.locator(f"#rubber-{played.rubber.pk}-hand-2")
    assert re.sub(r"\s+", " ", row.inner_text()).strip().endswith("3 +2 0")
    # Styled: the site's stylesheet applied (the phone's own layout and colours), the page
    # whole (its heading and the form for the next hand), nothing wider than the screen.
    assert page.locator("link[rel=stylesheet]").count() == 1
    form = page.locator("form.hand[data-kind=record]")
    assert form.evaluate("e => getComputedStyle(e).display") == "grid"  # site.css's .phone
    assert page.locator("h1", has_text="Table 1").is_visible()
    assert form.locator("[data-next-label]").inner_text() == "3"
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "phone-11-without-javascript")
