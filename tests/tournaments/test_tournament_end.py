"""A progressive with no number of rounds planned, or ended before its planned last, ended
by its director (tournaments.rounds.tournament_end): offered once every table of its latest
round has its result, asked twice on the director's page, refused in words (the tables
still playing named) while one is not; once ended it is over as a planned one whose rounds
are all played out: no round seated, entered for or sat out, the tables' phones record
nothing more but the last round's tables still correct their last deal (law 5, ruling E9)
until the results are declared final, which then works as for a planned tournament. The
API's requests for both, for the club's secretaries and directors only."""

import pytest

from club import recording
from tests.conftest import token_client
from tests.factories import UserFactory
from tournaments import rounds, table_links
from tournaments.models import Tournament

from .test_director_corrections import words
from .test_table_phone import at_table, deal, hands, link, page_of, play_out
from .test_table_phone_corrections import correction, send

pytestmark = pytest.mark.django_db

EW_THREE = {"makers": "EW", "tricks": 3}


def act(client, tournament, **form):
    return client.post(f"/secretary/tournaments/{tournament.pk}/act/", form)


def director_page(client, tournament) -> str:
    return page_of(client.get(f"/secretary/tournaments/{tournament.pk}/"))


def api_url(tournament, what: str) -> str:
    return f"/api/v1/clubs/{tournament.club.slug}/tournaments/{tournament.slug}/{what}/"


def test_ending_is_refused_naming_the_tables_still_playing(directing, round_one):
    page = director_page(directing, round_one)
    assert 'data-testid="end"' not in page  # not offered while round 1 is being played
    answer = act(directing, round_one, action="end", round="1")
    assert answer.status_code == 400
    assert (
        "Round 1 is still being played at tables 1, 2. The tournament is ended once every "
        "table of its latest round has its result."
    ) in words(answer)
    recording.hand_record(rubber_id=at_table(round_one).rubber_id, data=EW_THREE)
    for confirm in ("", "1"):  # neither the first tap nor the second ends it
        answer = act(directing, round_one, action="end", round="1", confirm=confirm)
        assert answer.status_code == 400
        assert "Round 1 is still being played at table 2. The tournament is ended" in words(answer)
    round_one.refresh_from_db()
    assert round_one.ended_after_round is None


def test_the_director_ends_it_in_two_steps_and_it_is_over_as_a_planned_one(
    client, directing, round_one
):
    play_out(round_one)
    page = director_page(directing, round_one)
    assert "End the tournament after round 1" in page and 'data-testid="seat"' in page
    assert 'data-testid="final"' not in page  # not over yet: another round may be seated

    asked = act(directing, round_one, action="end", round="1")  # the first tap asks
    assert asked.status_code == 200
    said = words(asked)
    assert "End the tournament after round 1? Taken back only with a reason" in said
    assert "Yes, end it after round 1" in said and "No, keep it open" in said
    round_one.refresh_from_db()
    assert round_one.ended_after_round is None

    ended = act(directing, round_one, action="end", round="1", confirm="1")
    assert ended.status_code == 200
    said = words(ended)
    assert (
        "The tournament is over after round 1: no further round is seated, and the tables' "
        "phones record nothing more. Each table of round 1 may still correct its last deal "
        "from its phone until you declare the results final (law 5, ruling E9)."
    ) in said
    assert "The tournament is over: its director ended it after round 1." in said
    assert "ended after round 1" in said  # the page's heading line
    page = page_of(ended)
    assert 'data-testid="seat"' not in page and 'data-testid="end"' not in page
    assert 'data-testid="final"' in page and 'data-testid="enter"' not in page
    round_one.refresh_from_db()
    assert round_one.ended_after_round == 1 and round_one.rounds_planned is None

    # No round 2, arrival or bye, at the page's buttons and the services alike.
    seat = act(directing, round_one, action="seat")
    assert seat.status_code == 400
    assert "The tournament has no round 2: its director ended it after round 1." in words(seat)
    enter = act(directing, round_one, action="enter", name="Zed")
    assert enter.status_code == 400
    assert "The tournament has no round 2 for Zed: its director ended it after round 1." in words(
        enter
    )
    ann = round_one.players.get(member__name="Ann")
    bye = act(directing, round_one, action="bye", member=str(ann.member_id))
    assert bye.status_code == 400
    assert "The tournament has no round 2 for Ann: its director ended it after round 1." in words(
        bye
    )
    assert round_one.rounds.count() == 1 and round_one.players.count() == 8
    again = act(directing, round_one, action="end", round="1", confirm="1")
    assert again.status_code == 400
    assert "The tournament was ended after round 1 already." in words(again)

    # The phones: a deal refused, the last deal still corrected until the results are final.
    table = at_table(round_one, number=2)
    token = link(round_one, 2).token
    over = (
        "The tournament is over: every table has played its last round, round 1, and this "
        "table's link records nothing more."
    )
    phone = page_of(client.get(f"/p/{token}/"))
    assert over in " ".join(phone.split()) and "round 1 of 1" in phone
    answer = client.post(
        f"/p/{token}/hand/", deal(expected_number="2", rubber=str(table.rubber_id))
    )
    assert answer.status_code == 409 and over in page_of(answer)
    assert len(hands(table)) == 1
    # The last round: who won it may change too, as at a planned tournament's last round.
    answer = send(client, round_one, correction(table, makers="NS", tricks="4"), number=2)
    assert answer.status_code == 200 and "Hand 1 corrected." in page_of(answer)
    assert rounds.round_as_dict(round_one.rounds.get(number=1))["tables"][1]["winner"] == "NS"

    final = act(directing, round_one, action="final")
    assert final.status_code == 200
    assert "The results are final: the tables' phones correct nothing more." in words(final)
    answer = send(client, round_one, correction(table, makers="EW", tricks="3"), number=2)
    assert answer.status_code == 409
    assert "its director declared the results final" in page_of(answer)
    assert [(h["makers"], h["tricks"]) for h in hands(table)] == [("NS", 4)]


