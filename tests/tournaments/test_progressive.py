"""Progressive tournaments: rounds seated by the movements, results, late arrivals and
departures, fixed deals, and standings over the rounds."""

import pytest

from club import recording
from config.api import UserError
from scoring.models import Rubber
from scoring.rules import ScoringError
from tests.tournaments.conftest import sweep
from tournaments import rounds, services
from tournaments.selectors import standings_published


def play_round(commit, played, winners: dict[int, str]):
    """Each table's rubber swept by the side named (three double games, worth 8)."""
    for table in played.tables.select_related("rubber"):
        for hand in sweep(winners.get(table.number, "NS")):
            commit(recording.hand_record, rubber_id=table.rubber_id, data=hand)


def seat(tournament):
    return rounds.round_seat_next(tournament_id=tournament.pk)


def partners(played) -> set[frozenset]:
    return {
        frozenset(pair)
        for t in played.seating["tables"]
        for pair in ((t["seats"]["N"], t["seats"]["S"]), (t["seats"]["E"], t["seats"]["W"]))
    }


def test_rotation_never_repeats_a_partner_and_waits_for_results(make, commit):
    tournament = make("rotation")
    first = seat(tournament)
    assert first.tables.count() == 2
    assert Rubber.objects.filter(round_table__round=first).count() == 2
    with pytest.raises(UserError) as error:
        seat(tournament)
    assert error.value.code == "round_unfinished"
    play_round(commit, first, {})
    second = seat(tournament)
    assert not partners(first) & partners(second)


def test_progressive_winners_move_up_and_losers_down(make, commit):
    tournament = make("progressive")
    first = seat(tournament)
    tables = {t["number"]: t["seats"] for t in first.seating["tables"]}
    play_round(commit, first, {1: "NS", 2: "NS"})
    second = seat(tournament)
    head = set(second.seating["tables"][0]["seats"].values())
    foot = set(second.seating["tables"][1]["seats"].values())
    # Head table: its winners stay; table 2's winners come up. Foot: its losers stay,
    # the head table's losers come down.
    assert {tables[1]["N"], tables[1]["S"], tables[2]["N"], tables[2]["S"]} == head
    assert {tables[1]["E"], tables[1]["W"], tables[2]["E"], tables[2]["W"]} == foot
    # The winners who meet at the head table split: each partners a newcomer.
    assert frozenset((tables[1]["N"], tables[1]["S"])) not in partners(second)


def test_a_late_arrival_and_a_departure_change_only_later_rounds(make, commit):
    tournament = make("rotation")
    first = seat(tournament)
    play_round(commit, first, {})
    rounds.tournament_enter(tournament=tournament, name="Iris")  # a guest, late
    rounds.tournament_withdraw(
        tournament=tournament, member_id=tournament.players.get(member__name="Hugh").member_id
    )
    second = seat(tournament)
    seated = {p for t in second.seating["tables"] for p in t["seats"].values()}
    assert "Hugh" not in seated and "Hugh" not in second.seating["byes"]
    assert "Iris" in seated | set(second.seating["byes"])
    assert len(seated) == 8 and len(second.seating["byes"]) == 0
    # Round 1 is as it was.
    assert "Hugh" in {p for t in first.seating["tables"] for p in t["seats"].values()}


def test_a_round_of_fixed_deals(make, commit):
    tournament = make("cut", deals=2)
    first = seat(tournament)
    table = first.tables.get(number=1)
    commit(recording.hand_record, rubber_id=table.rubber_id, data={"makers": "NS", "tricks": 5})
    commit(recording.hand_record, rubber_id=table.rubber_id, data={"makers": "EW", "tricks": 3})
    with pytest.raises(ScoringError):
        recording.hand_record(rubber_id=table.rubber_id, data={"makers": "NS", "tricks": 3})
    # N-S scored 2, E-W 1: N-S take the table.
    assert rounds.round_as_dict(first)["tables"][0]["winner"] == "NS"


def test_standings_count_the_rounds_up_to_the_one_selected(make, commit):
    tournament = make("rotation")
    first = seat(tournament)
    play_round(commit, first, {})
    second = seat(tournament)
    play_round(commit, second, {})
    tournament.refresh_from_db()
    rows = standings_published(tournament=tournament)["rows"]
    assert sum(r["metrics"]["rubbers_played"] for r in rows) == 16  # 8 players x 2 rounds
    commit(services.tournament_update, tournament=tournament, standings_round=1)
    tournament.refresh_from_db()
    rows = standings_published(tournament=tournament)["rows"]
    assert sum(r["metrics"]["rubbers_played"] for r in rows) == 8


@pytest.mark.parametrize("number", [2, 2**15, 2**63])
def test_the_standings_count_up_to_a_seated_round_only(make, secretary_api, number):
    """A round not seated yet is refused, naming the field: 2**15 went past the column
    (smallint) and 2**63 past PostgreSQL's integers, a 500 each; 0 counts every round."""
    tournament = make("rotation")
    seat(tournament)
    url = f"/api/v1/clubs/{tournament.club.slug}/tournaments/{tournament.slug}/"
    response = secretary_api.patch(url, {"standings_round": number}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["field"] == "standings_round"
    assert error["message"].startswith(f"Round {number} has not been seated")
    tournament.refresh_from_db()
    assert tournament.standings_round is None
    for counted in (1, 0):
        answer = secretary_api.patch(url, {"standings_round": counted}, format="json")
        assert answer.status_code == 200, answer.content


def test_call_ace_is_not_played_progressive(club):
    with pytest.raises(UserError) as error:
        services.tournament_create(
            club=club, name="P", slug="p", kind="progressive",
            ruleset="call-ace-foster-1905", movement="rotation",
        )  # fmt: skip
    assert error.value.field == "ruleset"


def test_the_rounds_api(club, secretary_api, make, commit):
    make("cut")
    response = secretary_api.post("/api/v1/clubs/somerset/tournaments/p-cut/rounds/")
    assert response.status_code == 201
    body = response.json()
    assert len(body["tables"]) == 2 and all(t["rubber"] for t in body["tables"])
    again = secretary_api.post("/api/v1/clubs/somerset/tournaments/p-cut/rounds/")
    assert again.status_code == 400
    assert again.json()["error"]["code"] == "round_unfinished"
    late = secretary_api.post("/api/v1/clubs/somerset/tournaments/p-cut/players/", {"name": "Iris"})
    assert late.status_code == 201 and late.json()["joined_round"] == 2
