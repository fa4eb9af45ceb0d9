"""A Call-Ace evening on the secretary's board, the public results and the room display,
as the secretary and the room read them.

- A late arrival admitted at a table mid-sitting ends the sitting in play, which is settled
  as it stood, and a new one begins with him (law 1, reading T2-CA; ruling C5): the board
  and its history said only that he "plays from the next deal".
- While a sitting is in play the board said "Nothing is waiting"; it names the sitting, as
  a rubber in progress is named at Euchre and Bridge.
- A sitting has no winner and no value: the sittings table showed two empty columns; it
  shows each player's points, which settle it (ruling C5).
- Once the evening is closed, the room display said "No table is playing yet" and listed
  everyone who came as "in the room, at no table"."""

import datetime
import html
import re

import pytest
from django.urls import reverse

from club import evenings
from club.models import Evening
from scoring.models import Rubber
from tests.club.closing_helpers import close_abandoning
from tests.worlds import bridge_and_call_ace_in_play

pytestmark = pytest.mark.django_db


def text(response) -> str:
    """The page's words, tags dropped and spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


@pytest.fixture
def call_ace(club):
    """A Call-Ace table of five (Ann, Bob, Cora, Dan, Edith), one deal of sitting 1 played."""
    return Evening.objects.get(pk=bridge_and_call_ace_in_play(club).call_ace.evening_id)


def board_post(client, evening, **fields):
    evening.refresh_from_db()
    return client.post(
        reverse("evening-board-action", args=[evening.pk]),
        {**fields, "version": evening.version},
    )


def test_a_late_arrival_at_a_sitting_in_play_is_said_to_close_and_settle_it(
    client, secretary, call_ace
):
    client.force_login(secretary)
    board_post(client, call_ace, type="arrive", player="Frank")
    page = text(board_post(client, call_ace, type="claim", player="Frank", table=1))
    said = (
        "law 1 / ruling T2 / ruling C5: Frank joins table 1: the sitting in play there is "
        "closed and settled as it stood, and a new sitting begins with Frank from its first deal"
    )
    assert said in page
    assert "plays from the next deal" not in page
    # What the words say is what the service did (ruling C5): sitting 1 settled, sitting
    # 2 begun with Frank.
    sittings = list(Rubber.objects.filter(evening=call_ace).order_by("pk"))
    assert [s.status for s in sittings] == [Rubber.Status.COMPLETE, Rubber.Status.IN_PROGRESS]
    assert "Frank" in sittings[1].players
    assert "Nothing settled yet." not in page
    # The history's line says it too, not only the laws' details under it.
    history = page[page.index("The evening's history") :]
    assert (
        "Frank joins table 1: any sitting in play there is closed and settled as it stood, "
        "and a new one begins with Frank (ruling C5)"
    ) in history


def test_a_player_joining_a_table_not_yet_playing_ends_no_sitting(client, secretary, club):
    """Before the first jack is thrown no sitting is in play: none is said to end."""
    call_ace = evenings.evening_open(
        club=club, date=datetime.date(1905, 3, 1), ruleset="call-ace-foster-1905", stake="0.10"
    )
    client.force_login(secretary)
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        board_post(client, call_ace, type="arrive", player=name)
    board_post(client, call_ace, type="form_table")
    board_post(client, call_ace, type="arrive", player="Frank")
    page = text(board_post(client, call_ace, type="claim", player="Frank", table=1))
    assert "law 1 / ruling T2: Frank joins table 1" in page
    assert "closed and settled" not in page.split("The evening's history")[0]
    assert not Rubber.objects.filter(evening=call_ace).exists()


def test_the_board_names_the_sitting_in_play_and_each_sittings_points(client, secretary, call_ace):
    client.force_login(secretary)
    page = text(client.get(reverse("evening-board", args=[call_ace.pk])))
    required = page[page.index("What the laws require next") : page.index("Arrivals")]
    assert "Sitting 1 in play at table 1 (ruling C5)" in required
    assert "Nothing is waiting" not in required
    start = page.index("Sittings Table")
    sittings = page[start : page.index("Ledger", start)]
    assert "Winner" not in sittings and "Value" not in sittings
    assert "Points (ruling C5)" in sittings
    totals = Rubber.objects.get(evening=call_ace).summary["totals"]
    leader = max(totals, key=totals.get)
    assert re.search(rf"in play {leader} {totals[leader]}, ", sittings), sittings


def test_the_summary_names_the_sitting_in_play_after_the_throw_for_the_jack(call_ace):
    summary = evenings.evening_summary(evening=call_ace)
    assert summary["required"][0] == {
        "kind": "sitting",
        "table": 1,
        "players": summary["tables"][0]["playing"],
        "law": "ruling C5",
        "text": "sitting 1 in play at table 1",
    }
    assert summary["rubbers"][0]["points"] == Rubber.objects.get(evening=call_ace).summary["totals"]


def test_the_public_results_show_a_sittings_points_not_an_empty_winner(client, call_ace):
    page = text(client.get(f"/clubs/somerset/evenings/{call_ace.pk}/"))
    sittings = page[page.index("Sittings") : page.index("Ledger")]
    assert "Winner" not in sittings and "Value" not in sittings
    totals = Rubber.objects.get(evening=call_ace).summary["totals"]
    for name, points in totals.items():
        assert f"{name} {points}" in sittings


def test_a_closed_evenings_room_says_it_is_over_and_lists_nobody_in_the_room(client, call_ace):
    close_abandoning(call_ace.pk)
    page = text(client.get(f"/clubs/somerset/evenings/{call_ace.pk}/room/"))
    assert "the evening is closed" in page
    assert "yet" not in page.split("Leading the evening")[0]
    assert "In the room, at no table" not in page
    over = "The evening is over: every sitting and each player's money are on the evening's results"
    assert over in page
    response = client.get(f"/clubs/somerset/evenings/{call_ace.pk}/room/")
    assert f'href="/clubs/somerset/evenings/{call_ace.pk}/"' in response.content.decode()
