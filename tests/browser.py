"""Playwright driving Debian's chromium (never a downloaded browser) for browser tests.

The `browser_page` fixture is in tests/conftest.py; screenshots go to
artifacts/screenshots/ so a person can look at what the test saw.
"""

import contextlib
import re
import time
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "screenshots"


def shot(page, name: str) -> Path:
    """Save a full-page screenshot under artifacts/screenshots/NAME.png, and wait until the
    page is scrolled back where it was: Chromium puts the scroll back a moment after a
    full-page screenshot, and a tap made meanwhile was pressed on its button and let go
    over a field above it, sending nothing (tests/club/test_browser_phone_typed.py's
    occasional failure)."""
    path = SHOTS / f"{name}.png"
    where = page.evaluate("[window.scrollX, window.scrollY]")
    page.screenshot(path=str(path), full_page=True)
    # A page that moved itself meanwhile (a poll's swap) is left as it is.
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            "([x, y]) => window.scrollX === x && window.scrollY === y", arg=where, timeout=2000
        )
    return path


def log_in(page, live_server, username: str = "secretary") -> None:
    """Log in through the login form (the factories' password) and wait for the
    secretary's page, as a secretary arriving at the club would."""
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "correct horse battery")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/secretary/$"))


BUSY = ".htmx-request, .htmx-swapping, .htmx-settling"


def settled(page, timeout: float = 10_000) -> None:
    """Wait until htmx has no request in flight and nothing being swapped in; if that
    never comes, fail naming the elements still busy (a flake's first clue)."""
    try:
        page.wait_for_function(f"!document.querySelector('{BUSY}')", timeout=timeout)
    except PlaywrightTimeout:
        busy = page.evaluate(
            f"""() => Array.from(document.querySelectorAll('{BUSY}'), (e) =>
                e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + '.' +
                Array.from(e.classList).join('.'))"""
        )
        raise AssertionError(f"htmx still busy after {timeout:.0f} ms: {busy}") from None


def polled(page, path: str, times: int = 1, *, run_for: int = 0) -> None:
    """Wait until the page's poll (htmx's GET, on its `every` trigger, of the URL ending in
    PATH), sent from now on, has been answered TIMES times and the answer swapped in: the
    condition itself, where a test once waited out the poll's interval and more. With
    RUN_FOR (the poll's interval, in ms), the page's own clock (`page.clock.install()`
    before it loaded) is run forward by it for each poll, rather than the poll waited for."""
    for _ in range(times):
        with page.expect_request(
            lambda request: (
                request.method == "GET"
                and request.url.split("?")[0].endswith(path)
                and request.headers.get("hx-request") == "true"
            )
        ) as sent:
            if run_for:
                page.clock.run_for(run_for)
        sent.value.response()
    settled(page)


def refusal_shown(page) -> str:
    """The refusal a table's phone shows (its `phone-error`), its whitespace as read."""
    return " ".join(page.get_by_test_id("phone-error").inner_text().split())


def fill_hand(page, *, makers: str, tricks: int):
    """Fill the page's form for the next Euchre hand (a table's phone, a progressive's, a
    director's sheet): the side that made trumps and its tricks. Returns the form."""
    form = page.locator("form.hand[data-kind=record]")
    form.locator(f"input[name=makers][value={makers}]").check()
    form.locator("input[name=tricks]").fill(str(tricks))
    return form


def enter_hand(page, *, makers: str, tricks: int) -> None:
    """Fill the next hand's form (`fill_hand`) and tap its button."""
    fill_hand(page, makers=makers, tricks=tricks).get_by_test_id("record-hand").click()


def correct(page, *, makers: str | None = None, tricks: str | None = None) -> None:
    """Correct the last hand on a table's phone (its correction panel open): the side that
    made trumps and its tricks, where given, then tap its button."""
    form = page.locator("form[data-kind=correct]")
    if makers:
        form.locator(f"input[name=makers][value={makers}]").check()
    if tricks:
        form.locator("input[name=tricks]").fill(tricks)
    page.get_by_test_id("correct-hand").click()


def enter_at_once(pages, tricks: int) -> None:
    """Two phones (or sheets) at one table fill the hand's form, the first for N-S, the
    second for E-W, and send it at once: each page's script posts without waiting for the
    other (the service records one, refuses the other by its `expected_number`)."""
    for page, makers in zip(pages, ("NS", "EW"), strict=True):
        fill_hand(page, makers=makers, tricks=tricks)
    for page in pages:
        page.evaluate("document.querySelector('form.hand[data-kind=record]').requestSubmit()")