def test_a_round_seated_since_the_page_was_read_is_not_ended(directing, round_one, director):
    play_out(round_one)
    asked = page_of(act(directing, round_one, action="end", round="1"))
    assert 'name="confirm"' in asked
    rounds.round_seat_next(tournament_id=round_one.pk, user=director)  # another tab
    answer = act(directing, round_one, action="end", round="1", confirm="1")
    assert answer.status_code == 400
    assert (
        "Round 2 is the latest seated, not round 1: nothing was ended. End the tournament "
        "after round 2 once it is played out."
    ) in words(answer)
    round_one.refresh_from_db()
    assert round_one.ended_after_round is None


def test_a_player_entered_for_the_round_never_played_is_named(directing, round_one):
    play_out(round_one)
    rounds.tournament_enter(tournament=round_one, name="Zed")
    ended = act(directing, round_one, action="end", round="1", confirm="1")
    assert "Entered for round 2, which is not played: Zed." in words(ended)


def test_a_tournament_whose_only_planned_round_is_played_has_nothing_to_end(directing, round_one):
    round_one.rounds_planned = 1
    round_one.save(update_fields=["rounds_planned"])
    play_out(round_one)
    page = director_page(directing, round_one)
    assert 'data-testid="end"' not in page
    answer = act(directing, round_one, action="end", round="1", confirm="1")
    assert answer.status_code == 400
    assert (
        "Round 1 is the only round planned: the tournament is over once it has been played "
        "out at every table, with nothing to end."
    ) in words(answer)
    round_one.refresh_from_db()
    assert round_one.ended_after_round is None


def test_a_tournament_with_rounds_planned_is_ended_before_its_last(directing, round_one):
    """Three rounds planned, and after round 1 too few players left, or the hall closing:
    it was refused ("it is over once round 3 has been played out at every table, and is
    not ended before"), so it could never be over, nor its results declared final."""
    round_one.rounds_planned = 3
    round_one.save(update_fields=["rounds_planned"])
    play_out(round_one)
    page = director_page(directing, round_one)
    assert "3 rounds were planned: every table of round 1 has its result" in page
    ended = act(directing, round_one, action="end", round="1", confirm="1")
    assert ended.status_code == 200
    assert "The tournament is over after round 1" in words(ended)
    round_one.refresh_from_db()
    assert (round_one.rounds_planned, round_one.ended_after_round) == (3, 1)
    assert round_one.last_round == 1
    said = words(act(directing, round_one, action="seat"))
    assert "The tournament has no round 2: its director ended it after round 1." in said
    page = director_page(directing, round_one)
    assert "3 rounds planned, ended after round 1" in page
    final = act(directing, round_one, action="final")
    assert final.status_code == 200
    round_one.refresh_from_db()
    assert round_one.results_final_at is not None


def test_the_database_refuses_a_tournament_ended_at_or_after_its_planned_last(round_one):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=round_one.pk).update(rounds_planned=2, ended_after_round=2)


def test_results_are_not_final_for_an_unplanned_tournament_not_ended(directing, round_one):
    play_out(round_one)
    answer = act(directing, round_one, action="final")
    assert answer.status_code == 400
    assert (
        "The results are declared final once the tournament's last round is played out, and "
        "this one has no number of rounds planned and has not been ended. End it after round "
        "1 first, once every table of it has its result."
    ) in words(answer)


# --- the API ---------------------------------------------------------------------------


