"""The director's "fresh link" for a progressive's table posted twice (a double tap, Back
then resubmit) renews the link once: the form sends the link as the page showed it
(club.services.phone_link_version), and a link renewed since is refused in words, the card
just printed left working."""

import html

import pytest

from club.services import phone_link_version
from core.errors import Conflict, UserError
from tournaments.models import TournamentTable

pytestmark = pytest.mark.django_db


def link(tournament, number=1) -> TournamentTable:
    return TournamentTable.objects.get(tournament=tournament, number=number)


def words_of(response) -> str:
    return " ".join(html.unescape(response.content.decode()).split())


def test_the_directors_fresh_link_posted_twice_renews_once(directing, round_one):
    page = words_of(directing.get(f"/secretary/tournaments/{round_one.pk}/"))
    seen = phone_link_version(link(round_one))
    assert f'name="table" value="1"><input type="hidden" name="link" value="{seen}">' in page
    form = {"action": "new_link", "table": "1", "link": seen}
    url = f"/secretary/tournaments/{round_one.pk}/act/"
    first = directing.post(url, form)
    assert "Table 1 has a fresh link: print its new card" in words_of(first)
    renewed = link(round_one)
    other = link(round_one, 2).token
    again = directing.post(url, form)
    assert again.status_code == 400
    words = words_of(again)
    assert "Table 1's link was renewed already at " in words and "print its card" in words
    assert "Table 1 has a fresh link" not in words
    assert (link(round_one).token, link(round_one).replaced_token) == (
        renewed.token,
        renewed.replaced_token,
    )
    assert f"/p/{renewed.token}/" in words  # the page as it is now
    assert link(round_one, 2).token == other


def test_the_directors_correction_posted_twice_corrects_once(directing, round_one):
    """The correction form sends the version of the deal it shows (when it was last
    changed, club.recording.changed_at): posted again (a double tap, Back then resubmit),
    it finds the deal corrected since and is refused in words, no second correction kept."""
    from club import recording
    from scoring.models import HandCorrection

    table = round_one.rounds.get(number=1).tables.get(number=1)
    recording.hand_record(rubber_id=table.rubber_id, data={"makers": "NS", "tricks": 3})
    url = f"/secretary/tournaments/{round_one.pk}/rounds/1/tables/1/"
    page = words_of(directing.get(url))
    hand = table.rubber.hands.get(number=1)
    seen = recording.changed_at(hand).isoformat()
    assert f'name="changed_at" value="{seen}"' in page
    form = {"change": "correct", "correct": "1", "makers": "EW", "tricks": "3",
            "reason": "the sides were the wrong way round", "changed_at": seen}  # fmt: skip
    assert directing.post(url, form).status_code == 302
    again = directing.post(url, form)
    assert again.status_code == 409
    said = words_of(again)
    assert "Not corrected.</strong> The club's referee corrected hand 1 at " in said
    assert "since this page showed it: it now reads" in said
    assert "So this correction was not recorded" in said
    assert HandCorrection.objects.filter(hand=hand).count() == 1
    # The form now holds the deal as it reads, at its new version: sent, it is corrected.
    now = recording.changed_at(hand).isoformat()
    assert f'name="changed_at" value="{now}"' in said


def test_the_directors_seat_pressed_twice_says_the_round_was_seated_already(directing, make):
    """ "Seat round 1" pressed twice (a double tap, an answer lost): the form sends the
    round it seats (`seating`), and the second post is refused for that round seated a
    moment ago, in words, not as a round "still being played"; no second round seated."""
    from tournaments import rounds

    tournament = make("rotation", deals=1)
    url = f"/secretary/tournaments/{tournament.pk}/"
    page = words_of(directing.get(url))
    assert (
        '<input type="hidden" name="action" value="seat">'
        '<input type="hidden" name="seating" value="1">' in page
    )
    form = {"action": "seat", "seating": "1"}
    first = directing.post(f"{url}act/", form)
    assert "Round 1 is seated." in words_of(first)
    again = directing.post(f"{url}act/", form)
    assert again.status_code == 400
    words = words_of(again)
    assert "Round 1 was seated already, at " in words, words
    assert "this page showed it still to be seated" in words
    assert "still being played" not in words
    assert tournament.rounds.count() == 1
    # The service alike: the round it means to seat, seated since, is refused as such.
    with pytest.raises(Conflict) as refused:
        rounds.round_seat_next(tournament_id=tournament.pk, seating=1)
    assert refused.value.code == "round_seated"
    # Without it (the API), the round still in play is the refusal, as before.
    with pytest.raises(UserError) as playing:
        rounds.round_seat_next(tournament_id=tournament.pk)
    assert "still being played" in playing.value.message