PHONE = {"width": 360, "height": 740}  # a phone's screen, in CSS pixels
TABLE_POLL_MS = 3_000  # a table's sheet polls every 3 s (templates/club/_table.html)


def stop_clock(page) -> None:
    """Stop the page's clock (`page.clock.install()` before it loaded; installed, it still
    runs by itself): its sheet's poll then never comes unless the test runs it forward."""
    # A moment just ahead of the page's clock (a number: seconds). On a loaded machine the
    # clock may pass it before the call lands ("Cannot fast-forward to the past"): then
    # read the clock again and aim further ahead.
    for ahead in (100, 400, 1_000):
        try:
            page.clock.pause_at((page.evaluate("Date.now()") + ahead) / 1000)
            return
        except PlaywrightError as error:
            if "to the past" not in str(error) or ahead == 1_000:
                raise


def timers_set(page, ms: int) -> list[int]:
    """The ids of the timers of MS ms the page has set and not yet seen fire, as its
    installed clock (Playwright's, `page.clock.install()`) keeps them."""
    return page.evaluate(f"ms => ({TIMERS}).filter(t => t.delay === ms).map(t => t.id)", ms)


def wait_for_timer(page, ms: int, *, besides: list[int]) -> None:
    """Wait until the page sets a timer of MS ms (its installed clock's), none of BESIDES
    (`timers_set` before): the moment its wait starts on a held clock, the condition a test
    once waited for a fixed 0.3 s of real time, which a loaded machine overran."""
    page.wait_for_function(
        f"([ms, old]) => ({TIMERS}).some(t => t.delay === ms && !old.includes(t.id))",
        arg=[ms, besides],
    )


# The timers an installed clock holds (Playwright 1.65's ClockController, pinned in
# requirements.txt): read, never changed.
TIMERS = "[...globalThis.__pwClock.controller._timers.values()]"


def run_until(page, predicate: str, arg=None) -> bool:
    """Run the page's held clock (`stop_clock`) forward until PREDICATE (a JavaScript
    function of ARG) holds: in steps of 20 ms for htmx's own timers (an answer is swapped
    in and settled on them), 2 s in all, then in real time for an answer still on its way,
    the clock moved on a millisecond a step (htmx swaps on a 0 ms timer), 0.1 s more in
    all. Whether it came to hold: short of a 3 s poll the page was not brought up to date by
    that poll, and short of any limit the page counts (a request's 15 s)."""
    for _ in range(100):
        if page.evaluate(predicate, arg):
            return True
        page.clock.run_for(20)
        page.wait_for_timeout(30)
    # On a loaded machine the service's answer may take longer than those steps took in
    # real time.
    for _ in range(100):
        if page.evaluate(predicate, arg):
            return True
        page.clock.run_for(1)
        page.wait_for_timeout(100)
    return False


def offers_hand_without_a_poll(page, number: int) -> None:
    """Wait until the phone's live part offers hand NUMBER (its `data-next-number`), its
    stopped clock (`stop_clock`) run forward for htmx's own timers (`run_until`): short of
    the sheet's 3 s poll, so what brought the page up to date was not the poll."""
    offers = "n => document.querySelector('#table-live').dataset.nextNumber === String(n)"
    if not run_until(page, offers, number):
        raise AssertionError(f"the page does not offer hand {number} before its poll")


def open_phone(page, url: str):
    """Open URL (a table's phone page, /t/... or /p/...) on PAGE at a phone's width.
    Returns the page."""
    page.set_viewport_size(PHONE)
    page.goto(url)
    return page


def open_two_phones(page, url: str, *, clock: bool = False):
    """Two phones at one table: PAGE opens URL at a phone's width, and a second phone, a
    browser context of its own (its own storage, so its own queue), opens it too.
    With `clock`, each phone's own clock is installed before it loads (its timers, its
    3 s poll among them, then run forward by `page.clock.run_for`). Returns (first,
    second)."""
    if clock:
        page.clock.install()
    open_phone(page, url)
    second = page.context.browser.new_context(viewport=PHONE).new_page()
    if clock:
        second.clock.install()
    second.goto(url)
    return page, second


def enter_hand_offline(page, *, makers: str, tricks: int, waiting: str) -> None:
    """Cut the phone's network, enter the next hand (`enter_hand`) and wait until the
    phone's queue says WAITING (its words, e.g. "Not sent yet: 1 hand")."""
    page.context.set_offline(True)
    enter_hand(page, makers=makers, tricks=tricks)
    page.get_by_test_id("phone-queue").filter(has_text=waiting).wait_for()


