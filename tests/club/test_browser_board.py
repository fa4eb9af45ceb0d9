"""A browser runs an evening on the secretary's board: ten arrivals, two tables formed by
drawn cuts, hands recorded from a table's phone link, a rubber finished and a waiting
member cut in (law 15, ruling T5). Screenshots in artifacts/screenshots/board-*.png."""

import re
from decimal import Decimal

import pytest

from club import evenings, recording
from club.models import Evening
from scoring.models import Rubber
from tests.browser import log_in, polled, settled, shot
from tests.club.test_browser_board_live import BOARD_POLL_MS, open_board, open_evening, seat_four

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = "document.documentElement.scrollWidth"
PLAYERS = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Hugh", "Iris", "Jack"]


def act(page, testid: str):
    """Click a board button and wait until htmx has swapped in the board it answered."""
    settled(page)
    with page.expect_response(re.compile(r"/action/$")):
        page.get_by_test_id(testid).first.click()
    settled(page)


def test_an_evening_on_the_board(browser_page, live_server, club, secretary):
    page = browser_page
    page.clock.install()  # the board's own clock: its poll is run forward, not waited for
    log_in(page, live_server)
    page.get_by_test_id("open-evening").click()
    page.wait_for_url(re.compile(r"/secretary/evenings/\d+/$"))
    evening = Evening.objects.get()

    for name in PLAYERS:
        page.fill("input[name=player]", name)
        act(page, "arrive")
    assert page.locator("#board .chip.candidate").count() >= 10
    shot(page, "board-1-arrivals")

    # Ten candidates: a cut forms the first table of four with two waiting (law 12).
    act(page, "form-table")
    while page.get_by_test_id("draw-cut").count():
        act(page, "draw-cut")
    # The four remaining candidates form the second table; they cut for partners and deal.
    act(page, "form-table")
    while page.get_by_test_id("draw-cut").count():
        act(page, "draw-cut")
    assert page.locator("article.table-card").count() == 2
    evening.refresh_from_db()
    table_one = next(t for t in evening.state["tables"] if t["number"] == 1)
    waiting = table_one["waiting"]
    assert len(waiting) == 2  # the fifth and sixth belong to table 1
    shot(page, "board-2-two-tables")

    # A player at table 1 records the hands of a whole rubber on his phone.
    link = page.get_by_test_id("table-link-1").get_attribute("href")
    phone = page.context.new_page()
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto(f"{live_server.url}{link}")
    shot(phone, "board-3-phone-before")
    for tricks in [5, 5, 3] * 3:  # march, march, three tricks: N-S win three games
        settled(phone)
        form = phone.locator("form.hand")
        form.locator("input[name=makers][value=NS]").check()
        form.locator("input[name=tricks]").fill(str(tricks))
        with phone.expect_response(re.compile(r"/hand/$")):
            form.get_by_test_id("record-hand").click()
    shot(phone, "board-3-phone")
    # The secretary looks at his board again: a tab behind another gets no animation
    # frames, by which Playwright waits for a button to stand still before each tap (a
    # second or so a tap, the board's cuts below taking seven).
    page.bring_to_front()

    # The board sees the rubber end without a reload; the waiting members claim (ruling T5)
    # and a cut decides who goes out.
    polled(page, f"/secretary/evenings/{evening.pk}/board/", run_for=BOARD_POLL_MS)
    page.wait_for_selector("text=cut to decide who goes out")
    shot(page, "board-4-rubber-over")
    while page.get_by_test_id("draw-cut").count():
        act(page, "draw-cut")
    evening.refresh_from_db()
    table_one = next(t for t in evening.state["tables"] if t["number"] == 1)
    assert set(waiting) <= set(table_one["playing"])  # both waiting members cut in
    assert len(table_one["waiting"]) == 2  # and two who had played went out to wait
    assert not set(waiting) & set(table_one["waiting"])
    shot(page, "board-5-cut-in")


def test_the_board_names_each_law_once_and_no_field_by_its_key(
    browser_page, live_server, club, secretary
):
    """What the laws made of an action, and a refusal, each name their law once and in
    words ("ruling T2: Bob arrives ..."), never "ruling T2: ruling T2: ..." or a field's
    key such as "[player]" or "[cards.Cora]"."""
    evening = evenings.evening_open(
        club=club, date="1888-11-21", ruleset="euchre-somerset-1888", stake=Decimal("0.25")
    )
    page = browser_page
    open_board(page, live_server, evening)
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        page.fill("input[name=player]", name)
        act(page, "arrive")
    notice = page.locator("#board .alert.ok").inner_text()
    assert "Dan arrives and is a candidate, number 4" in notice
    assert notice.count("ruling T2") == 1

    page.fill("input[name=player]", "Bob")  # Bob is in the room already
    act(page, "arrive")
    refusal = page.locator("#board .alert.error").inner_text()
    assert "Bob is already in the room" in refusal
    assert refusal.lower().count("ruling t2") == 1  # said once (a sentence: "Ruling T2: ...")
    assert "[" not in refusal  # no "[player]"
    shot(page, "board-6-refusal-in-words")

    act(page, "form-table")
    notice = page.locator("#board .alert.ok").inner_text()
    assert notice.count("ruling T3") == 1
    for name, card in {"Ann": "JS", "Bob": "AH", "Cora": "ZZ", "Dan": "9C"}.items():
        page.fill(f"input[name='card-{name}']", card)
    act(page, "enter-cut")
    refusal = page.locator("#board .alert.error").inner_text()
    assert "'ZZ' is not a card" in refusal
    assert refusal.lower().count("ruling t1") == 1
    assert "cards.Cora" not in refusal and "[" not in refusal
    # The card at fault is marked instead.
    assert page.locator("input[name='card-Cora']").get_attribute("aria-invalid") == "true"


