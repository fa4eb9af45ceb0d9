"""What became of the hands a phone kept while its network was gone, said in words once
they are sent (Debian's chromium, at a phone's 360 px and a laptop's 1280 px): each
answer replaces the live part, so of several hands sent together when the connection
returned the page once said only the last ("Hand 4 recorded."), and the players could
not tell that hands 2 and 3 were on the sheet; nor that a hand whose first answer was
lost on the way was recorded once, not twice. The phone now says, beside its queue,
which hands it sent and that each was recorded, in order (static/js/phone-queue.js,
`delivered`). Screenshots in artifacts/screenshots/phone-sent-*.png."""

import re

import pytest

from club import recording
from scoring.models import Hand, Rubber
from tests.browser import enter_hand, open_phone, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = re.compile(r"/hand/$")
WIDTH = "document.documentElement.scrollWidth"


def sheet(played) -> list[tuple[str, int]]:
    hands = Hand.objects.filter(rubber=played.rubber).order_by("number")
    return [(h.data["makers"], h.data["tricks"]) for h in hands]


def words(locator) -> str:
    return " ".join(locator.inner_text().split())


def offline_with_hands(page, url: str, tricks: tuple[int, ...]) -> list[str]:
    """Open URL on a phone (its clock Playwright's), cut its network and enter a hand for
    N-S with each of TRICKS; returns the bodies of the hands' posts, as they are sent."""
    page.clock.install()
    open_phone(page, url)
    posts: list[str] = []
    page.on(
        "requestfinished",
        lambda r: posts.append(r.post_data) if HAND.search(r.url) and r.method == "POST" else None,
    )
    page.context.set_offline(True)
    for number in tricks:
        enter_hand(page, makers="NS", tricks=number)
        page.clock.run_for(1_600)  # past the double-tap guard's 1.5 s
    waiting = f"Not sent yet: {len(tricks)} hands waiting"
    page.get_by_test_id("phone-queue").filter(has_text=waiting).wait_for()
    return posts


def back_online(page) -> None:
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")


def test_hands_kept_offline_are_said_recorded_each_once_in_order(browser_page, live_server, played):
    page = browser_page
    posts = offline_with_hands(page, f"{live_server.url}/t/{played.table.token}/", (3, 4, 5))
    sent = page.get_by_test_id("phone-sent")
    assert sent.count() == 0 or sent.is_hidden()  # nothing is said sent before it is

    back_online(page)
    page.get_by_test_id("phone-queue").wait_for(state="hidden")
    sent.wait_for()
    assert words(sent) == ("Kept on this phone, then sent and recorded: hand 2, hand 3, hand 4.")
    # Each once, in the order entered (law 5: the sheet is the hands as played).
    assert sheet(played) == [("NS", 3), ("NS", 3), ("NS", 4), ("NS", 5)]
    numbers = [re.search(r"expected_number=(\d+)", body).group(1) for body in posts]
    assert numbers == ["2", "3", "4"], numbers
    assert page.evaluate(WIDTH) <= 360
    shot(page, "phone-sent-1-three-recorded")

    # A laptop at the table reads it the same.
    page.set_viewport_size({"width": 1280, "height": 900})
    assert sent.is_visible() and page.evaluate(WIDTH) <= 1280

    # The next hand entered is said by its own answer; the words of the last sending go.
    page.clock.run_for(1_600)
    enter_hand(page, makers="EW", tricks=3)
    page.get_by_test_id("phone-notice").filter(has_text="Hand 5 recorded.").wait_for()
    assert sent.is_hidden()


