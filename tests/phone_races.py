"""Two phones at one table racing for the same hands' numbers, in Debian's chromium at a
phone's width: the set-up of the "recorded since" tests of an evening's table
(tests/club/test_browser_phone_recorded_since.py) and a progressive's
(tests/tournaments/test_browser_table_phone_recorded_since.py). The first phone's first
hand hangs on its way (a slow service) and its next waits behind it; the other phone
records two hands meanwhile; the first phone's queue then says, at the sheet's next poll,
that the hands waiting are on the sheet already. And a poll held back while a hand is
recorded (`hold_a_poll`), for the stale-poll tests of both kinds of table."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tests.browser import enter_hand, open_two_phones, run_until, stop_clock

HAND = re.compile(r"/hand/$")


@dataclass
class Race:
    first: object  # the phone whose hands wait (a Playwright page)
    second: object  # the other phone, which records the same numbers first
    held: list = field(default_factory=list)  # the first phone's hanging request
    statuses: list[int] = field(default_factory=list)  # the first phone's answers

    @property
    def queue(self):
        return self.first.get_by_test_id("phone-queue")

    @property
    def since(self):
        return self.first.get_by_test_id("recorded-since")

    def poll(self, words: str) -> None:
        """Run the first phone's held clock to its sheet's next poll (every 3 s) and on
        until its queue's line says WORDS (`run_until`): its hanging request short of its
        15 s limit all the while."""
        self.first.clock.run_for(3_000)
        said = (
            "w => (document.querySelector('[data-testid=recorded-since]')?.innerText || '')"
            ".replace(/\\s+/g, ' ').includes(w)"
        )
        if not run_until(self.first, said, words):
            raise AssertionError(f"the first phone's queue does not say {words!r}")

    def release(self) -> None:
        """The hanging request reaches the service, short of its time limit on the held
        clock: both hands are refused as recorded already (409), the queue empties."""
        self.held[0].continue_()
        emptied = "() => !document.querySelector('#phone-queue').checkVisibility()"
        if not run_until(self.first, emptied):
            raise AssertionError("the first phone's queue is not emptied")
        assert self.statuses == [409, 409], self.statuses


def hands_waiting(page, url: str, number: int) -> Race:
    """Two phones open URL (a table's phone page), each on its own clock (Playwright's,
    the first's held, run forward by the tests); the first enters hands NUMBER (E-W,
    four tricks; its request hangs: a slow service) and NUMBER + 1 (E-W, one trick; waiting
    behind it, never sent). The sheet's poll still gets through."""
    first, second = open_two_phones(page, url, clock=True)
    # The first phone's clock held still (the installed clock runs by itself): its hanging
    # request's 15 s limit passes only if the test says, never while a loaded machine is
    # slow to record the other phone's hands (it then went again, and was answered before
    # the test looked).
    stop_clock(first)
    first.set_default_timeout(10_000)
    race = Race(first, second)

    def handle(route):
        if not race.held:
            race.held.append(route)
            return
        route.continue_()

    first.route(HAND, handle)
    first.on("response", lambda r: race.statuses.append(r.status) if HAND.search(r.url) else None)
    enter_hand(first, makers="EW", tricks=4)
    race.queue.filter(has_text=f"Not sent yet: 1 hand waiting (hand {number})").wait_for()
    # Past the double-tap guard's 1.5 s: a second hand. The phone's own clock, installed
    # before it loaded (open_two_phones(clock=True)), is run forward, not waited out.
    first.clock.run_for(1_600)
    enter_hand(first, makers="EW", tricks=1)
    waiting = f"Not sent yet: 2 hands waiting (hand {number}, hand {number + 1})"
    race.queue.filter(has_text=waiting).wait_for()
    assert race.since.count() == 0
    return race


def recorded_since(page, url: str, number: int) -> Race:
    """Hands NUMBER and NUMBER + 1 waiting on the first phone (`hands_waiting`), the second
    records both numbers (N-S, three tricks, then five). Returns once the first phone says
    hand NUMBER + 1 is on the sheet already, nothing answered it yet."""
    race = hands_waiting(page, url, number)
    second = race.second
    notice = second.get_by_test_id("phone-notice")
    enter_hand(second, makers="NS", tricks=3)
    notice.filter(has_text=f"Hand {number} recorded.").wait_for()
    enter_hand(second, makers="NS", tricks=5)
    notice.filter(has_text=f"Hand {number + 1} recorded.").wait_for()

    # The first phone's poll shows them: its queue's line says so at once, before either
    # of its hands goes.
    race.poll(f"Hand {number + 1} is on the sheet already")
    assert race.statuses == []  # nothing answered yet
    return race


# Counts the sheet's polls whose answer the page has dealt with: an XMLHttpRequest's
# `loadend` comes after htmx's own `load` handler, which swaps (or drops) the answer.
COUNT_POLLS = """() => {
  window.pollsAnswered = 0;
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (...args) {
    this.addEventListener("loadend", () => {
      if (this.status === 200) window.pollsAnswered += 1;
    });
    return send.apply(this, args);
  };
}"""


def hold_a_poll(page, path: str):
    """Route the page's polls of PATH (htmx's GETs of the page itself): the next one is
    fetched from the service at once and its answer held; it is fetched in full (without
    its If-None-Match), as a poll whose table had changed meanwhile is answered. The polls
    after it are held unanswered, so that none brings the page up to date before the held
    answer is dealt with. Returns a function that gives the page the held answer and
    waits until the page has dealt with it."""
    held = []

    def handle(route):
        request = route.request
        if request.method != "GET" or request.headers.get("hx-request") != "true":
            route.continue_()
            return
        if held:
            return  # a later poll: never answered in this test
        headers = {k: v for k, v in request.headers.items() if k != "if-none-match"}
        held.append((route, route.fetch(headers=headers)))

    page.evaluate(COUNT_POLLS)
    page.route(lambda url: url.split("?")[0].endswith(path), handle)
    while not held:
        page.wait_for_timeout(50)

    def release() -> None:
        route, answer = held[0]
        route.fulfill(response=answer)
        page.wait_for_function("() => window.pollsAnswered === 1")

    return release


def shows_the_hand_recorded(page, *, number: int, tricks: str) -> None:
    """The page shows hand NUMBER on its sheet (its tricks TRICKS), the form offers the
    next: the page as the hand's answer left it."""
    form = page.locator("form[data-kind=record]")
    assert form.locator("input[name=expected_number]").input_value() == str(number + 1)
    assert form.locator("[data-next-label]").inner_text() == str(number + 1)
    assert page.locator("#table-live").get_attribute("data-next-number") == str(number + 1)
    rows = page.locator("#table-sheet tbody tr")
    assert rows.count() >= number, rows.all_inner_texts()
    assert tricks in rows.nth(number - 1).inner_text(), rows.all_inner_texts()
