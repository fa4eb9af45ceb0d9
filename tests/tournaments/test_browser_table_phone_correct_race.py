"""Two phones at a progressive's table correcting its deal at once, in Debian's chromium
at a phone's width, as at an evening's table (tests/club/test_browser_phone_correct_race.py):
the correction sent second, of the deal as it was, is refused with 409 (law 5, ruling E9),
and its form then holds the deal as the other phone corrected it, the player's own
correction said beside it in words, so a second tap sends only what the player chooses
after reading it, never the old fields over the other phone's correction.
Screenshots in artifacts/screenshots/table-phone-correct-race-*.png."""

import re

import pytest

from club import recording
from scoring.models import HandCorrection
from tests.browser import PHONE, correct, open_two_phones, shot
from tests.tournaments.test_table_phone import at_table, hands
from tournaments.models import TournamentTable

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_refused_correction_shows_the_deal_as_it_now_reads(browser_page, live_server, round_one):
    recording.hand_record(
        rubber_id=at_table(round_one).rubber_id, data={"makers": "NS", "tricks": 3}
    )
    url = f"{live_server.url}/p/{TournamentTable.objects.get(number=1).token}/"
    first, second = open_two_phones(browser_page, url)
    for page in (first, second):
        page.get_by_test_id("last-hand").locator("summary").first.click()
    correct(second, tricks="5")
    second.get_by_test_id("phone-notice").filter(has_text="Hand 1 corrected.").wait_for()

    # The first phone, its panel open, still shows the deal as it was (three tricks).
    correct(first, tricks="4")
    first.get_by_test_id("phone-error").wait_for()
    error = re.sub(r"\s+", " ", first.get_by_test_id("phone-error").inner_text())
    assert "The other phone at the table corrected hand 1" in error, error
    assert [(d["makers"], d["tricks"]) for d in hands(at_table(round_one))] == [("NS", 5)]
    assert HandCorrection.objects.count() == 1
    form = first.locator("form[data-kind=correct]")
    assert first.get_by_test_id("last-hand").get_attribute("open") is not None
    assert form.locator("input[name=makers][value=NS]").is_checked()
    assert form.locator("input[name=tricks]").input_value() == "5"
    entered = re.sub(r"\s+", " ", first.get_by_test_id("correction-entered").inner_text())
    assert "You had entered: N-S make, 4 tricks." in entered, entered
    assert first.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(first, "table-phone-correct-race-1-refused")

    # Having read it, the player puts four tricks again, on the deal as it now is (the
    # makers stay N-S: a correction here may not change who won the round, ruling P1).
    correct(first, tricks="4")
    first.get_by_test_id("phone-notice").filter(has_text="Hand 1 corrected.").wait_for()
    assert [(d["makers"], d["tricks"]) for d in hands(at_table(round_one))] == [("NS", 4)]