# A table's phone reloaded with no network (static/js/phone-worker.js; its tests:
# tests/club/test_browser_phone_offline_reload.py and the progressive's).
PAGES = "cardclub-phone-pages-v1"  # the worker's cache of pages (static/js/phone-worker.js)
KEPT = re.compile(
    r"^No connection: this is this table's page as it was at \d\d:\d\d, kept on this phone\. "
    r"Hands entered here are kept on this phone too and go by themselves when the "
    r"connection returns\.$"
)

# The same copy shown on a Wi-Fi that hangs: the worker gave up waiting for the page.
KEPT_UNANSWERED = re.compile(
    r"^The connection did not answer: this is this table's page as it was at \d\d:\d\d, kept "
    r"on this phone\. Hands entered here are kept on this phone too and go by themselves when "
    r"the connection answers\.$"
)
WORKER = Path(__file__).resolve().parents[1] / "static" / "js" / "phone-worker.js"
# How long the worker waits for a page's load before its copy answers (its NETWORK_WAIT_MS).
NETWORK_WAIT_S = int(re.search(r"NETWORK_WAIT_MS = (\d+);", WORKER.read_text())[1]) / 1000


def copy_kept(page, path: str) -> bool:
    """Whether the phone's service worker holds a copy of the page at PATH."""
    script = "([name, p]) => caches.open(name).then(c => c.match(p)).then(r => !!r)"
    return page.evaluate(script, [PAGES, path])


def kept_at(page, path: str) -> int:
    """When the worker kept its copy of the page at PATH (Date.now(), real time)."""
    script = (
        "([name, p]) => caches.open(name).then(c => c.match(p))"
        ".then(r => Number(r.headers.get('X-Phone-Kept-At')))"
    )
    return page.evaluate(script, [PAGES, path])


def wait_until_kept(page, path: str) -> None:
    """Wait until the worker (registered by the page as it loaded) has kept PATH's copy."""
    for _ in range(100):
        if copy_kept(page, path):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"no copy of {path} was kept")


def cut_network(context, *, cut: bool) -> None:
    """Cut the phone's network (or give it back). Playwright's offline mode does not reach
    every request of a page a service worker controls (its issue 2311): without the route,
    the queue's hand sent as the copy loaded went out to the service "offline". Those are
    refused by a route too, as a dead Wi-Fi would. A navigation is left to the offline mode,
    which does cut the worker's own requests (the page's load, its files)."""
    if cut:
        context.set_offline(True)
        context.route("**/*", _no_network)
    else:
        context.unroute("**/*", _no_network)
        context.set_offline(False)


def _no_network(route) -> None:
    if route.request.is_navigation_request():
        route.fallback()
    else:
        route.abort("internetdisconnected")


def words(locator) -> str:
    return " ".join(locator.inner_text().split())


def reload_offline(page, *, waiting: str) -> None:
    """Cut the phone's network and reload it: the worker's kept copy answers, saying it is
    one (`KEPT`), with the queue's WAITING shown."""
    cut_network(page.context, cut=True)
    page.reload()
    kept = page.get_by_test_id("phone-kept")
    kept.wait_for()
    assert KEPT.match(words(kept)), words(kept)
    page.get_by_test_id("phone-queue").filter(has_text=waiting).wait_for()


def back_online(page) -> None:
    """Give the phone its network back and wait until its queue is empty and its page live.
    The hand the copy sent as it loaded is held by Playwright's emulation, neither sent nor
    failed, until the queue's own limit (15 s) gives it up and sends it again: hence the
    long wait."""
    cut_network(page.context, cut=False)
    page.get_by_test_id("phone-queue").wait_for(state="hidden", timeout=40_000)
    page.get_by_test_id("phone-kept").wait_for(state="hidden", timeout=10_000)


class HungNetwork:
    """A club's Wi-Fi that hangs rather than fails, on a browser CONTEXT: every request of
    its pages and of the phone's service worker (a page's load, its files, the hands posted,
    the polls) is held, neither answered nor failed, until `release`. The phone stays
    "online" (navigator.onLine): nothing tells it the network is gone."""

    def __init__(self, context):
        self.context = context
        self.held = []
        context.route("**/*", self._hold)

    def _hold(self, route) -> None:
        self.held.append(route)

    def holds_page(self, path: str) -> bool:
        """Whether the load of the page at PATH is among the requests held (the worker's
        request for it: a fetch, to Playwright, not the navigation)."""
        return any(
            route.request.method == "GET" and route.request.url.endswith(path)
            for route in self.held
        )

    def release(self) -> None:
        """The Wi-Fi answers again: what was held goes on to the service, and what comes
        after goes at once. A request its page gave up meanwhile is let go."""
        self.context.unroute("**/*", self._hold)
        for route in self.held:
            with contextlib.suppress(PlaywrightError):
                route.continue_()