def test_a_hand_whose_answer_was_lost_is_recorded_once_and_said_so(
    browser_page, live_server, played
):
    """The hand reaches the service and is recorded; the network drops before its answer
    comes back (the route fetches it, then aborts). Back, the phone sends it again with
    the same Idempotency-Key: answered from the first, stored once, and said so."""
    page = browser_page
    page.clock.install()
    open_phone(page, f"{live_server.url}/t/{played.table.token}/")
    keys: list[str] = []

    def lose_the_first_answer(route):
        keys.append(route.request.headers.get("idempotency-key"))
        if len(keys) == 1:
            route.fetch()  # recorded, committed
            route.abort("internetdisconnected")
            return
        route.continue_()

    page.route(HAND, lose_the_first_answer)
    enter_hand(page, makers="EW", tricks=4)
    queue = page.get_by_test_id("phone-queue")
    queue.filter(has_text="has not answered yet; trying again").wait_for()
    page.clock.run_for(3_500)  # the queue's retry
    queue.wait_for(state="hidden")
    sent = page.get_by_test_id("phone-sent")
    sent.wait_for()
    assert words(sent) == (
        "Kept on this phone, then sent and recorded: hand 2 (recorded once: its first "
        "answer was lost on the way, and sent again it was answered from the first)."
    )
    assert len(keys) == 2 and keys[0] == keys[1]
    assert sheet(played) == [("NS", 3), ("EW", 4)]
    assert page.evaluate(WIDTH) <= 360
    shot(page, "phone-sent-2-answer-lost")


def test_hands_kept_through_a_reload_offline_are_sent_once_and_a_refusal_said(
    browser_page, live_server, played
):
    """Three hands wait; meanwhile the other phone plays the rubber out; the player
    reloads the page with the network still gone (the browser's own error page, on a phone
    with no service worker to keep a copy of the page). Back
    online, the page opened again sends what this phone kept, oldest first, each under its
    own Idempotency-Key, each refused (the rubber over, law 15): each listed in words,
    none recorded, none said recorded."""
    page = browser_page
    # A phone with no service worker: the club's plain-http Wi-Fi, where the browser allows
    # none (with one, the reload shows the page's kept copy:
    # tests/club/test_browser_phone_offline_reload.py).
    page.add_init_script("delete Navigator.prototype.serviceWorker")
    url = f"{live_server.url}/t/{played.table.token}/"
    offline_with_hands(page, url, (3, 4, 5))
    rubber = played.rubber
    while rubber.status != Rubber.Status.COMPLETE:  # the other phone, E-W marching
        recording.hand_record(
            evening_id=played.evening.pk, table_number=1, data={"makers": "EW", "tricks": 5}
        )
        rubber.refresh_from_db()
    recorded = sheet(played)
    with pytest.raises(Exception, match="ERR_INTERNET_DISCONNECTED"):
        page.reload()
    sent: list[tuple[str, str]] = []  # (Idempotency-Key, expected_number), each sending
    page.on(
        "request",
        lambda r: (
            sent.append(
                (
                    r.headers.get("idempotency-key"),
                    re.search(r"expected_number=(\d+)", r.post_data or "").group(1),
                )
            )
            if HAND.search(r.url) and r.method == "POST"
            else None
        ),
    )
    page.context.set_offline(False)
    page.goto(url)
    refused = page.get_by_test_id("refused-hand")
    refused.nth(2).wait_for()
    listed = [" ".join(text.split()) for text in refused.all_inner_texts()]
    assert [text.split(" (")[0] for text in listed] == ["Hand 2", "Hand 3", "Hand 4"]
    for text in listed:
        assert "entered for the rubber before this one, which is over" in text, listed
    assert page.get_by_test_id("phone-queue").is_hidden()
    assert page.get_by_test_id("phone-sent").count() == 0 or (
        page.get_by_test_id("phone-sent").is_hidden()
    )
    assert sheet(played) == recorded  # nothing of this phone's
    # Oldest first, each hand under one key (a sending repeated carries the same key).
    keys = list(dict.fromkeys(key for key, _ in sent))
    assert [number for key, number in dict(sent).items()] == ["2", "3", "4"], sent
    assert len(keys) == 3 and [key for key, _ in sent] == sorted(
        (key for key, _ in sent), key=keys.index
    ), sent
    assert page.evaluate(WIDTH) <= 360
    shot(page, "phone-sent-3-reload-offline-refused")