def test_call_ace_throws_typed_on_the_board_are_entered(browser_page, live_server, club, secretary):
    """Call-Ace (law 1): the cards thrown round, typed on the board, find the first jack;
    the form once sent no table and was refused with "'deal_jack' needs 'table'"."""
    evening = evenings.evening_open(
        club=club, date="1905-03-01", ruleset="call-ace-foster-1905", stake=Decimal("0.10")
    )
    for name in ["Ann", "Bob", "Cora", "Dan", "Edith"]:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    evening.refresh_from_db()
    order = evenings.evening_summary(evening=evening)["tables"][0]["playing"]
    page = browser_page
    open_board(page, live_server, evening)

    throws = page.locator("input[name=throws]")
    throws.fill(f"{order[0]} 9S, {order[1]} JD")
    settled(page)
    with page.expect_response(re.compile(r"/action/$")):
        page.get_by_role("button", name="Enter the throws").click()
    settled(page)
    assert page.locator("#board .alert.error").count() == 0
    assert f"{order[1]} receives the first jack" in page.locator("#board .alert.ok").inner_text()
    assert page.locator("article.table-card", has_text=f"dealer {order[1]}").count() == 1
    shot(page, "board-7-call-ace-throws")


def test_a_finished_rubbers_winners_are_named_not_coded(browser_page, live_server, club, secretary):
    """The board's rubbers and the public results say who won ("Ann & Bob (N-S)"), not
    "NS"; the public results fit a phone."""
    evening = open_evening(club)
    seat_four(evening, cards=("JS", "AS", "KS", "QS"))
    for _ in range(6):  # marches: N-S win two games and the rubber
        recording.hand_record(
            evening_id=evening.pk, table_number=1, data={"makers": "NS", "tricks": 5}
        )
    rubber = Rubber.objects.get()
    assert rubber.winner == "NS"
    winners = " & ".join(rubber.players["NS"])
    page = browser_page
    open_board(page, live_server, evening)
    row = page.locator("#board table.grid tbody tr").first
    cells = row.locator("td")
    assert cells.nth(3).inner_text() == f"{winners} (N-S)"

    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{live_server.url}/clubs/{club.slug}/evenings/{evening.pk}/")
    cells = page.locator("table.grid tbody tr").first.locator("td")
    assert cells.nth(3).inner_text() == f"{winners} (N-S)"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "board-8-results-on-a-phone")


def test_an_evening_refused_says_which_field_in_words(browser_page, live_server, club, secretary):
    page = browser_page
    log_in(page, live_server)
    page.fill("input[name=title]", "Whist drive night")
    page.fill("input[name=stake]", "a quarter")
    page.get_by_test_id("open-evening").click()
    refusal = page.locator(".alert.error").inner_text()
    # The field's name, then the refusal going on as one sentence (core.echo.after_label).
    assert refusal.startswith("Not opened. The stake: write it as an amount a point in the digits")
    assert "[stake]" not in refusal  # the field in words, not by its key
    assert page.locator("input[name=stake]").get_attribute("aria-invalid") == "true"
    # What was typed comes back, to be mended rather than typed again.
    assert page.locator("input[name=title]").input_value() == "Whist drive night"
    assert page.locator("input[name=stake]").input_value() == "a quarter"


def test_a_megabyte_pasted_into_a_field_comes_back_cut_on_a_phone(
    browser_page, live_server, club, secretary
):
    """A refused form shows again at most 500 characters of what was typed (core/echo.py):
    a megabyte pasted into the evening's title came back whole. On a phone's screen the
    refusal says in words which field was cut, nothing is wider than the screen, and the
    form, mended, opens the evening."""
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, live_server)
    page.fill("input[name=title]", "x" * 1_000_000)
    page.get_by_test_id("open-evening").click()
    refusal = page.get_by_test_id("refusal")
    text = refusal.inner_text()
    assert text.startswith(
        "Not opened. The evening's title is 120 characters at most; this one has 1,000,000. "
    )
    assert (
        "What was typed for the evening's title (1,000,000 characters) is too long to show "
        "again whole: only its first 500 are shown."
    ) in text
    title = page.locator("input[name=title]")
    assert title.input_value() == "x" * 500 + "…"
    assert title.get_attribute("aria-invalid") == "true"
    assert page.evaluate(WIDTH) <= 360
    shot(page, "board-9-a-megabyte-refused-on-a-phone")

    # A message repeating a refused value ('"y…" is not a valid choice': a rule set none of
    # the list's, as a page of another version might send) quotes only its first 40
    # characters (core.quoted), so the words saying what was wrong are kept, and wraps
    # within the screen.
    page.eval_on_selector("select[name=ruleset] option", "o => o.value = 'y'.repeat(100000)")
    page.fill("input[name=title]", "Whist drive night")
    page.get_by_test_id("open-evening").click()
    text = page.get_by_test_id("refusal").inner_text()
    assert text.startswith('Not opened. The rule set: "' + "y" * 40 + '…" is not a valid choice.')
    assert "What was typed for the rule set (100,000 characters) is too long" in text
    assert page.evaluate(WIDTH) <= 360

    # The page still works: the form, mended, opens the evening.
    page.fill("input[name=title]", "Whist drive night")
    page.get_by_test_id("open-evening").click()
    page.wait_for_url(re.compile(r"/secretary/evenings/\d+/$"))
    assert Evening.objects.get().title == "Whist drive night"
