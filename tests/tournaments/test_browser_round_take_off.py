"""The secretary's "Take the hand off" on a progressive round's rubber page, at 360 px in
Debian's chromium: the deal that decided a round its players have moved on from is kept
(ruling E9, as the director's correction reads it: tournaments.corrections). Screenshots
in artifacts/screenshots/round-take-off-*.png."""

import pytest
from django.urls import reverse

from scoring.models import RemovedHand
from tests.browser import PHONE, log_in, settled, shot
from tests.tournaments.test_level_rounds import deal, points_of
from tests.tournaments.test_progressive import seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = "document.documentElement.scrollWidth"


def test_the_deciding_deal_of_a_round_moved_on_from_is_not_taken_off(
    browser_page, live_server, club, secretary, make, commit
):
    """Ruling E9: round 1 decided at table 1 by its third deal (level after two, ruling
    P1), round 2 seated from its result; the secretary's take-off of that deal on the
    rubber's page (linked from the director's table sheet) reopened round 1 as "level:
    one more deal" and changed the standings. The table sheet no longer links to it and
    says why; the rubber's page refuses it in words, naming the field, the round, who won
    it and the ruling; nothing taken off."""
    tournament = make("rotation", deals=2)
    first = seat(tournament)
    for table in first.tables.all():
        for hand in [{"makers": "NS", "tricks": 3}, {"makers": "EW", "tricks": 3}]:
            deal(commit, table, hand)
        deal(commit, table, {"makers": "NS", "tricks": 3})
    seat(tournament)
    before = points_of(tournament)
    rubber = first.tables.get(number=1).rubber

    page = browser_page
    page.set_viewport_size(PHONE)
    log_in(page, live_server)
    # The director's table sheet no longer offers to take it off, and says why.
    page.goto(f"{live_server.url}/secretary/tournaments/{tournament.pk}/rounds/1/tables/1/")
    settled(page)
    kept = " ".join(page.get_by_test_id("kept-last-deal").inner_text().split())
    assert kept.startswith("Its last hand decided round 1 at this table (")
    assert "its players have moved on from it (round 2 is seated)" in kept
    assert kept.endswith("so that hand is not taken off (ruling E9); correct its figures instead.")
    assert page.get_by_role("link", name="Take off the last hand").count() == 0
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "round-take-off-0-table-sheet")

    # The rubber's page, reached by its address, refuses it.
    page.goto(f"{live_server.url}{reverse('rubber-detail', args=[club.slug, rubber.pk])}")
    remove = page.locator("#remove-form")
    remove.locator("textarea[name=reason]").fill("entered wrong")
    remove.get_by_test_id("remove-hand").click()
    settled(page)
    refusal = page.get_by_test_id("refusal")
    refusal.wait_for()
    words = " ".join(refusal.inner_text().split())
    assert words.startswith("Not changed. Taking off hand 3 would leave round 1 at table 1 ")
    assert "its players have moved on from it (round 2 is seated)" in words
    assert "a decided round stays decided" in words and "ruling E9" in words
    assert refusal.get_attribute("data-field") == "number"
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "round-take-off-1-refused")

    rubber.refresh_from_db()
    assert rubber.hand_count == 3 and not RemovedHand.objects.exists()
    assert points_of(tournament) == before


def test_a_correction_that_would_reopen_a_round_moved_on_from_is_refused_on_the_page(
    browser_page, live_server, club, secretary, make, commit
):
    """Ruling E9: the rubber page's correction of round 1's last deal to the other side
    left the round level, round 2 seated from it; refused in words, nothing changed."""
    tournament = make("rotation", deals=2)
    first = seat(tournament)
    for table in first.tables.all():
        deal(commit, table, {"makers": "NS", "tricks": 3})
        deal(commit, table, {"makers": "NS", "tricks": 3})
    seat(tournament)
    rubber = first.tables.get(number=1).rubber

    page = browser_page
    page.set_viewport_size(PHONE)
    log_in(page, live_server)
    page.goto(f"{live_server.url}{reverse('rubber-detail', args=[club.slug, rubber.pk])}")
    form = page.locator("#correct-form")
    form.locator("input[name=makers][value=EW]").check()
    form.locator("textarea[name=reason]").fill("the makers were E-W")
    form.get_by_test_id("correct-hand").click()
    settled(page)
    refusal = page.get_by_test_id("refusal")
    refusal.wait_for()
    words = " ".join(refusal.inner_text().split())
    assert "This correction of hand 2 would leave round 1 at table 1 undecided (" in words
    assert "its players have moved on from it (round 2 is seated)" in words
    assert "a decided round stays decided" in words and "ruling E9" in words
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "round-take-off-2-correction-refused")
    assert rubber.hands.get(number=2).data["makers"] == "NS"
