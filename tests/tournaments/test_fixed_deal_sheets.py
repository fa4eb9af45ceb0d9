"""The score sheet of a progressive's round of fixed deals (rulings P1, P2), as its players
read it on the phone, the public read it on the rubber's page and the director on the
table's sheet: the deals' points, who won the round, and the money at the difference of
the sides' points; never a rubber's "Total 0 0", which decides nothing in such a round."""

import html
import re

import pytest

from club import recording
from tests.tournaments.conftest import EIGHT, sweep
from tournaments import rounds, services
from tournaments.models import TournamentTable


@pytest.fixture
def fixed(club, director):
    """A progressive of two deals a round at 0.10 a point, round 1 seated: two tables."""

    def build(*, deals=2, stake="0.10"):
        tournament = services.tournament_create(
            club=club, name="Fixed", slug="fixed", kind="progressive",
            ruleset="euchre-somerset-1888", movement="cut", deals_per_round=deals, stake=stake,
        )  # fmt: skip
        for name in EIGHT:
            rounds.tournament_enter(tournament=tournament, name=name)
        rounds.round_seat_next(tournament_id=tournament.pk, user=director)
        return tournament

    return build


def head_table(tournament):
    return tournament.rounds.get(number=1).tables.select_related("rubber").get(number=1)


def play(table, *deals):
    for deal in deals:
        recording.hand_record(rubber_id=table.rubber_id, data=deal)


def text(response) -> str:
    """The page's words, tags dropped and spaces closed up, as a reader meets them."""
    assert response.status_code == 200
    words = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", html.unescape(words))


def the_three_sheets(client, directing_client, tournament, table) -> list[str]:
    token = TournamentTable.objects.get(tournament=tournament, number=table.number).token
    return [
        text(client.get(f"/clubs/somerset/rubbers/{table.rubber_id}/")),
        text(client.get(f"/p/{token}/")),
        text(
            directing_client.get(
                f"/secretary/tournaments/{tournament.pk}/rounds/1/tables/{table.number}/"
            )
        ),
    ]


def names(table, side) -> str:
    return " & ".join(table.rubber.players[side])


def test_a_round_won_on_points_says_so_and_settles_at_the_difference(client, director, fixed):
    from django.test import Client

    tournament = fixed()
    table = head_table(tournament)
    play(table, {"makers": "NS", "tricks": 5}, {"makers": "EW", "tricks": 3})  # 2 - 1
    directing = Client()
    directing.force_login(director)
    north, south = table.rubber.players["NS"]
    east, west = table.rubber.players["EW"]
    for page in the_three_sheets(client, directing, tournament, table):
        assert "Total 0 0" not in page and "Rubber Games won" not in page
        assert "Round of 2 deals" in page
        assert "Points in the round's deals (ruling P1) 2 1" in page
        assert (
            f"Round to {names(table, 'NS')} (N-S), 2 points to 1, after its 2 deals (ruling P1)."
        ) in page
        assert (
            "At 0.10 USD a point, the round settles at the difference of the sides' points, 1 "
            "(ruling P2)"
        ) in page
        for name in (north, south):
            assert f"{name} +0.10 USD" in page
        for name in (east, west):  # a loss with a true minus, the `money` filter's
            assert f"{name} \u22120.10 USD" in page


def test_a_round_in_play_and_a_level_round_say_where_they_stand(client, fixed):
    tournament = fixed()
    table = head_table(tournament)
    play(table, {"makers": "NS", "tricks": 3})
    page = text(client.get(f"/clubs/somerset/rubbers/{table.rubber_id}/"))
    assert "1 of 2 deals played so far; the side ahead after them wins the round" in page
    assert "Ledger" not in page and "Total 0 0" not in page
    play(table, {"makers": "EW", "tricks": 4})  # 1 - 1 after both deals
    page = text(client.get(f"/clubs/somerset/rubbers/{table.rubber_id}/"))
    assert (
        "Level at 1 point each after 2 deals: the round goes on one deal at a time until "
        "one side is ahead (ruling P1)."
    ) in page
    play(table, {"makers": "EW", "tricks": 5})  # the deciding deal: 1 - 3
    page = text(client.get(f"/clubs/somerset/rubbers/{table.rubber_id}/"))
    assert (
        f"Round to {names(table, 'EW')} (E-W), 3 points to 1, after 3 deals: its 2 deals, "
        "and 1 more deal played because the sides were level (ruling P1)."
    ) in page
    assert "the difference of the sides' points, 2 (ruling P2)" in page


def test_a_round_whose_rubber_is_won_first_settles_on_points_not_the_rubber(client, fixed):
    tournament = fixed(deals=20)
    table = head_table(tournament)
    play(table, *sweep("NS"))  # nine deals, the rubber won 15 points to 0 (worth 8, E4)
    page = text(client.get(f"/clubs/somerset/rubbers/{table.rubber_id}/"))
    assert "Points in the round's deals (ruling P1) 15 0" in page
    assert f"Round to {names(table, 'NS')} (N-S), 15 points to 0, after 9 deals of 20" in page
    assert "no deal may follow" in page
    north = table.rubber.players["NS"][0]
    # P2: fifteen points at 0.10, not the rubber's value of 8 at the stake (M1's 0.80).
    assert f"{north} +1.50 USD" in page and "+0.80" not in page


def test_a_round_without_a_stake_says_it_settles_nothing(client, fixed):
    tournament = fixed(stake=None)
    table = head_table(tournament)
    play(table, {"makers": "NS", "tricks": 5}, {"makers": "NS", "tricks": 3})
    page = text(client.get(f"/clubs/somerset/rubbers/{table.rubber_id}/"))
    assert "No stake is played for: the round settles nothing (ruling P2)." in page
    assert "Ledger" not in page
