"""The secretary's board in a browser: live updates never take what is being typed
(issue #15, item 1), and arrivals match the roster, asking about a look-alike name
(item 2). Screenshots in artifacts/screenshots/board-live-*.png."""

import re
from decimal import Decimal

import pytest

from club import evenings
from club.models import Evening, Member
from tests.browser import PHONE, log_in, polled, settled, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CYRILLIC_ANN = "\u0410nn"  # a Cyrillic capital A, then Latin "nn"
CYRILLIC_BOB = "\u0412\u043eb"  # Cyrillic capital Ve and small o, then Latin "b"


def click(page, testid: str):
    """Click a board button and wait until htmx has morphed in the board it answered."""
    settled(page)
    with page.expect_response(re.compile(r"/action/$")):
        page.get_by_test_id(testid).first.click()
    settled(page)


BOARD_POLL_MS = 1_500  # templates/club/board.html: every 1500ms


def open_board(page, live_server, evening: Evening):
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/evenings/{evening.pk}/")


def board_shown(page, live_server, evening: Evening, size=PHONE):
    """The secretary logged in and reading `evening`'s board at `size` (a phone's width
    unless told), htmx settled."""
    page.set_viewport_size(size)
    open_board(page, live_server, evening)
    settled(page)


def open_evening(club) -> Evening:
    return evenings.evening_open(
        club=club, date="1888-11-21", ruleset="euchre-somerset-1888", stake=Decimal("0.25")
    )


def seat_four(evening: Evening, cards=("JH", "AH", "KH", "QH")) -> None:
    """Ann, Bob, Cora and Dan arrive, form a table and cut these cards for partners and
    deal (ruling T4: the two highest against the two lowest)."""
    names = ["Ann", "Bob", "Cora", "Dan"]
    for name in names:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    evenings.evening_act(
        evening_id=evening.pk, event={"type": "cut", "cards": dict(zip(names, cards, strict=True))}
    )


def test_live_updates_keep_what_is_being_typed(browser_page, live_server, club, secretary):
    evening = open_evening(club)
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    # Four candidates form a table at once; they cut for partners and deal (ruling T4).
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    page = browser_page
    page.clock.install()  # the board's own clock, run forward by its 1.5 s poll below
    open_board(page, live_server, evening)
    cards = page.locator("form.cut-form input[name^=card-]")
    assert cards.count() == 4
    cards.nth(0).fill("JS")
    cards.nth(1).fill("10H")
    page.fill("#arrive-player", "Ze")  # still typing the name when the board moves on

    # Someone else acts twice: the polls bring the board as it now is, several times over.
    for name in ["Walt", "Xena"]:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
        page.clock.run_for(BOARD_POLL_MS)
        page.wait_for_selector(f"#board .chip:text-is('{name}')", timeout=6000)
    board = f"/secretary/evenings/{evening.pk}/board/"
    polled(page, board, times=2, run_for=BOARD_POLL_MS)  # answered 304
    shot(page, "board-live-1-typing-kept")

    assert cards.nth(0).input_value() == "JS"
    assert cards.nth(1).input_value() == "10H"
    assert page.input_value("#arrive-player") == "Ze"
    assert page.evaluate("document.activeElement.id") == "arrive-player"
    # What did change was brought up to date: the cut form now sends the latest version.
    version = Evening.objects.get(pk=evening.pk).version
    assert page.locator("form.cut-form input[name=version]").input_value() == str(version)

    # The secretary finishes the cut: it is carried out; the name being typed stays.
    cards.nth(2).fill("KD")
    cards.nth(3).fill("9C")
    with page.expect_response(re.compile(r"/action/$")):
        page.get_by_role("button", name="Enter the cards cut").click()
    settled(page)
    page.wait_for_selector("article.table-card .seats")
    assert page.input_value("#arrive-player") == "Ze"
    assert Evening.objects.get(pk=evening.pk).state["tables"][0]["dealer"] == "Ann"
    shot(page, "board-live-2-cut-made")


def test_arrivals_match_the_roster_and_ask_about_a_look_alike(
    browser_page, live_server, club, secretary
):
    Member.objects.create(club=club, name="Ann")
    Member.objects.create(club=club, name="Bob")
    evening = open_evening(club)
    page = browser_page
    open_board(page, live_server, evening)

    # "ann" is Ann, never a second Ann.
    page.fill("#arrive-player", "ann")
    click(page, "arrive")
    page.wait_for_selector("#board .chip:text-is('Ann')")
    assert page.input_value("#arrive-player") == ""
    assert list(club.members.values_list("name", flat=True)) == ["Ann", "Bob"]

    # A name that only looks like Bob's is asked about; the answer "Bob" seats Bob.
    page.fill("#arrive-player", CYRILLIC_BOB)
    click(page, "arrive")
    question = page.get_by_test_id("arrival-question")
    assert "Bob is a member: is this Bob, or a new player?" in question.inner_text()
    shot(page, "board-live-3-look-alike")
    click(page, "arrival-is-member")
    page.wait_for_selector("#board .chip:text-is('Bob')")
    assert page.get_by_test_id("arrival-question").count() == 0
    assert page.input_value("#arrive-player") == ""
    assert Member.objects.filter(club=club).count() == 2

    # A look-alike of Ann's name, and the answer "a new player": a new member, a guest.
    page.fill("#arrive-player", CYRILLIC_ANN)
    click(page, "arrive")
    assert "Ann is a member" in page.get_by_test_id("arrival-question").inner_text()
    click(page, "arrival-is-new")
    page.wait_for_selector(f"#board .chip:text-is('{CYRILLIC_ANN}')")
    newcomer = Member.objects.get(club=club, name=CYRILLIC_ANN)
    assert newcomer.is_guest
    assert Evening.objects.get(pk=evening.pk).state["present"] == ["Ann", "Bob", CYRILLIC_ANN]
    shot(page, "board-live-4-arrivals")


