"""A director ends a progressive planned without a number of rounds, in chromium at 360 px:
not offered while a table is playing, asked twice (and kept open when he says no), then
over, its tables' phones recording nothing more, and its results declared final
(Playwright driving Debian's chromium)."""

import re

import pytest

from club import recording
from tests.browser import log_in, settled, shot
from tournaments import rounds, services
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EIGHT = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Hugh"]


def press(page, testid: str):
    """Click a director's button and wait until htmx has swapped in what it answered."""
    settled(page)
    with page.expect_response(re.compile(r"/act/$")):
        page.get_by_test_id(testid).click()
    settled(page)


def said(page, testid: str) -> str:
    return " ".join(page.get_by_test_id(testid).inner_text().split())


def width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.fixture
def open_ended(club, roster, secretary):
    """A rotation of one deal a round, no number of rounds planned, EIGHT entered, round 1
    seated and table 1's deal recorded: table 2 still playing."""
    tournament = services.tournament_create(
        club=club, name="Open evening", slug="open", kind="progressive",
        ruleset="euchre-somerset-1888", movement="rotation", deals_per_round=1,
    )  # fmt: skip
    for name in EIGHT:
        rounds.tournament_enter(tournament=tournament, name=name)
    played = rounds.round_seat_next(tournament_id=tournament.pk, user=secretary)
    recording.hand_record(
        rubber_id=played.tables.get(number=1).rubber_id, data={"makers": "NS", "tricks": 3}
    )
    return tournament


def test_the_director_ends_an_open_ended_progressive(browser_page, live_server, open_ended):
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, live_server)
    url = f"{live_server.url}/secretary/tournaments/{open_ended.pk}/"
    page.goto(url)
    assert page.get_by_test_id("end").count() == 0  # table 2 is still playing

    table = open_ended.rounds.get(number=1).tables.get(number=2)
    recording.hand_record(rubber_id=table.rubber_id, data={"makers": "EW", "tricks": 3})
    page.goto(url)
    end = page.get_by_test_id("end")
    assert end.inner_text() == "End the tournament after round 1" and end.is_visible()
    assert page.get_by_test_id("seat").is_visible()  # another round may still be seated
    assert width(page) <= 360

    press(page, "end")  # the first tap asks
    asked = said(page, "end-ask")
    assert asked.startswith("End the tournament after round 1? Taken back only with a reason")
    assert "the tables' phones record nothing more" in asked
    assert page.get_by_test_id("end-confirm").is_visible()
    assert width(page) <= 360
    shot(page, "director-end-1-asked")
    page.get_by_test_id("end-cancel").click()  # no: kept open
    page.wait_for_url(url)
    assert page.get_by_test_id("end-ask").count() == 0
    assert Tournament.objects.get(pk=open_ended.pk).ended_after_round is None

    press(page, "end")
    press(page, "end-confirm")
    assert said(page, "notice").startswith(
        "The tournament is over after round 1: no further round is seated, and the tables' "
        "phones record nothing more."
    )
    assert (
        said(page, "all-seated") == "The tournament is over: its director ended it after round 1."
    )
    assert page.get_by_test_id("seat").count() == 0 and page.get_by_test_id("end").count() == 0
    assert page.get_by_test_id("enter").count() == 0
    assert Tournament.objects.get(pk=open_ended.pk).ended_after_round == 1
    assert width(page) <= 360
    shot(page, "director-end-2-ended")

    # Table 2's phone, as its players meet it now.
    token = open_ended.table_links.get(number=2).token
    phone = page.context.new_page()
    phone.set_viewport_size({"width": 360, "height": 740})
    phone.goto(f"{live_server.url}/p/{token}/")
    text = " ".join(phone.locator("body").inner_text().split())
    assert (
        "The tournament is over: every table has played its last round, round 1, and this "
        "table's link records nothing more."
    ) in text
    assert "round 1 of 1" in text
    phone.close()
    page.bring_to_front()  # the director's tab again, as he would pick it up: not a tab hidden

    press(page, "final")
    assert said(page, "results-final").startswith("The results were declared final at ")
    shot(page, "director-end-3-final")


def test_a_progressive_with_rounds_planned_is_ended_early_and_declared_final(
    browser_page, live_server, open_ended
):
    """Five rounds planned, and the hall closing after round 1: no "End" was offered, so it
    could never be over, nor its results declared final."""
    open_ended.rounds_planned = 5
    open_ended.save(update_fields=["rounds_planned"])
    table = open_ended.rounds.get(number=1).tables.get(number=2)
    recording.hand_record(rubber_id=table.rubber_id, data={"makers": "EW", "tricks": 3})
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/tournaments/{open_ended.pk}/")
    assert page.get_by_test_id("end").is_visible()
    press(page, "end")
    press(page, "end-confirm")
    assert said(page, "all-seated") == (
        "The tournament is over: its director ended it after round 1."
    )
    assert "5 rounds planned, ended after round 1" in said(page, "director-heading")
    press(page, "final")
    assert said(page, "results-final").startswith("The results were declared final")
    assert width(page) <= 360


def test_the_standings_printed_once_final_say_so(browser_page, live_server, open_ended):
    table = open_ended.rounds.get(number=1).tables.get(number=2)
    recording.hand_record(rubber_id=table.rubber_id, data={"makers": "EW", "tricks": 3})
    rounds.tournament_end(tournament_id=open_ended.pk)
    rounds.tournament_results_final(tournament_id=open_ended.pk)
    page = browser_page  # the crowd's page: nobody logged in
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{live_server.url}/clubs/{open_ended.club.slug}/tournaments/open/")
    assert said(page, "results-final").startswith("Final results, declared at ")
    assert width(page) <= 360
    page.emulate_media(media="print")
    assert page.get_by_test_id("results-final").is_visible()
    page.emulate_media(media="screen")
    page.goto(f"{live_server.url}/clubs/{open_ended.club.slug}/tournaments/open/room/")
    assert page.get_by_test_id("room-final").inner_text() == "final results"
    assert width(page) <= 360
