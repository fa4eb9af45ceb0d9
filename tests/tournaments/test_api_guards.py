"""The API's one-off actions of a progressive's director take the director's page's
guards: a call retried after a lost answer acts once. Seating a round takes the round it
means to seat (`seating`); taking back the ending or the declaration that the results are
final takes that change's version as the tournament showed it (`ending_version`,
`final_version`, in the query beside the reason). With the guard, the same call again is
refused as the page refuses its form posted twice: 409, the same code and words, nothing
written. Without it the action runs as before; a malformed guard is a 400 naming it."""

import pytest

from tests.conftest import token_client
from tournaments import rounds
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def base(tournament) -> str:
    return f"/api/v1/clubs/{tournament.club.slug}/tournaments/{tournament.slug}"


def error(response) -> dict:
    return response.json()["error"]


@pytest.fixture
def api(director):
    return token_client(director)


@pytest.fixture
def ended(round_one):
    from tests.tournaments.test_table_phone import play_out

    play_out(round_one)
    return rounds.tournament_end(tournament_id=round_one.pk, after_round=1)


def state(tournament) -> tuple:
    tournament = Tournament.objects.get(pk=tournament.pk)
    return (
        tournament.rounds.count(),
        tournament.ended_after_round,
        tournament.ended_at,
        tournament.results_final_at,
    )


# --- seating a round ------------------------------------------------------------------------


def test_a_round_seated_twice_with_its_number_is_seated_once(api, make):
    tournament = make("rotation", deals=1)
    url = f"{base(tournament)}/rounds/"
    first = api.post(url, {"seating": 1}, format="json")
    assert first.status_code == 201 and first.json()["number"] == 1
    again = api.post(url, {"seating": 1}, format="json")
    assert again.status_code == 409
    assert error(again)["code"] == "round_seated" and error(again)["field"] == "seating"
    assert error(again)["message"].startswith("Round 1 was seated already, at ")
    assert tournament.rounds.count() == 1
    # Without it, as before: the round still in play is the refusal.
    before = api.post(url, {}, format="json")
    assert before.status_code == 400 and "still being played" in error(before)["message"]


@pytest.mark.parametrize("bad", ["one", 0, -2, "٣", 1.5])
def test_a_malformed_seating_is_a_400_naming_it(api, make, bad):
    tournament = make("rotation", deals=1)
    refused = api.post(f"{base(tournament)}/rounds/", {"seating": bad}, format="json")
    assert refused.status_code == 400 and error(refused)["field"] == "seating"
    assert tournament.rounds.count() == 0


# --- taking back the ending -----------------------------------------------------------------


def test_the_tournament_shows_its_ending_and_final_versions(api, ended):
    shown = api.get(f"{base(ended)}/").json()
    assert shown["ending_version"] == rounds.ending_version(ended) != ""
    assert shown["final_version"] == ""
    rounds.tournament_results_final(tournament_id=ended.pk)
    ended.refresh_from_db()
    assert api.get(f"{base(ended)}/").json()["final_version"] == rounds.final_version(ended)


def test_a_reopen_retried_after_the_tournament_was_ended_again_is_refused(api, ended):
    seen = api.get(f"{base(ended)}/").json()["ending_version"]
    url = f"{base(ended)}/end/"
    query = {"reason": "a mistake", "ending_version": seen}
    reopened = api.delete(_q(url, query))
    assert reopened.status_code == 200 and reopened.json()["ending_version"] == ""
    rounds.tournament_end(tournament_id=ended.pk, after_round=1)  # ended again meanwhile
    before = state(ended)
    again = api.delete(_q(url, query))
    assert again.status_code == 409
    assert error(again)["code"] == "stale_ending"
    assert error(again)["message"].startswith("The ending this page showed was taken back")
    assert state(ended) == before
    # The version as it now is reopens it; without one, as before.
    now = api.get(f"{base(ended)}/").json()["ending_version"]
    assert api.delete(_q(url, {"reason": "a mistake", "ending_version": now})).status_code == 200
    rounds.tournament_end(tournament_id=ended.pk, after_round=1)
    assert api.delete(_q(url, {"reason": "a mistake"})).status_code == 200
    assert Tournament.objects.get(pk=ended.pk).ended_after_round is None


@pytest.mark.parametrize("bad", ["", "yesterday", "1@yesterday", "x@2026-11-28T00:00:00+00:00",
                                 "1@2026-11-28T00:00:00"])  # fmt: skip
def test_a_malformed_ending_version_is_a_400_naming_it(api, ended, bad):
    before = state(ended)
    refused = api.delete(_q(f"{base(ended)}/end/", {"reason": "a mistake", "ending_version": bad}))
    assert refused.status_code == 400 and error(refused)["field"] == "ending_version"
    assert "version as the tournament gives it" in error(refused)["message"]
    assert "`ending_version`" in error(refused)["message"]
    assert state(ended) == before


# --- taking back the declaration that the results are final ---------------------------------


def test_results_not_final_retried_after_a_second_declaration_is_refused(api, ended):
    rounds.tournament_results_final(tournament_id=ended.pk)
    seen = api.get(f"{base(ended)}/").json()["final_version"]
    url = f"{base(ended)}/results-final/"
    query = {"reason": "a slip", "final_version": seen}
    assert api.delete(_q(url, query)).status_code == 200
    rounds.tournament_results_final(tournament_id=ended.pk)  # declared final again
    before = state(ended)
    again = api.delete(_q(url, query))
    assert again.status_code == 409
    assert error(again)["code"] == "stale_final"
    assert error(again)["message"].startswith("The declaration this page showed was taken")
    assert state(ended) == before
    assert api.delete(_q(url, {"reason": "a slip"})).status_code == 200
    assert Tournament.objects.get(pk=ended.pk).results_final_at is None


@pytest.mark.parametrize("bad", ["", "soon", "2026-11-28T00:00:00", "1@2026-11-28T00:00:00+00:00"])
def test_a_malformed_final_version_is_a_400_naming_it(api, ended, bad):
    rounds.tournament_results_final(tournament_id=ended.pk)
    before = state(ended)
    url = f"{base(ended)}/results-final/"
    refused = api.delete(_q(url, {"reason": "a slip", "final_version": bad}))
    assert refused.status_code == 400 and error(refused)["field"] == "final_version"
    assert "version as the tournament gives it" in error(refused)["message"]
    assert "`final_version`" in error(refused)["message"]
    assert state(ended) == before


def test_the_schema_documents_the_guards(api, ended):
    schema = api.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    bodies = schema["components"]["schemas"]
    prefix = "/api/v1/clubs/{slug}/tournaments/{tslug}"
    seat = paths[f"{prefix}/rounds/"]["post"]["requestBody"]["content"]["application/json"]
    seating = bodies[seat["schema"]["$ref"].rsplit("/", 1)[1]]["properties"]["seating"]
    assert "twice" in seating["description"] and "as before" in seating["description"]
    for path, name in (("end", "ending_version"), ("results-final", "final_version")):
        params = {p["name"]: p for p in paths[f"{prefix}/{path}/"]["delete"]["parameters"]}
        assert not params[name].get("required", False)
        assert "twice" in params[name]["description"]
        assert "as before" in params[name]["description"]
        shown = paths[f"{prefix}/"]["get"]["responses"]["200"]["content"]["application/json"]
        assert name in bodies[shown["schema"]["$ref"].rsplit("/", 1)[1]]["properties"]


def _q(url: str, query: dict) -> str:
    from urllib.parse import urlencode

    return f"{url}?{urlencode(query)}"
