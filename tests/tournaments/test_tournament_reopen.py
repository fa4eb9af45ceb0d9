"""A director who ended a progressive, or declared its results final, by mistake takes it
back on his page (tournaments.rounds: tournament_reopen, tournament_results_final_undo):
a reason first, then asked again; the change and its reason are kept in the audit
history. The ending is taken back until the results are declared final (the declaration
first); the declaration until a deal is corrected on its table's sheet after it, which the
club's referee made on final results (law 5, ruling E9). Nothing played changes (rulings
P1, P2). Before, neither could be undone."""

import pytest
from django.db import connection

from tournaments import rounds

from .test_director_corrections import words
from .test_table_phone import at_table, play_out
from .test_tournament_end import act, director_page

pytestmark = pytest.mark.django_db


@pytest.fixture
def ended(round_one):
    play_out(round_one)
    return rounds.tournament_end(tournament_id=round_one.pk, after_round=1)


def history(tournament) -> list[dict]:
    """The audit history's contexts of the tournament's row changes (PostgreSQL keeps them)."""
    if connection.vendor != "postgresql":
        return []
    rows = tournament.history.order_by("pgh_id").select_related("pgh_context")
    return [row.pgh_context.metadata for row in rows if row.pgh_context]


def test_the_director_takes_back_an_ending_with_a_reason_asked_again(directing, ended):
    page = director_page(directing, ended)
    assert "Take back the ending (reopen the tournament)" in page
    refused = act(directing, ended, action="reopen", reason="  ")
    assert refused.status_code == 400
    assert "Say why the tournament is reopened: the reason is kept with the change." in words(
        refused
    )
    asked = act(directing, ended, action="reopen", reason="Ended a round early by mistake")
    assert asked.status_code == 200
    said = words(asked)
    assert "Reopen the tournament ended after round 1?" in said
    assert "“Ended a round early by mistake”" in said
    ended.refresh_from_db()
    assert ended.ended_after_round == 1  # asked, not done

    done = act(
        directing, ended, action="reopen", reason="Ended a round early by mistake", confirm="1"
    )
    assert done.status_code == 200
    assert "The ending is taken back: the tournament goes on" in words(done)
    ended.refresh_from_db()
    assert ended.ended_after_round is None
    assert 'data-testid="seat"' in director_page(directing, ended)  # round 2 may be seated
    if connection.vendor == "postgresql":
        last = history(ended)[-1]
        assert last["reason"] == "Ended a round early by mistake"
        assert last["user"] == "director" and last["undone"] == "ended after round 1"
    again = act(directing, ended, action="reopen", reason="twice", confirm="1")
    assert again.status_code == 400
    assert "there is no ending to take back" in words(again)


def test_the_declaration_is_taken_back_then_the_ending(directing, ended):
    rounds.tournament_results_final(tournament_id=ended.pk)
    page = director_page(directing, ended)
    assert "Take back the declaration (the results not final)" in page
    assert "Take back the ending" not in page  # the declaration first
    first = act(directing, ended, action="reopen", reason="mistake", confirm="1")
    assert first.status_code == 400
    assert "take that back first (with its reason), then the ending" in words(first)

    asked = act(directing, ended, action="unfinal", reason="Table 2 had a wrong score")
    assert "Declare the results not final after all?" in words(asked)
    done = act(directing, ended, action="unfinal", reason="Table 2 had a wrong score", confirm="1")
    assert done.status_code == 200 and "The results are no longer final" in words(done)
    ended.refresh_from_db()
    assert ended.results_final_at is None and ended.ended_after_round == 1
    assert 'data-testid="final"' in director_page(directing, ended)  # declared again later
    if connection.vendor == "postgresql":
        assert history(ended)[-1]["reason"] == "Table 2 had a wrong score"


def test_the_declaration_stands_once_a_deal_was_corrected_on_final_results(
    directing, ended, director
):
    from club import recording

    rounds.tournament_results_final(tournament_id=ended.pk)
    table = at_table(ended)
    recording.hand_correct(
        rubber_id=table.rubber_id, number=1, data={"makers": "EW", "tricks": 4},
        reason="the tricks were miscounted", user=director, is_secretary=True,
    )  # fmt: skip
    refused = act(directing, ended, action="unfinal", reason="mistake")
    assert refused.status_code == 400
    said = words(refused)
    assert "after the results were declared final" in said and "ruling E9" in said
    ended.refresh_from_db()
    assert ended.results_final_at is not None


def test_only_a_progressive_s_officers_take_it_back(client, ended, other_secretary):
    client.force_login(other_secretary)
    answer = act(client, ended, action="reopen", reason="mine now", confirm="1")
    assert answer.status_code in (403, 404)
    ended.refresh_from_db()
    assert ended.ended_after_round == 1


def test_the_api_takes_back_the_declaration_then_the_ending(ended, director, other_secretary):
    from tests.conftest import token_client

    from .test_tournament_end import api_url

    rounds.tournament_results_final(tournament_id=ended.pk)
    api = token_client(director)
    first = api.delete(api_url(ended, "end") + "?reason=by+mistake")
    assert first.status_code == 400 and first.json()["error"]["code"] == "results_final"
    blank = api.delete(api_url(ended, "results-final") + "?reason=+")
    assert blank.status_code == 400
    assert blank.json()["error"]["message"].startswith("Say why the results are no longer final")
    odd = api.delete(api_url(ended, "results-final") + "?reason=x", {"why": "x"}, format="json")
    assert odd.status_code == 400 and odd.json()["error"]["code"] == "unknown_key"
    stranger = token_client(other_secretary).delete(api_url(ended, "results-final") + "?reason=m")
    assert stranger.status_code in (403, 404)
    ended.refresh_from_db()
    assert ended.results_final_at is not None

    undone = api.delete(api_url(ended, "results-final") + "?reason=wrong+score")
    assert undone.status_code == 200 and undone.json()["results_final_at"] is None
    reopened = api.delete(api_url(ended, "end") + "?reason=ended+early")
    assert reopened.status_code == 200 and reopened.json()["ended_after_round"] is None
    if connection.vendor == "postgresql":
        assert [c.get("reason") for c in history(ended)[-2:]] == ["wrong score", "ended early"]


def test_a_misspelt_query_key_of_a_taking_back_is_refused_and_nothing_is_taken_back(
    ended, director
):
    """`DELETE .../end/?reason=...&reasn=x`: the misspelt key was ignored and the ending
    taken back as if it had been read. Now it is refused as a body's unknown key is
    (code `unknown_key`, field the key, the keys taken named), and nothing is done."""
    from tests.conftest import token_client

    from .test_tournament_end import api_url

    api = token_client(director)
    answer = api.delete(api_url(ended, "end") + "?reason=ended+early&reasn=x")
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert (error["code"], error["field"]) == ("unknown_key", "reasn")
    assert error["message"] == (
        "Unknown query key 'reasn': this takes 'ending_version' and 'reason' in its query (no "
        "other key is read)."
    )
    ended.refresh_from_db()
    assert ended.ended_after_round == 1  # still ended
    # Sent as it should be, it is taken back.
    answer = api.delete(api_url(ended, "end") + "?reason=ended+early")
    assert answer.status_code == 200, answer.content
    ended.refresh_from_db()
    assert ended.ended_after_round is None