def test_the_api_ends_it_and_declares_the_results_final(round_one, director):
    api = token_client(director)
    refused = api.post(api_url(round_one, "end"), {"round": 1}, format="json")
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert (error["field"], error["code"]) == ("action", "round_unfinished")
    assert error["message"].startswith("Round 1 is still being played at tables 1, 2.")
    final = api.post(api_url(round_one, "results-final"))
    assert final.status_code == 400 and final.json()["error"]["field"] == "action"
    assert "has not been ended" in final.json()["error"]["message"]

    play_out(round_one)
    stale = api.post(api_url(round_one, "end"), {"round": 2}, format="json")
    assert stale.status_code == 409
    assert (stale.json()["error"]["field"], stale.json()["error"]["code"]) == (
        "round",
        "stale_round",
    )
    digits = api.post(api_url(round_one, "end"), {"round": "\u0661"}, format="json")
    assert digits.status_code == 400 and digits.json()["error"]["field"] == "round"
    round_one.refresh_from_db()
    assert round_one.ended_after_round is None

    ended = api.post(api_url(round_one, "end"), {"round": 1}, format="json")
    assert ended.status_code == 200, ended.content
    assert ended.json()["ended_after_round"] == 1 and ended.json()["rounds_planned"] is None
    assert ended.json()["results_final_at"] is None
    again = api.post(api_url(round_one, "end"), {}, format="json")
    assert again.status_code == 400
    assert again.json()["error"]["message"] == "The tournament was ended after round 1 already."

    final = api.post(api_url(round_one, "results-final"))
    assert final.status_code == 200, final.content
    round_one.refresh_from_db()
    assert final.json()["results_final_at"] == round_one.results_final_at.isoformat().replace(
        "+00:00", "Z"
    )
    shown = api.get(api_url(round_one, "")[:-1]).json()
    assert shown["ended_after_round"] == 1


def test_the_api_names_a_level_table_and_ruling_p1(make, director):
    """Two deals a round, split one each: level after its deals (ruling P1)."""
    tournament = make("rotation", deals=2)
    rounds.round_seat_next(tournament_id=tournament.pk, user=director)
    play_out(tournament)  # table 1 and 2: E-W ahead after one deal
    for table in tournament.rounds.get(number=1).tables.all():
        recording.hand_record(rubber_id=table.rubber_id, data={"makers": "NS", "tricks": 3})
    answer = token_client(director).post(api_url(tournament, "end"), {}, format="json")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["law"] == "ruling P1"
    assert (
        "Level after its deals at 1, 2: one more deal at a time until one side is ahead "
        "(ruling P1)." in error["message"]
    )


def test_only_the_clubs_officers_end_it_or_declare_it_final(round_one, secretary, other_secretary):
    play_out(round_one)
    member = UserFactory(username="member")
    # A public club: seen by all, changed by its officers only (a private club's are 404:
    # tests/test_permissions.py).
    for user, status in ((other_secretary, 403), (member, 403)):
        api = token_client(user)
        assert api.post(api_url(round_one, "end"), {}, format="json").status_code == status
        assert api.post(api_url(round_one, "results-final")).status_code == status
    round_one.refresh_from_db()
    assert round_one.ended_after_round is None and round_one.results_final_at is None
    api = token_client(secretary)
    assert api.post(api_url(round_one, "end"), {}, format="json").status_code == 200
    assert api.post(api_url(round_one, "results-final")).status_code == 200


def test_the_public_standings_say_the_results_are_final(round_one, commit):
    """Printed for the wall after the results were declared final, the standings read as
    any evening's running standings, and the crowd's copy (kept by version) said nothing."""
    from django.test import Client

    client = Client()  # the crowd: nobody logged in
    round_one.rounds_planned = 1
    round_one.save(update_fields=["rounds_planned"])
    url = f"/clubs/{round_one.club.slug}/tournaments/{round_one.slug}/"
    play_out(round_one)
    before = client.get(url).content.decode()  # the crowd's copy of this version is kept
    assert 'data-testid="results-final"' not in before
    # Played out, it is over before its results are final: the page no longer says it
    # updates while play goes on (tests/tournaments/test_browser_standings_over.py).
    assert "<strong>The tournament is over</strong>: every table has played round 1" in before
    assert "The standings update by themselves while play goes on." not in before
    commit(rounds.tournament_results_final, tournament_id=round_one.pk)
    round_one.refresh_from_db()
    page = client.get(url).content.decode()
    said = f"<strong>Final results</strong>, declared {table_links.final_when(round_one)}."
    assert said in page
    assert "The standings update by themselves while play goes on." not in page
    room = client.get(f"{url}room/").content.decode()
    assert 'round 1 of 1 · <strong data-testid="room-final">final results</strong>' in room
