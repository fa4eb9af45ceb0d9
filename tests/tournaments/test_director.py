"""The director's page: a full recalculation with its progress bar, rounds and players."""

from tests.tournaments.conftest import record, start, sweep
from tournaments import services


def test_a_full_recalculation_from_the_director_page(
    club, secretary, evening, ladder, commit, client, django_capture_on_commit_callbacks
):
    record(commit, start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"]), *sweep("NS"))
    client.force_login(secretary)
    page = client.get(f"/secretary/tournaments/{ladder.pk}/").content.decode()
    assert "Recalculate the whole season" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/secretary/tournaments/{ladder.pk}/act/", {"action": "recalculate"}
        )
    assert response.status_code == 200
    progress = client.get(f"/secretary/tournaments/{ladder.pk}/progress/").content.decode()
    assert 'value="100"' in progress and "Done" in progress
    assert services.standings_progress(tournament_id=ladder.pk)["state"] == "done"


def test_the_director_seats_rounds_and_enters_players(club, secretary, client, roster):
    tournament = services.tournament_create(
        club=club, name="P", slug="p", kind="progressive", ruleset="euchre-somerset-1888",
        movement="cut",
    )  # fmt: skip
    client.force_login(secretary)
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        client.post(
            f"/secretary/tournaments/{tournament.pk}/act/", {"action": "enter", "name": name}
        )
    page = client.post(f"/secretary/tournaments/{tournament.pk}/act/", {"action": "seat"})
    assert "Round 1" in page.content.decode()
    again = client.post(f"/secretary/tournaments/{tournament.pk}/act/", {"action": "seat"})
    assert "still being played" in again.content.decode()


def test_another_clubs_secretary_cannot_direct(club, ladder, other_secretary, client):
    client.force_login(other_secretary)
    assert client.get(f"/secretary/tournaments/{ladder.pk}/").status_code == 404
    assert (
        client.post(
            f"/secretary/tournaments/{ladder.pk}/act/", {"action": "recalculate"}
        ).status_code
        == 404
    )
