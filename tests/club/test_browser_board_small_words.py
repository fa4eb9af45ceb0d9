"""Smaller words on the secretary's pages, at a phone's width (360 px): the Bridge
announcement refused at a table short of six says the candidate may claim admission
there (ruling T13), not that he did; the substitute's "with the consent of" leaves out the
absent player himself (law 18: the other three); the secretary's page names each evening
with its date and game, not by a title two evenings may share. Screenshots in
artifacts/screenshots/board-small-words-*.png."""

from decimal import Decimal

import pytest

from club import evenings
from club.models import Evening
from tests.browser import PHONE, log_in, settled, shot, words
from tests.club.test_browser_board_live import board_shown, open_evening, seat_four

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_announcement_at_a_table_short_of_six_says_he_may_claim(
    browser_page, live_server, club, secretary
):
    """Ruling T13 (Bridge laws, Forming Tables): only at a table of six does a candidate
    announce; at one of four he may claim admission instead. The refusal said "Ada claims
    admission at it instead", as if the claim were made; none is."""
    evening = evenings.evening_open(
        club=club, date="1907-03-04", ruleset="bridge-elwell-1907", stake=Decimal("0.10")
    )
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    evenings.evening_act(
        evening_id=evening.pk,
        event={"type": "cut", "cards": {"Ann": "AH", "Bob": "2H", "Cora": "3H", "Dan": "4H"}},
    )
    evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": "Ada"})
    page = browser_page
    board_shown(page, live_server, evening, PHONE)

    page.select_option("#candidate-player", "Ada")
    page.select_option("#candidate-action", "announce")
    page.select_option("#candidate-table", "1")
    settled(page)
    with page.expect_response(lambda r: r.url.endswith("/action/")):
        page.get_by_role("button", name="Do it", exact=True).click()
    settled(page)
    said = words(page.get_by_test_id("refusal"))
    assert "table 1 has 4 members, not six: Ada may claim admission at it instead" in said, said
    assert "ruling T13" in said
    assert Evening.objects.get(pk=evening.pk).state["tables"][0]["claims"] == []
    shot(page, "board-small-words-announce")


def test_the_absent_player_is_not_asked_for_his_own_consent(
    browser_page, live_server, club, secretary
):
    """Law 18, ruling T6: a player quitting during a rubber appoints a substitute with the
    consent of the other three. The boxes listed all four, the absent one among them."""
    evening = open_evening(club)
    seat_four(evening)  # Ann, Bob, Cora and Dan at table 1
    evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": "Edith"})
    page = browser_page
    board_shown(page, live_server, evening, PHONE)
    page.click("#comings-1 summary")
    form = page.locator("#comings-1 form:has(input[name=type][value=substitute])")

    def offered() -> list[str]:
        boxes = form.locator("label:has(input[name=consent])")
        return [
            boxes.nth(i).inner_text().strip()
            for i in range(boxes.count())
            if boxes.nth(i).is_visible()
        ]

    page.select_option("#sub-1-player", "Ann")
    assert sorted(offered()) == ["Bob", "Cora", "Dan"]
    # His own box, ticked before he was chosen as the absent one, is not counted.
    form.locator("input[name=consent][value=Dan]").check()
    page.select_option("#sub-1-player", "Dan")
    assert sorted(offered()) == ["Ann", "Bob", "Cora"]
    shot(page, "board-small-words-consent")
    for name in ["Ann", "Bob", "Cora"]:
        form.locator(f"input[name=consent][value={name}]").check()
    page.fill("#sub-1-name", "Edith")
    settled(page)
    with page.expect_response(lambda r: r.url.endswith("/action/")):
        form.get_by_role("button").click()
    settled(page)
    assert page.get_by_test_id("refusal").count() == 0
    assert Evening.objects.get(pk=evening.pk).state["tables"][0]["substitutes"] == {"Dan": "Edith"}


def test_the_secretary_page_names_evenings_by_date_and_game(
    browser_page, live_server, club, secretary
):
    """Two evenings of one title ("Euchre night") were listed as "Euchre night - Open"
    twice: which was which? Each is named with its date and game (its laws)."""
    evenings.evening_open(
        club=club,
        date="1888-11-21",
        ruleset="euchre-somerset-1888",
        stake=Decimal("0.25"),
        title="Euchre night",
    )
    evenings.evening_open(
        club=club,
        date="1905-11-21",
        ruleset="call-ace-foster-1905",
        stake=Decimal("0.25"),
        title="Euchre night",
    )
    untitled = open_evening(club)  # 1888-11-21, named by its club and date already
    page = browser_page
    page.set_viewport_size(PHONE)
    log_in(page, live_server)
    listed = [words(item) for item in page.locator("section.panel ul li").all()]
    assert "Euchre night, 21 November 1905 · Call-Ace Euchre" in listed[0], listed
    assert listed[0].endswith("— open"), listed
    assert "Euchre night, 21 November 1888 · Euchre (Somerset Club laws, 1888) — open" in listed
    assert f"{untitled} · Euchre (Somerset Club laws, 1888) — open" in listed
    assert "21 November 1888, 21 November 1888" not in " ".join(listed)
    shot(page, "board-small-words-secretary-home")
