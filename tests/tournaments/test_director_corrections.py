"""The director corrects any deal of a progressive from the table's sheet, as the club's
referee (law 5, ruling E9; tournaments.corrections): with a reason, the tournament over and
its results declared final or not, through the one recording service, so the standings
are recalculated, and the sheet says the round's result as it now is. A decided round
stays decided; a correction without a reason, or one the laws refuse, changes nothing and
comes back as typed. The director declares the results final once the last round is
played out, which ends what the tables' phones may correct."""

import html
import re

import pytest
from django.urls import reverse

from club import recording
from scoring.models import Hand, HandCorrection
from tests.factories import UserFactory
from tournaments import rounds
from tournaments.models import TournamentTotal

from .test_table_phone import at_table

pytestmark = pytest.mark.django_db

EW_THREE = {"makers": "EW", "tricks": 3}


def sheet_url(tournament, round_number=1, number=1) -> str:
    return f"/secretary/tournaments/{tournament.pk}/rounds/{round_number}/tables/{number}/"


def correct(client, tournament, round_number=1, number=1, **form):
    return client.post(
        sheet_url(tournament, round_number, number), {"change": "correct", **form}, follow=True
    )


def words(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def totals(tournament) -> dict[str, tuple[int, int]]:
    """Each player's (points, rounds won) as the last recalculation left them."""
    rows = TournamentTotal.objects.filter(tournament=tournament).select_related("member")
    return {row.member.name: (row.points, row.rounds_won) for row in rows}


@pytest.fixture
def two_deals(make, director):
    """A rotation progressive of two deals a round, round 1 seated: two tables."""
    tournament = make("rotation", deals=2)
    rounds.round_seat_next(tournament_id=tournament.pk, user=director)
    return tournament


@pytest.fixture
def finished(round_one, django_capture_on_commit_callbacks):
    """A progressive of one round (one deal a round), played out: table 1 won by E-W, then
    table 2's deal, the tournament's last (N-S three tricks), ended it; the standings
    recalculated after each, as after their commits."""
    round_one.rounds_planned = 1
    round_one.save(update_fields=["rounds_planned"])
    with django_capture_on_commit_callbacks(execute=True):
        recording.hand_record(rubber_id=at_table(round_one).rubber_id, data=EW_THREE)
    with django_capture_on_commit_callbacks(execute=True):
        recording.hand_record(
            rubber_id=at_table(round_one, number=2).rubber_id, data={"makers": "NS", "tricks": 3}
        )
    return round_one


def test_the_director_corrects_the_last_deal_after_the_results_are_final(
    directing, director, finished, django_capture_on_commit_callbacks
):
    director.first_name, director.last_name = "Dora", "Whist"
    director.save(update_fields=["first_name", "last_name"])
    seats = finished.rounds.get(number=1).seating["tables"][1]["seats"]
    north, east = seats["N"], seats["E"]
    assert totals(finished)[north] == (1, 1) and totals(finished)[east] == (0, 0)
    directing.post(f"/secretary/tournaments/{finished.pk}/act/", {"action": "final"})
    finished.refresh_from_db()
    assert finished.results_final_at is not None

    page = directing.get(sheet_url(finished, number=2)).content.decode()
    assert 'data-testid="correction-form"' in page  # the deal as recorded, to change
    assert 'value="NS" required checked' in page.split('data-testid="correction-form"')[1]
    with django_capture_on_commit_callbacks(execute=True):
        answer = correct(
            directing, finished, number=2, correct="1", makers="EW", tricks="4",
            reason="E-W made it; the table's phone had the sides the wrong way round",
        )  # fmt: skip
    assert answer.status_code == 200
    assert answer.redirect_chain[-1][0].endswith(f"{sheet_url(finished, number=2)}#corrections")
    said = words(answer)
    assert (
        f"Hand 1 corrected; the original stays beside it (ruling E9). Round 1 at table 2 is "
        f"now won by {east} & {seats['W']} (E-W), no longer by {north} & {seats['S']} (N-S). "
        "The standings are recalculated with it."
    ) in said
    assert f"Won by {east} & {seats['W']} (E-W)." in said  # the sheet's result
    # The sheet: the deal as corrected, the original beside it, who corrected it and why.
    assert "E-W make, 4 tricks" in said and "was N-S make, 3 tricks" in said
    assert "corrected by the club's referee (Dora Whist)" in said
    assert "“E-W made it; the table's phone had the sides the wrong way round”" in said
    hand = Hand.objects.get(rubber=at_table(finished, number=2).rubber)
    assert (hand.data["makers"], hand.data["tricks"]) == ("EW", 4)
    kept = HandCorrection.objects.get(hand=hand)
    assert kept.kind == HandCorrection.Kind.REFEREE and kept.by_user == director
    assert kept.reason.startswith("E-W made it") and kept.previous_data["makers"] == "NS"
    # The standings, recalculated through the outbox: the round is E-W's now.
    assert totals(finished)[north] == (0, 0) and totals(finished)[east] == (1, 1)


def test_a_correction_needs_a_reason_and_comes_back_as_typed(directing, finished):
    answer = correct(directing, finished, number=2, correct="1", makers="EW", tricks="4")
    assert answer.status_code == 400
    page = answer.content.decode()
    refusal = page[page.index('data-testid="correction-error"') :].split("</div>")[0]
    assert "Not corrected." in refusal
    assert "Say why the hand is changed: the reason is kept beside it (ruling E9)." in refusal
    form = page.split('data-testid="correction-form"')[1]
    assert 'value="EW" checked' in form and 'value="4"' in form  # as typed, not as recorded
    assert Hand.objects.get(rubber=at_table(finished, number=2).rubber).data["makers"] == "NS"
    assert not HandCorrection.objects.exists()

    answer = correct(
        directing, finished, number=2, correct="1", makers="EW", tricks="6", reason="misread"
    )
    assert answer.status_code == 400
    said = words(answer)
    assert (
        "Not corrected. In hand 1, the tricks taken by the makers: 6 is out of range: must be "
        "from 0 to 5 (law 2)"
    ) in said
    assert "misread</textarea>" in answer.content.decode()  # the reason kept too
    assert not HandCorrection.objects.exists()


def test_a_decided_round_stays_decided(directing, two_deals):
    """Two deals a round: N-S ahead after both. A correction leaving the sides level would
    want a deal more (ruling P1) from players who have moved on: refused, nothing kept."""
    table = at_table(two_deals)
    for deal in ({"makers": "NS", "tricks": 3}, {"makers": "NS", "tricks": 3}):
        recording.hand_record(rubber_id=table.rubber_id, data=deal)
    answer = correct(
        directing, two_deals, correct="2", makers="EW", tricks="3", reason="E-W made it"
    )
    assert answer.status_code == 400
    assert (
        "Not corrected. This correction of hand 2 would leave round 1 at table 1 undecided"
    ) in words(answer)
    assert "a decided round stays decided" in words(answer)
    assert [h.data["makers"] for h in Hand.objects.filter(rubber=table.rubber)] == ["NS", "NS"]
    assert not HandCorrection.objects.exists()


def test_an_earlier_round_corrected_after_the_next_was_seated(directing, round_one, director):
    table = at_table(round_one)
    for number in (1, 2):
        recording.hand_record(rubber_id=at_table(round_one, number=number).rubber_id, data=EW_THREE)
    rounds.round_seat_next(tournament_id=round_one.pk, user=director)
    answer = correct(
        directing, round_one, correct="1", makers="NS", tricks="3", reason="sides swapped"
    )
    assert answer.status_code == 200
    said = words(answer)
    assert "Round 1 at table 1 is now won by" in said
    assert (
        "The rounds after round 1 were seated from its result as it was, and stand as seated."
    ) in said
    assert Hand.objects.get(rubber=table.rubber).data["makers"] == "NS"
    assert round_one.rounds.count() == 2  # round 2 stands as seated


def test_only_the_clubs_directors_and_secretaries_correct(client, finished):
    client.force_login(UserFactory(username="passer-by"))
    answer = client.post(
        sheet_url(finished), {"change": "correct", "correct": "1", "makers": "NS",
                              "tricks": "3", "reason": "mine"},
    )  # fmt: skip
    assert answer.status_code == 404
    assert not HandCorrection.objects.exists()


# --- the results declared final ----------------------------------------------------------


def test_the_results_are_declared_final_once_the_last_round_is_played_out(directing, round_one):
    round_one.rounds_planned = 1
    round_one.save(update_fields=["rounds_planned"])
    act = f"/secretary/tournaments/{round_one.pk}/act/"
    recording.hand_record(rubber_id=at_table(round_one).rubber_id, data=EW_THREE)
    page = directing.get(f"/secretary/tournaments/{round_one.pk}/").content.decode()
    assert 'data-testid="final"' not in page  # table 2 still plays
    answer = directing.post(act, {"action": "final"})
    assert answer.status_code == 400
    assert (
        "Round 1, the last, is still being played at table 2: the results are declared final "
        "once every table has its result."
    ) in words(answer)
    round_one.refresh_from_db()
    assert round_one.results_final_at is None

    recording.hand_record(rubber_id=at_table(round_one, number=2).rubber_id, data=EW_THREE)
    page = directing.get(f"/secretary/tournaments/{round_one.pk}/").content.decode()
    assert 'data-testid="final"' in page
    assert "each table of the last round may still correct its last deal from its phone" in page
    answer = directing.post(act, {"action": "final"})
    assert answer.status_code == 200
    assert "The results are final: the tables' phones correct nothing more." in words(answer)
    assert "The results were declared final at " in words(answer)
    assert 'data-testid="final"' not in answer.content.decode()
    again = directing.post(act, {"action": "final"})
    assert again.status_code == 400
    assert "The results were declared final already, at " in words(again)
    shown = directing.get(f"/api/v1/clubs/somerset/tournaments/{round_one.slug}/").json()
    round_one.refresh_from_db()
    assert shown["results_final_at"] == round_one.results_final_at.isoformat().replace(
        "+00:00", "Z"
    )


@pytest.mark.parametrize(("planned", "said"), [
    (None, "The results are declared final once the tournament's last round is played out, "
           "and this one has no number of rounds planned and has not been ended. End it after "
           "round 1 first, once every table of it has its result."),
    (2, "The tournament has 2 rounds and round 1 is seated so far: the results are declared "
        "final once the last has been played out."),
])  # fmt: skip
def test_results_are_not_final_before_the_planned_rounds_are_played(
    directing, round_one, planned, said
):
    round_one.rounds_planned = planned
    round_one.save(update_fields=["rounds_planned"])
    for number in (1, 2):
        recording.hand_record(rubber_id=at_table(round_one, number=number).rubber_id, data=EW_THREE)
    answer = directing.post(f"/secretary/tournaments/{round_one.pk}/act/", {"action": "final"})
    assert answer.status_code == 400 and said in words(answer)
    round_one.refresh_from_db()
    assert round_one.results_final_at is None


def test_a_director_without_a_full_name_is_named_the_clubs_referee_to_the_public(
    client, directing, director, finished, django_capture_on_commit_callbacks
):
    """The public rubber page names a corrector by his full name or his role, never his
    login name (docs/security.md). A director is no secretary: without a full name he is
    the club's referee (ruling E9; scoring.selectors.REFEREE), as a secretary and the
    site's staff are, never "the secretary"."""
    director.username = "dora-login-x9"
    director.save(update_fields=["username"])
    directing.post(f"/secretary/tournaments/{finished.pk}/act/", {"action": "final"})
    with django_capture_on_commit_callbacks(execute=True):
        answer = correct(
            directing, finished, number=2, correct="1", makers="EW", tricks="4",
            reason="E-W made it",
        )  # fmt: skip
    assert answer.status_code == 200
    rubber = at_table(finished, number=2).rubber
    assert HandCorrection.objects.get(hand__rubber=rubber).by_user == director
    directing.logout()
    page = client.get(reverse("rubber-detail", kwargs={"slug": rubber.club.slug, "pk": rubber.pk}))
    assert page.status_code == 200
    said = words(page)
    assert "corrected by the club's referee, " in said
    assert "secretary" not in said
    assert "dora-login-x9" not in page.content.decode()
    api = client.get(f"/api/v1/clubs/{rubber.club.slug}/rubbers/{rubber.pk}/").json()
    [correction] = [c for hand in api["hands"] for c in hand["corrections"]]
    assert correction["by"] == "the club's referee"