# --- the confirmed "Reopen" and "results not final", after an end-then-reopen cycle -------


@pytest.fixture
def ended(round_one):
    from tests.tournaments.test_table_phone import play_out
    from tournaments import rounds

    play_out(round_one)
    return rounds.tournament_end(tournament_id=round_one.pk, after_round=1)


def shown(page: str, name: str) -> str:
    """The value of the hidden field `name` of the page's take-back form."""
    import re

    return html.unescape(re.search(rf'name="{name}" value="([^"]*)"', page).group(1))


def test_a_reopen_posted_again_after_the_tournament_was_ended_again_is_refused(ended):
    """The ending taken back, then made again after the same round: the reopen form drawn
    before, posted again, finds another ending than the one it showed (its version,
    `ending_version`), and nothing is reopened. The API, sending none, as before."""
    from tournaments import rounds

    seen = rounds.ending_version(ended)
    rounds.tournament_reopen(tournament_id=ended.pk, reason="a mistake", seen=seen)
    rounds.tournament_end(tournament_id=ended.pk, after_round=1)  # ended again, meanwhile
    with pytest.raises(Conflict) as refused:
        rounds.tournament_reopen(tournament_id=ended.pk, reason="a mistake", seen=seen)
    assert refused.value.code == "stale_ending" and refused.value.field == "reopen"
    ended.refresh_from_db()
    assert ended.ended_after_round == 1
    with pytest.raises(Conflict):  # nor asked: the first tap refuses it too
        rounds.tournament_reopen_refusal(ended, seen=seen)
    rounds.tournament_reopen(tournament_id=ended.pk, reason="the API's", seen=None)
    ended.refresh_from_db()
    assert ended.ended_after_round is None


def test_results_not_final_posted_again_after_a_second_declaration_is_refused(ended):
    from tournaments import rounds

    rounds.tournament_results_final(tournament_id=ended.pk)
    ended.refresh_from_db()
    seen = rounds.final_version(ended)
    rounds.tournament_results_final_undo(tournament_id=ended.pk, reason="a slip", seen=seen)
    rounds.tournament_results_final(tournament_id=ended.pk)  # declared final again
    with pytest.raises(Conflict) as refused:
        rounds.tournament_results_final_undo(tournament_id=ended.pk, reason="a slip", seen=seen)
    assert refused.value.code == "stale_final" and refused.value.field == "unfinal"
    ended.refresh_from_db()
    assert ended.results_final_at is not None


def test_the_directors_confirmed_reopen_posted_from_a_page_drawn_before_is_refused(
    directing, ended
):
    url = f"/secretary/tournaments/{ended.pk}/"
    page = words_of(directing.get(url))
    seen = shown(page, "version")
    assert seen and "Take back the ending (reopen the tournament)" in page
    asked = words_of(
        directing.post(f"{url}act/", {"action": "reopen", "reason": "a mistake", "version": seen})
    )
    assert "Reopen the tournament ended after round 1?" in asked
    assert shown(asked, "version") == seen  # the question's form sends it on
    confirmed = {"action": "reopen", "reason": "a mistake", "version": seen, "confirm": "1"}
    assert "The ending is taken back" in words_of(directing.post(f"{url}act/", confirmed))
    from tournaments import rounds

    rounds.tournament_end(tournament_id=ended.pk, after_round=1)  # ended again
    again = directing.post(f"{url}act/", confirmed)
    assert again.status_code == 400
    said = words_of(again)
    assert "The ending this page showed was taken back already" in said, said
    assert "nothing was reopened" in said
    assert "The ending is taken back" not in said
    ended.refresh_from_db()
    assert ended.ended_after_round == 1
    assert shown(said, "version") == rounds.ending_version(ended)  # the page as it is now


def test_the_directors_confirmed_unfinal_posted_from_a_page_drawn_before_is_refused(
    directing, ended
):
    from tournaments import rounds

    rounds.tournament_results_final(tournament_id=ended.pk)
    url = f"/secretary/tournaments/{ended.pk}/"
    seen = shown(words_of(directing.get(url)), "version")
    confirmed = {"action": "unfinal", "reason": "a slip", "version": seen, "confirm": "1"}
    assert "The results are no longer final" in words_of(directing.post(f"{url}act/", confirmed))
    rounds.tournament_results_final(tournament_id=ended.pk)  # declared final again
    again = directing.post(f"{url}act/", confirmed)
    assert again.status_code == 400
    said = words_of(again)
    assert "The declaration this page showed was taken back already" in said, said
    assert "nothing was taken back" in said
    ended.refresh_from_db()
    assert ended.results_final_at is not None