def test_a_poll_sent_before_an_action_does_not_undo_its_answer(
    browser_page, live_server, club, secretary
):
    """A poll in flight when the secretary acts is answered with the board as it was: it
    must not take back the action's answer (the board it left, the notice of what the
    laws made of it) when it lands after it. It did: the poll put the board back as it
    was before the action until the next poll, and CI's run of the cut test caught it
    once (test_browser_cuts_closing: the notice gone under load)."""
    evening = open_evening(club)
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    page = browser_page
    page.clock.install()  # the board's own clock, run forward by its 1.5 s poll below
    open_board(page, live_server, evening)
    settled(page)
    before = page.request.get(f"{live_server.url}/secretary/evenings/{evening.pk}/board/").text()
    held = []

    def hold_the_first(route):
        # The first poll waits here; any later one (the clock installed still runs by
        # itself: a slow action on a loaded machine lets another poll fall due) goes on to
        # the service, as a poll does, and cannot leave a request hanging.
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route(re.compile(r"/board/$"), hold_the_first)
    page.clock.run_for(BOARD_POLL_MS)  # its next poll is sent
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "no poll was sent"
    # Told when the held poll (sent before the action) has been answered and dealt with.
    page.evaluate(
        """() => {
            window.heldAnswered = false;
            window.actionAt = performance.now();
            document.addEventListener("htmx:afterRequest", (event) => {
                const sentAt = event.detail.xhr.liveSentAt;  // static/js/live.js
                if (event.detail.requestConfig.verb === "get" && sentAt < window.actionAt) {
                    window.heldAnswered = true;
                }
            });
        }"""
    )
    with page.expect_response(re.compile(r"/action/$")):
        page.get_by_test_id("form-table").click()
    page.wait_for_selector("form.cut-form")
    notice = page.locator("#board .alert.ok").inner_text()
    assert notice
    # The poll sent before the action now comes back, with the board before it.
    held.pop(0).fulfill(status=200, body=before, headers={"Content-Type": "text/html"})
    page.wait_for_function("window.heldAnswered")  # its answer taken or dropped by now
    assert page.locator("form.cut-form").count() == 1
    assert page.get_by_test_id("form-table").count() == 0
    assert page.locator("#board .alert.ok").inner_text() == notice
    page.unroute(re.compile(r"/board/$"))


def test_a_refused_action_offers_again_only_what_the_evening_now_allows(
    browser_page, live_server, club, secretary
):
    """A list the secretary chose from was kept whole through every update, so after a
    refusal it still offered what the evening no longer allows: Gil, chosen to announce
    at the full table (ruling T13), has meanwhile succeeded to a place there and is a
    waiting member, not a candidate; the refusal's board offered him again. The lists take
    the server's options; what was chosen and is still offered stays chosen."""
    evening = evenings.evening_open(
        club=club, date="1907-01-05", ruleset="bridge-elwell-1907", stake=Decimal("0.10")
    )

    def act(**event):
        evenings.evening_act(evening_id=evening.pk, event=event)

    six = ["Ann", "Bob", "Cora", "Dan", "Fay", "Gus"]
    for name in six:
        act(type="arrive", player=name)
    act(type="form_table")
    # Bridge: the ace is lowest; the four lowest play, the other two wait (ruling T3).
    act(type="cut", cards=dict(zip(six, ["AS", "2S", "3S", "4S", "5S", "6S"], strict=True)))
    act(type="cut", cards=dict(zip(six[:4], ["AS", "2S", "3S", "4S"], strict=True)))
    for name in ["Gil", "Hal"]:
        act(type="arrive", player=name)
    page = browser_page
    open_board(page, live_server, evening)
    settled(page)
    # The board is not brought up to date by its polls from here: only the refusal does.
    page.route(f"**/evenings/{evening.pk}/board/", lambda route: route.fulfill(status=304))
    page.select_option("#candidate-player", "Gil")
    page.select_option("#candidate-action", "announce")
    page.select_option("#candidate-table", "1")
    # Meanwhile, on another device: Gil announces, and Fay, waiting, leaves the table;
    # Gil succeeds to her place (ruling T13).
    act(type="announce", player="Gil", table=1)
    act(type="leave", player="Fay", table=1)
    settled(page)
    with page.expect_response(re.compile(r"/action/$")):
        page.locator("#candidate-action").locator("xpath=..").locator("button").click()
    settled(page)
    shot(page, "board-live-refused-fresh-lists")
    # Refused as out of date: "the board now shows the evening as it is" -- and so it must.
    assert "Nothing was done" in page.get_by_test_id("refusal").inner_text()
    offered = page.locator("#candidate-player option").all_inner_texts()
    assert sorted(offered) == ["Fay", "Hal"]
    # What he chose and is still offered is kept, to be put right.
    assert page.input_value("#candidate-action") == "announce"
    assert page.input_value("#candidate-table") == "1"
    assert page.input_value("#candidate-player") in {"Fay", "Hal"}
