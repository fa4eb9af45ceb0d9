"""Two phones at one table correcting the same hand at once, in Debian's chromium at a
phone's width: each correction names the version of the hand it corrects (its hidden
`changed_at`, club.recording.hand_correct), so the one sent second, from the hand as it
was, is refused with 409 in words saying who corrected it, when, and what it now reads,
nothing written, the form holding the hand as it now reads and the player's own
correction said beside it (law 5, ruling E9); queued offline, it is refused the
same when it goes out, once, and the phone says why.
Screenshots in artifacts/screenshots/phone-correct-race-*.png."""

import re

import pytest

from scoring.models import Hand, HandCorrection
from tests.browser import PHONE, correct, open_two_phones, settled, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def two_phones_correcting_hand_1(browser_page, live_server, played):
    # Each phone on its own clock (its timers then run forward, not waited out).
    first, second = open_two_phones(
        browser_page, f"{live_server.url}/t/{played.table.token}/", clock=True
    )
    # Both players open hand 1's correction.
    for page in (first, second):
        page.get_by_test_id("last-hand").locator("> summary").click()
    return first, second


def sheet(played) -> list[tuple[str, int]]:
    return [(h.data["makers"], h.data["tricks"]) for h in Hand.objects.filter(rubber=played.rubber)]


def said(page) -> str:
    return re.sub(r"\s+", " ", page.get_by_test_id("phone-error").inner_text())


WORDS = re.compile(
    r"Not recorded\. The other phone at the table corrected hand 1 at \d\d:\d\d, since this "
    r"phone read it: it now reads .*five tricks.*\. So this correction was not recorded; "
    r"look again at hand 1 and correct it if it is still wrong\."
)


def assert_reads_now(page, shot_name: str = "phone-correct-race-1-refused") -> None:
    """The refused correction's form holds hand 1 as the other phone corrected it (N-S,
    five tricks), the player's own correction (E-W, three tricks) said beside it."""
    form = page.locator("form[data-kind=correct]")
    assert form.locator("input[name=makers][value=NS]").is_checked()
    assert form.locator("input[name=tricks]").input_value() == "5"
    entered = re.sub(r"\s+", " ", page.get_by_test_id("correction-entered").inner_text())
    assert "You had entered: E-W make, 3 tricks." in entered, entered
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, shot_name)


def test_the_second_correction_of_one_hand_is_refused_in_words(browser_page, live_server, played):
    first, second = two_phones_correcting_hand_1(browser_page, live_server, played)
    correct(second, tricks="5")
    second.get_by_test_id("phone-notice").filter(has_text="Hand 1 corrected.").wait_for()
    # The first phone, its panel open, still shows hand 1 as it was: its correction (E-W
    # made it) is of that, and would put the five tricks back to three.
    correct(first, makers="EW")
    first.get_by_test_id("phone-error").wait_for()
    assert WORDS.fullmatch(said(first)), said(first)
    assert sheet(played) == [("NS", 5)]
    assert HandCorrection.objects.count() == 1
    # Its panel, open, holds hand 1 as it now reads (N-S, five tricks), and says beside
    # it what the player had entered: a second tap sends nothing the player did not
    # choose after reading it. It once held the fields as typed (E-W, three tricks) with
    # the new version, so a second tap put the other phone's five tricks back to three.
    form = first.locator("form[data-kind=correct]")
    assert first.get_by_test_id("last-hand").get_attribute("open") is not None
    assert_reads_now(first)
    # Having read it, the player makes the side E-W again, on the hand as it now is.
    form.locator("input[name=makers][value=EW]").check()
    first.get_by_test_id("correct-hand").click()
    first.get_by_test_id("phone-notice").filter(has_text="Hand 1 corrected.").wait_for()
    assert sheet(played) == [("EW", 5)]


def test_a_queued_correction_of_a_hand_corrected_since_is_refused_once(
    browser_page, live_server, played
):
    first, second = two_phones_correcting_hand_1(browser_page, live_server, played)
    answers = []
    first.on("response", lambda r: answers.append(r.status) if r.url.endswith("/hand/") else None)
    first.context.set_offline(True)
    correct(first, makers="EW")
    first.get_by_test_id("phone-queue").filter(has_text="Not sent yet").wait_for()
    # Meanwhile the other phone corrects hand 1.
    correct(second, tricks="5")
    second.get_by_test_id("phone-notice").filter(has_text="Hand 1 corrected.").wait_for()

    first.context.set_offline(False)
    first.evaluate("window.dispatchEvent(new Event('online'))")
    first.get_by_test_id("phone-error").wait_for()
    assert WORDS.fullmatch(said(first)), said(first)
    assert first.get_by_test_id("phone-queue").is_hidden()
    assert_reads_now(first, "phone-correct-race-2-queued")
    # Past the queue's retry (3 s), on the phone's own clock: the refused correction is not
    # sent again. A retry sent would mark the queue busy until answered (`settled`).
    first.clock.run_for(4_000)
    settled(first)
    assert answers == [409]
    assert sheet(played) == [("NS", 5)]
    assert HandCorrection.objects.count() == 1
    assert first.evaluate(
        "!JSON.parse(localStorage.getItem('cardclub-phone-queue:' + location.pathname)).length"
    )
