"""Once the director has declared a progressive's results final, the standings declared
stay as declared: the order they are ranked by ("Ranked by") and the rounds they count are
refused at the director's page and the API alike, in words saying when the results were
declared final, as the other actions refused after it are (tournaments.services
`_refuse_once_final`). Its name and whether its standings are public still change."""

import pytest

from tests.conftest import token_client
from tournaments import rounds
from tournaments.models import Tournament

from .test_director_corrections import words
from .test_table_phone import page_of, play_out
from .test_tournament_end import act, api_url, director_page

pytestmark = pytest.mark.django_db


@pytest.fixture
def final(round_one, director, django_capture_on_commit_callbacks):
    """Round 1 played out, the tournament ended after it and its results declared final."""
    play_out(round_one)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.tournament_end(tournament_id=round_one.pk)
        rounds.tournament_results_final(tournament_id=round_one.pk)
    round_one.refresh_from_db()
    return round_one


def declared(tournament: Tournament) -> str:
    from core.moments import moment_words

    return f"The results were declared final {moment_words(tournament.results_final_at)}"


def test_the_ranked_by_order_is_changed_until_the_results_are_final(directing, round_one):
    play_out(round_one)
    changed = act(directing, round_one, action="precedence", precedence=["points", "rounds_won"])
    assert changed.status_code == 200
    round_one.refresh_from_db()
    assert round_one.precedence == ["points", "rounds_won"]


def test_the_page_refuses_the_ranked_by_order_once_final(directing, final):
    before = list(Tournament.objects.get(pk=final.pk).precedence)
    page = director_page(directing, final)
    # The page offers no lists to choose from, and says why.
    assert 'data-testid="precedence"' not in page and 'name="precedence"' not in page
    shown = " ".join(page.split())
    assert "Rounds won, then points won, then head-to-head: fixed with the results" in shown

    answer = act(directing, final, action="precedence", precedence=["points"])
    assert answer.status_code == 400
    said = words(answer)
    assert (
        f'{declared(final)}: the order the standings are ranked by ("Ranked by") is fixed '
        "with them, as the standings declared are."
    ) in said
    final.refresh_from_db()
    assert final.precedence == before


def test_the_api_refuses_the_ranked_by_order_and_the_rounds_counted_once_final(final, director):
    api = token_client(director)
    before = list(final.precedence)
    url = api_url(final, "")[:-1]
    answer = api.patch(url, {"precedence": ["points"]}, format="json")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert (error["field"], error["code"]) == ("precedence", "results_final")
    assert error["message"].startswith(f"{declared(final)}: the order the standings are ranked")
    answer = api.patch(url, {"standings_round": 1}, format="json")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert (error["field"], error["code"]) == ("standings_round", "results_final")
    assert f"{declared(final)}: the rounds the standings count are fixed" in error["message"]
    final.refresh_from_db()
    assert final.precedence == before and final.standings_round is None

    # What does not change the standings declared still changes.
    renamed = api.patch(url, {"name": "Spring progressive", "is_public": False}, format="json")
    assert renamed.status_code == 200, renamed.content
    final.refresh_from_db()
    assert final.name == "Spring progressive" and not final.is_public


def test_the_printed_page_still_says_what_the_standings_are_ranked_by(directing, final):
    page = page_of(directing.get(f"/secretary/tournaments/{final.pk}/"))
    assert "Ranked by rounds won, then points won, then head-to-head." in " ".join(page.split())
