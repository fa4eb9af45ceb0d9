"""Head-to-head among tied players: "rubbers won less rubbers lost against each other"
(issue #5's head-to-head metric, as the registry describes it in the API and its schema).

A rubber is one result: a player who beats two of the tied players in one rubber has won
one rubber against them, not two; a partner is not an opponent."""

from tests.factories import MemberFactory
from tests.tournaments.conftest import record, start, sweep
from tournaments import services
from tournaments.selectors import standings_published


def test_a_rubber_against_two_of_the_tied_counts_once(club, roster, evening, ladder, commit):
    """Issue #5, metric "head-to-head": "among tied players: rubbers won less rubbers lost
    against each other". Ann beats Bob and Cora together in one rubber, then loses one
    rubber to Bob and one to Cora: one rubber won, two lost, -1; Bob and Cora each won one
    and lost one, 0. Counting each opponent beaten instead made Ann +2 - 1 - 1 = 0 and
    left all three tied."""
    for name in ["Grace", "Hugh"]:
        MemberFactory(club=club, name=name)
    commit(
        services.tournament_update, tournament=ladder, precedence=["rubbers_won", "head_to_head"]
    )
    for ns, ew in [
        (["Ann", "Dan"], ["Bob", "Cora"]),  # Ann (and Dan) beat Bob and Cora
        (["Bob", "Edith"], ["Ann", "Frank"]),  # Bob beats Ann
        (["Cora", "Edith"], ["Ann", "Frank"]),  # Cora beats Ann
        (["Dan", "Grace"], ["Frank", "Hugh"]),  # Grace's rubber: none of the tied against her
    ]:
        record(commit, start(club, evening, ns, ew), *sweep("NS"))
    ladder.refresh_from_db()
    rows = {row["name"]: row for row in standings_published(tournament=ladder)["rows"]}
    won = {name: row["metrics"]["rubbers_won"] for name, row in rows.items()}
    assert won == {
        "Dan": 2, "Edith": 2, "Ann": 1, "Bob": 1, "Cora": 1, "Grace": 1, "Frank": 0, "Hugh": 0,
    }  # fmt: skip
    # Tied on one rubber won: Ann, Bob, Cora and Grace.
    h2h = {name: rows[name]["metrics"]["head_to_head"] for name in ["Ann", "Bob", "Cora", "Grace"]}
    assert h2h == {"Ann": -1, "Bob": 0, "Cora": 0, "Grace": 0}
    # Dan and Edith (two each) never met as opponents: still tied. Then Bob, Cora and Grace
    # share third, and Ann is sixth.
    shown = {name: row["display_rank"] for name, row in rows.items()}
    assert shown == {
        "Dan": "=1", "Edith": "=1", "Bob": "=3", "Cora": "=3", "Grace": "=3", "Ann": "6",
        "Frank": "=7", "Hugh": "=7",
    }  # fmt: skip
    # The same from scratch.
    services.standings_full_recalculation(tournament_id=ladder.pk)
    ladder.refresh_from_db()
    again = {
        row["name"]: row["display_rank"] for row in standings_published(tournament=ladder)["rows"]
    }
    assert again == shown


def test_partners_among_the_tied_are_not_opponents(club, roster, evening, ladder, commit):
    """Head-to-head counts rubbers against the others of the group (issue #5): Ann and
    Cora, tied on one rubber won, won it as partners, so neither beat the other: 0 each.
    Bob and Dan, tied on none, lost it as partners: 0 each. Both pairs stay tied."""
    commit(
        services.tournament_update, tournament=ladder, precedence=["rubbers_won", "head_to_head"]
    )
    record(commit, start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"]), *sweep("NS"))
    ladder.refresh_from_db()
    rows = {row["name"]: row for row in standings_published(tournament=ladder)["rows"]}
    assert {n: rows[n]["metrics"]["head_to_head"] for n in rows} == dict.fromkeys(
        ["Ann", "Bob", "Cora", "Dan"], 0
    )
    assert {n: rows[n]["display_rank"] for n in rows} == {
        "Ann": "=1", "Cora": "=1", "Bob": "=3", "Dan": "=3"
    }  # fmt: skip
