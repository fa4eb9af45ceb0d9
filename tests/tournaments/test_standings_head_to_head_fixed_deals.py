"""Head-to-head at a progressive of fixed deals (issue #5's head-to-head, ruling P1).

Such a progressive plays no rubber out: each round is won by the side ahead on points once
its deals are played (ruling P1), and its rubber stays unfinished. Its default precedence
ends with head-to-head (rounds won, points won, head-to-head: docs/movements.md), which
read "rubbers won less rubbers lost against each other" as finished rubbers only, and so
was nothing for everyone: two players tied on rounds and points, one of whom had beaten
the other at their table, stayed tied. A reader of the issue and the rulings counts the
tables each won and lost against the others tied with him: here the rounds, as the rounds
won metric counts them."""

import pytest

from club import recording
from tests.tournaments import independent
from tests.tournaments.conftest import EIGHT, hand
from tournaments import rounds, services
from tournaments.selectors import standings_published

# Round 1 by the cards cut (ruling T10; the rotation cuts for places alone): the seating,
# and so the rotation's round 2, are known.
CUT = {
    "Hugh": ["JS"], "Grace": ["AS"], "Frank": ["KS"], "Edith": ["QS"],
    "Dan": ["10S"], "Cora": ["9S"], "Bob": ["8S"], "Ann": ["7S"],
}  # fmt: skip
TWO = [hand("NS", 3), hand("NS", 3)]  # North-South win the round, 2 to 0 (law 2)
THREE = [hand("NS", 5), hand("NS", 3)]  # North-South win it, 3 to 0 (a march, then one)


@pytest.fixture
def fixed_deals(club, commit):
    """A rotation progressive of two deals a round, ranked by its default precedence."""
    tournament = services.tournament_create(
        club=club, name="Progressive", slug="p-h2h", kind="progressive",
        ruleset=independent.EUCHRE, movement="rotation", deals_per_round=2,
    )  # fmt: skip
    for name in EIGHT:
        rounds.tournament_enter(tournament=tournament, name=name)
    return tournament


def play_round(commit, tournament, results, cards=None):
    """Seat the next round and play each table's deals; return each table's sides."""
    played = rounds.round_seat_next(tournament_id=tournament.pk, cards=cards)
    sides = []
    for table, hands in zip(played.tables.order_by("number"), results, strict=True):
        for data in hands:
            commit(recording.hand_record, rubber_id=table.rubber.pk, data=data)
        sides.append(table.rubber.players)
    return sides


def shown(tournament) -> dict[str, dict]:
    tournament.refresh_from_db()
    return {row["name"]: row for row in standings_published(tournament=tournament)["rows"]}


def test_a_round_won_against_a_tied_player_breaks_the_tie(fixed_deals, commit):
    """Ruling P1 and issue #5's head-to-head. Round 1: Dan and Frank beat Cora and Bob 2-0,
    Ann and Grace beat Hugh and Edith 3-0. Round 2: Cora and Edith beat Bob and Hugh 2-0,
    Ann and Frank beat Grace and Dan 2-0. Dan, Cora and Edith have each won one round with
    two points: tied on rounds won and points won. Of the three, only Dan and Cora met as
    opponents (round 1, which Dan's side won); Cora and Edith were partners. So Dan +1,
    Edith 0, Cora -1: three places, not one shared."""
    tournament = fixed_deals
    first = play_round(commit, tournament, [TWO, THREE], cards=CUT)
    assert first == [
        {"NS": ["Dan", "Frank"], "EW": ["Cora", "Bob"]},
        {"NS": ["Ann", "Grace"], "EW": ["Hugh", "Edith"]},
    ]  # the seating the cut gives (the story above)
    second = play_round(commit, tournament, [TWO, TWO])
    assert second == [
        {"NS": ["Cora", "Edith"], "EW": ["Bob", "Hugh"]},
        {"NS": ["Ann", "Frank"], "EW": ["Grace", "Dan"]},
    ]
    for _ in ("incremental", "full"):
        rows = shown(tournament)
        tied = {"Dan", "Cora", "Edith"}
        assert {(rows[n]["metrics"]["rounds_won"], rows[n]["metrics"]["points"]) for n in tied} == {
            (1, 2)
        }
        assert {n: rows[n]["metrics"]["head_to_head"] for n in tied} == {
            "Dan": 1, "Edith": 0, "Cora": -1,
        }  # fmt: skip
        places = {n: rows[n]["display_rank"] for n in tied}
        assert int(places["Dan"]) < int(places["Edith"]) < int(places["Cora"])
        # Bob and Hugh, tied on nothing won, met only as partners: still tied.
        assert rows["Bob"]["display_rank"] == rows["Hugh"]["display_rank"]
        assert rows["Bob"]["display_rank"].startswith("=")
        # Every place and figure as an independent reading of the laws has them.
        expected = independent.ranked(tournament, tournament.precedence or [])
        assert {n: place for n, (place, _) in expected.items()} == {
            n: row["display_rank"] for n, row in rows.items()
        }
        services.standings_full_recalculation(tournament_id=tournament.pk)


def test_head_to_head_alone_ranks_the_winners_of_round_one(fixed_deals, commit):
    """A director may rank by head-to-head alone (issue #5: a precedence list of the
    registered metrics): after one round every player met two opponents, and each side
    that is ahead when its two deals are played has won its table (ruling P1): the four
    winners share first place, the four losers fifth."""
    tournament = fixed_deals
    commit(services.tournament_update, tournament=tournament, precedence=["head_to_head"])
    sides = play_round(commit, tournament, [TWO, THREE], cards=CUT)
    rows = shown(tournament)
    winners = {name for table in sides for name in table["NS"]}
    for name, row in rows.items():
        won = name in winners
        assert row["metrics"]["head_to_head"] == (1 if won else -1)
        assert row["display_rank"] == ("=1" if won else "=5")
