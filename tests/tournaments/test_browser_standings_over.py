"""A progressive's public standings kept open on a phone (360 px, Debian's chromium) while
it ends: the page says, without a reload, that the tournament is over, then that its
results are final; it said "The standings update by themselves while play goes on" to the
end, and its "Final results" line sat outside what the page polls. Screenshots in
artifacts/screenshots/standings-over-*.png."""

import pytest
from django.urls import reverse

from club import recording
from tests.browser import PHONE, polled, shot, words
from tests.tournaments.test_progressive import seat
from tournaments import rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLL_MS = 2_000  # templates/tournaments/standings.html: every 2s
WIDTH = "document.documentElement.scrollWidth"


def poll_until_shown(page, fragment: str, testid: str) -> None:
    """Run the page's poll forward until it brings `testid` in (a few polls at most)."""
    for _ in range(5):
        polled(page, fragment, run_for=POLL_MS)
        if page.get_by_test_id(testid).count():
            return
    raise AssertionError(f"{testid} never came with the poll")


def test_an_open_standings_page_says_the_tournament_is_over_then_final(
    browser_page, live_server, club, make
):
    """The director ends the progressive after round 1, every table played out, then
    declares its results final (tournaments.rounds.tournament_end, tournament_results_final:
    ruling E9's end of the tables' corrections); the open page says each, in place."""
    tournament = make("rotation", deals=1)
    first = seat(tournament)
    one, two = first.tables.order_by("number")
    recording.hand_record(rubber_id=one.rubber_id, data={"makers": "NS", "tricks": 3})
    address = reverse("tournament-standings", args=[club.slug, tournament.slug])
    fragment = reverse("tournament-standings-fragment", args=[club.slug, tournament.slug])

    page = browser_page
    page.set_viewport_size(PHONE)
    page.clock.install()  # the page's own clock: its poll is run forward, not waited for
    page.goto(f"{live_server.url}{address}")
    page.wait_for_selector("#standings")
    assert words(page.get_by_test_id("standings-live")) == (
        "The standings update by themselves while play goes on."
    )
    assert page.get_by_test_id("tournament-over").count() == 0
    page.evaluate("window.__not_reloaded = true")

    recording.hand_record(rubber_id=two.rubber_id, data={"makers": "EW", "tricks": 3})
    rounds.tournament_end(tournament_id=tournament.pk)
    poll_until_shown(page, fragment, "tournament-over")
    assert words(page.get_by_test_id("tournament-over")) == (
        "The tournament is over: its director ended it after round 1, which every table has "
        "played out. These are its results; its director has yet to declare them final."
    )
    assert page.get_by_test_id("standings-live").count() == 0
    assert page.evaluate(WIDTH) <= PHONE["width"]
    shot(page, "standings-over-1-over")

    rounds.tournament_results_final(tournament_id=tournament.pk)
    poll_until_shown(page, fragment, "results-final")
    final = words(page.get_by_test_id("results-final"))
    assert final.startswith("Final results, declared at ")
    assert final.endswith(
        ". The tournament is over: its director ended it after round 1, which every table "
        "has played out."
    )
    assert page.get_by_test_id("tournament-over").count() == 0
    assert page.evaluate("window.__not_reloaded") is True  # the same page, updated in place
    shot(page, "standings-over-2-final")
    page.emulate_media(media="print")
    assert page.get_by_test_id("results-final").is_visible()


def test_a_progressive_whose_planned_rounds_are_played_out_says_it_is_over(client, club, make):
    """A progressive of one round planned is over once its every table has played it
    (table_links.tournament_over); its standings say so, and no longer that they update
    while play goes on."""
    tournament = make("rotation", deals=1)
    tournament.rounds_planned = 1
    tournament.save(update_fields=["rounds_planned"])
    first = seat(tournament)
    address = reverse("tournament-standings", args=[club.slug, tournament.slug])
    for table in first.tables.order_by("number"):
        assert "update by themselves while play goes on" in client.get(address).text
        recording.hand_record(rubber_id=table.rubber_id, data={"makers": "NS", "tricks": 3})
    page = client.get(address).text
    assert "update by themselves" not in page
    assert (
        "<strong>The tournament is over</strong>: every table has played round 1, its last. "
        "These are its results; its director has yet to declare them final."
    ) in page