HAND_POST = re.compile(r"/hand/$")  # a hand's POST from a table's phone (/t/... or /p/...)


def enter_hand_dropped(page, *, makers: str, tricks: int, waiting: str) -> None:
    """Enter the next hand (`enter_hand`) while the Wi-Fi drops its request (the phone still
    online), and wait until the phone's queue says WAITING with the drop dealt with: the
    request dropped and its failure heard (nothing on its way). The queue says WAITING as
    the request leaves ("Sending now"); the drop let go then, before Playwright had handled
    the request, let it through to the service, recorded (seen with chromium 156.0.8078.108)."""
    dropped = []

    def drop(route) -> None:
        route.abort("internetdisconnected")
        dropped.append(route)

    page.context.route(HAND_POST, drop)
    enter_hand(page, makers=makers, tricks=tricks)
    page.get_by_test_id("phone-queue").filter(has_text=waiting).wait_for()
    while not dropped:
        page.wait_for_timeout(20)
    page.wait_for_function("() => !document.querySelector('#phone-queue.htmx-request')")
    page.context.unroute(HAND_POST, drop)


def hands_posted(context) -> list:
    """The Idempotency-Keys of the hands the phone posts from now on, as they leave."""
    keys = []

    def posted(request) -> None:
        if request.method == "POST" and HAND_POST.search(request.url):
            keys.append(request.headers.get("idempotency-key"))

    context.on("request", posted)
    return keys


def kept_with_hand_waiting(page, url: str, path: str, *, makers: str, tricks: int, waiting: str):
    """A phone at `url` (its link's `path`) with its page kept by the worker and a hand
    waiting in its queue (its request dropped), the page's clock held so that nothing goes
    again by itself: (the Idempotency-Keys posted from now on, `hands_posted`; when the
    copy was kept, `kept_at`)."""
    page.clock.install()  # the queue's timers held: nothing goes again by itself
    open_phone(page, url)
    stop_clock(page)
    wait_until_kept(page, path)
    enter_hand_dropped(page, makers=makers, tricks=tricks, waiting=waiting)
    return hands_posted(page.context), kept_at(page, path)


#: How long past the worker's wait a kept copy may take to show on a loaded machine: still
#: well short of the minute or more a browser waits on its own.
SLACK_S = 20


def reload_unanswered(page, *, waiting: str) -> HungNetwork:
    """Reload the phone on a Wi-Fi that hangs (`HungNetwork`): the worker waits
    NETWORK_WAIT_S for the service, then answers with its kept copy, which says the
    connection did not answer (`KEPT_UNANSWERED`), with the queue's WAITING shown: well
    short of the browser's own minute or more (within the worker's wait and SLACK_S more
    for the copy to load on a busy machine: CI's two cores shared by two test processes and
    their browsers). Returns the hung network, the page's load still held."""
    hung = HungNetwork(page.context)
    started = time.monotonic()
    page.reload(wait_until="commit", timeout=(NETWORK_WAIT_S + SLACK_S) * 1000)
    kept = page.get_by_test_id("phone-kept")
    kept.wait_for(timeout=(NETWORK_WAIT_S + SLACK_S) * 1000)
    shown = time.monotonic() - started
    assert NETWORK_WAIT_S <= shown < NETWORK_WAIT_S + SLACK_S, shown
    assert KEPT_UNANSWERED.match(words(kept)), words(kept)
    page.get_by_test_id("phone-queue").filter(has_text=waiting).wait_for()
    return hung


def answered_again(page, hung: HungNetwork) -> None:
    """The Wi-Fi answers again (`HungNetwork.release`): the page's load, answered at last, is
    kept and the page brought up to date (the worker's message, the sheet's poll asked for
    at once), the hand sent as the copy loaded goes on, and the page says it is live: no
    copy's line, nothing waiting. Waited for on the page's held clock (`run_until`), short
    of the sheet's own 3 s poll."""
    hung.release()
    live = (
        "() => !document.querySelector('#phone-queue')?.checkVisibility()"
        " && !document.querySelector('#phone-kept')?.checkVisibility()"
        " && !document.documentElement.dataset.keptAt"
    )
    if not run_until(page, live):
        raise AssertionError("the page is not live again: " + words(page.locator("body")))
