"""The board's line for a table's rubber in play says its score in words, as the room
display does (club.selectors_room.rubber_score): each side's games won and its points in
the game now in play. Once game 1 was won it read "Rubber 1, 3 hands: E-W 0, N-S 0 ·
games N-S", as if nobody had scored, "games N-S" with no count. A Call-Ace sitting, each
player for himself (ruling C5), says each player's points, where it said none."""

import html
import re

import pytest
from django.urls import reverse

from tests.club.rooms import evening_with_a_table, record

pytestmark = pytest.mark.django_db


def score_line(client, evening_id: int, table: int = 1) -> str:
    """The board's score line of TABLE's rubber, tags dropped and spaces collapsed (its
    links to the score sheet cut off)."""
    page = client.get(reverse("evening-board", args=[evening_id])).content.decode()
    found = re.search(rf'<p class="score" data-testid="score-{table}">(.*?)</p>', page, re.S)
    assert found, page
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())
    return words.split(" · ")[0]


def test_a_euchre_game_won_is_counted_and_the_next_game_starts_at_nothing(client, club, secretary):
    evening = evening_with_a_table(club)
    client.force_login(secretary)
    for tricks in (5, 5, 3):  # march, march, three: N-S's five points win game 1 (rulings E5, E2)
        record(evening, "NS", tricks)
    assert score_line(client, evening.pk) == (
        "Rubber 1, 3 hands: games won N-S 1, E-W 0; this game N-S 0, E-W 0"
    )
    record(evening, "EW", 5)  # E-W march in game 2: two points
    assert score_line(client, evening.pk) == (
        "Rubber 1, 4 hands: games won N-S 1, E-W 0; this game N-S 0, E-W 2"
    )


def test_bridge_says_the_points_below_the_line_in_the_game_and_call_ace_each_players(
    client, club, secretary
):
    from tests.worlds import bridge_and_call_ace_in_play

    played = bridge_and_call_ace_in_play(club)
    client.force_login(secretary)
    # One odd trick at no trumps: 12 towards the game of thirty by tricks (rulings B1, B2).
    assert score_line(client, played.bridge.evening_id) == (
        "Rubber 1, 1 hand: games won N-S 0, E-W 0; this game N-S 12, E-W 0"
    )
    sitting = played.call_ace.evening.rubbers.get()
    points = sitting.summary["totals"]
    said = ", ".join(f"{name} {points[name]}" for name in played.call_ace_order)
    assert score_line(client, played.call_ace.evening_id) == f"Sitting 1, 1 deal: points {said}"
