"""The secretary corrects a hand on the rubber's page on his laptop while a phone at the
table corrects it too, in Debian's chromium: his correction names the version of the
hand the page showed (its hidden `changed_at`, club.recording.hand_correct), so, sent
after the phone's, it is refused with 409 in words saying who corrected it, when, and
what it now reads, nothing written; the form then holds the hand as it now reads, what
he had entered said beside it, his reason kept (law 5, ruling E9). It once overwrote the
phone's correction without a word.
Screenshots in artifacts/screenshots/rubber-page-correct-race-*.png."""

import re

import pytest

from scoring.models import Hand, HandCorrection
from tests.browser import PHONE, correct, log_in, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def said(page) -> str:
    return re.sub(r"\s+", " ", page.get_by_test_id("refusal").inner_text())


def refused_by_a_phones_correction(page, live_server, played):
    """The secretary, logged in, corrects hand 1 on the rubber's page (E-W make); a phone
    at the table corrects it meanwhile (a march) and his is refused (409). Returns the
    phone's page."""
    log_in(page, live_server)
    page.goto(
        f"{live_server.url}/clubs/{played.club.slug}/rubbers/{played.rubber.pk}/"
        "?correct=1#corrections"
    )
    form = page.locator("#correct-form")
    form.locator("input[name=makers][value=EW]").check()
    form.locator("textarea[name=reason]").fill("E-W made it, says Cora")

    # Meanwhile a phone at the table corrects hand 1: a march.
    phone = page.context.browser.new_context(viewport=PHONE).new_page()
    phone.goto(f"{live_server.url}/t/{played.table.token}/")
    phone.get_by_test_id("last-hand").locator("> summary").click()
    correct(phone, tricks="5")
    phone.get_by_test_id("phone-notice").filter(has_text="Hand 1 corrected.").wait_for()

    with page.expect_response(re.compile(r"/change/$")) as answer:
        form.get_by_test_id("correct-hand").click()
    assert answer.value.status == 409
    return phone


@pytest.mark.parametrize("width", [1280, 360])
def test_a_phones_correction_is_not_overwritten_by_the_secretarys(
    browser_page, live_server, played, width
):
    page = browser_page
    page.set_viewport_size({"width": width, "height": 900})
    phone = refused_by_a_phones_correction(page, live_server, played)
    assert re.fullmatch(
        r"Not changed\. A phone at the table corrected hand 1 at \d\d:\d\d, since this page "
        r"showed it: it now reads .*five tricks.*\. So this correction was not recorded; "
        r"look again at hand 1 and correct it if it is still wrong\.",
        said(page),
    ), said(page)
    hands = [(h.data["makers"], h.data["tricks"]) for h in Hand.objects.filter(number=1)]
    assert hands == [("NS", 5)]  # the phone's correction stands
    assert HandCorrection.objects.count() == 1
    # The form holds hand 1 as it now reads, his own correction said beside it, his
    # reason kept.
    form = page.locator("#correct-form")
    assert form.locator("input[name=makers][value=NS]").is_checked()
    assert form.locator("input[name=tricks]").input_value() == "5"
    entered = re.sub(r"\s+", " ", page.get_by_test_id("correction-entered").inner_text())
    assert "You had entered: E-W make, 5 tricks." not in entered
    assert "You had entered: E-W make, 3 tricks." in entered, entered
    assert form.locator("textarea[name=reason]").input_value() == "E-W made it, says Cora"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"rubber-page-correct-race-{width}")

    # Having read it, he makes the side E-W again, on the hand as it now is.
    form.locator("input[name=makers][value=EW]").check()
    form.get_by_test_id("correct-hand").click()
    page.get_by_text("Hand 1 corrected").wait_for()
    assert [(h.data["makers"], h.data["tricks"]) for h in Hand.objects.all()] == [("EW", 5)]
    phone.context.close()


def test_a_correction_kept_through_the_login_is_of_the_hand_as_it_was_typed_on(
    browser_page, live_server, played
):
    """The secretary's login runs out while he corrects hand 1; meanwhile a phone corrects
    it. Logging in brings his typed correction back (static/js/keep-typed.js), with the
    version of the hand it was typed on: sent, it is refused in words, not put over the
    phone's correction, as the page's fresh version would have let it."""
    from tests.club.test_browser_interruptions import log_out_behind_the_page

    page = browser_page
    log_in(page, live_server)
    rubber = f"{live_server.url}/clubs/{played.club.slug}/rubbers/{played.rubber.pk}/"
    page.goto(f"{rubber}?correct=1#corrections")
    form = page.locator("#correct-form")
    form.locator("input[name=makers][value=EW]").check()
    form.locator("textarea[name=reason]").fill("E-W made it, says Cora")
    log_out_behind_the_page(page)
    form.get_by_test_id("correct-hand").click()
    page.wait_for_url(re.compile(r"/accounts/login/"))

    phone = page.context.browser.new_context(viewport=PHONE).new_page()
    phone.goto(f"{live_server.url}/t/{played.table.token}/")
    phone.get_by_test_id("last-hand").locator("> summary").click()
    correct(phone, tricks="5")
    phone.get_by_test_id("phone-notice").filter(has_text="Hand 1 corrected.").wait_for()

    page.fill("input[name=username]", "secretary")
    page.fill("input[name=password]", "correct horse battery")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"resume=1"))
    assert form.locator("input[name=makers][value=EW]").is_checked()  # as he typed it
    with page.expect_response(re.compile(r"/change/$")) as answer:
        form.get_by_test_id("correct-hand").click()
    assert answer.value.status == 409
    assert "A phone at the table corrected hand 1" in said(page)
    assert [(h.data["makers"], h.data["tricks"]) for h in Hand.objects.all()] == [("NS", 5)]
    phone.context.close()
