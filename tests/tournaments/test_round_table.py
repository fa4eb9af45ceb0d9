"""A progressive round's table scored from the director's pages: the table's sheet and the
form for its next hand, through the one recording service (club.recording), for the
club's secretaries and tournament directors only. A second entry of the same hand is
refused in words (the form's `expected_number`), a bad hand is refused with its law, and
nothing is written by either."""

import html

import pytest

from scoring.models import Hand
from tests.factories import UserFactory
from tournaments import rounds
from tournaments.models import StandingsDirty


def url(tournament, round_number=1, number=1):
    return f"/secretary/tournaments/{tournament.pk}/rounds/{round_number}/tables/{number}/"


def table_rubber(tournament, number=1):
    return tournament.rounds.get(number=1).tables.get(number=number).rubber


def test_the_directors_page_links_each_table_to_its_sheet(directing, round_one):
    page = directing.get(f"/secretary/tournaments/{round_one.pk}/").content.decode()
    assert f'href="{url(round_one, 1, 1)}"' in page
    assert f'href="{url(round_one, 1, 2)}"' in page
    assert "Each table's sheet, to enter its deals" in page


def test_the_table_page_shows_who_sits_where_and_the_next_deal(directing, round_one):
    played = round_one.rounds.get(number=1).seating["tables"][0]["seats"]
    page = directing.get(url(round_one)).content.decode()
    assert f"{played['N']} &amp; {played['S']}" in page
    assert f"{played['E']} &amp; {played['W']}" in page
    assert "Hand <span data-next-label>1</span>" in page
    assert 'name="expected_number" value="1"' in page


def test_a_director_records_the_deal_and_the_table_is_won(directing, round_one):
    rubber = table_rubber(round_one)
    answer = directing.post(
        url(round_one), {"makers": "NS", "tricks": "3", "expected_number": "1"}, follow=True
    )
    assert answer.status_code == 200
    page = answer.content.decode()
    assert "Hand 1 recorded." in page
    assert "law 2: N-S make, three tricks: 1" in page  # the hand's own line, in words
    rubber.refresh_from_db()
    assert rubber.hand_count == 1
    # One deal a round: the deal ends the table, won by the side ahead (tournaments.rounds).
    assert rounds.round_as_dict(round_one.rounds.get(number=1))["tables"][0]["winner"] == "NS"
    assert Hand.objects.get(rubber=rubber).recorded_by.username == "director"
    assert 'data-testid="table-over"' in page
    assert "Won by " in page
    assert 'name="expected_number"' not in page  # nothing more to record here
    # The standings heard of it in the hand's transaction (tournaments.receivers' outbox;
    # the test's transaction is never committed, so no worker has taken it yet).
    assert StandingsDirty.objects.filter(tournament=round_one).count() == 4


def test_the_same_deal_sent_twice_is_recorded_once(directing, round_one):
    form = {"makers": "NS", "tricks": "3", "expected_number": "1"}
    assert directing.post(url(round_one), form).status_code == 302
    again = directing.post(url(round_one), {**form, "makers": "EW"})
    assert again.status_code == 409
    page = html.unescape(again.content.decode())
    assert "Hand 1 is already recorded at this table" in page
    # The deal ended the table: the refusal offers no next deal to send (ruling P1).
    assert "the round's deals are played and one side is ahead (ruling P1)" in page
    assert "the next is" not in page
    assert "Not recorded." in page
    assert Hand.objects.filter(rubber=table_rubber(round_one)).count() == 1


def test_a_deal_sent_again_with_its_idempotency_key_is_answered_from_the_first(
    directing, round_one
):
    """The page's queue (static/js/phone-queue.js) sends each deal with an Idempotency-Key:
    a retry whose first answer was lost gets that answer again, not a refusal."""
    form = {"makers": "NS", "tricks": "3", "expected_number": "1"}
    first = directing.post(url(round_one), form, HTTP_IDEMPOTENCY_KEY="deal-1", HTTP_HX_REQUEST="1")
    again = directing.post(url(round_one), form, HTTP_IDEMPOTENCY_KEY="deal-1", HTTP_HX_REQUEST="1")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.content == first.content
    assert Hand.objects.filter(rubber=table_rubber(round_one)).count() == 1


def test_a_bad_deal_is_refused_with_its_law_and_the_form_as_typed(directing, round_one):
    answer = directing.post(url(round_one), {"makers": "EW", "tricks": "6", "expected_number": "1"})
    assert answer.status_code == 400
    page = answer.content.decode()
    assert "Not recorded." in page
    assert "law 2" in page
    assert 'value="EW" checked' in page  # what was typed comes back
    assert Hand.objects.filter(rubber=table_rubber(round_one)).count() == 0


def test_a_secretary_scores_a_table_too_and_is_offered_the_corrections(
    client, secretary, round_one
):
    client.force_login(secretary)
    assert (
        client.post(
            url(round_one), {"makers": "NS", "tricks": "5", "expected_number": "1"}
        ).status_code
        == 302
    )
    page = client.get(url(round_one)).content.decode()
    assert 'data-testid="correction-form"' in page  # the sheet's own, as the director's
    assert "Take off the last hand</a> (the secretary, on the rubber's page)" in page


def test_a_director_corrects_on_the_sheet_not_on_the_secretarys_page(directing, round_one):
    directing.post(url(round_one), {"makers": "NS", "tricks": "5", "expected_number": "1"})
    page = directing.get(url(round_one)).content.decode()
    assert 'data-testid="correction-form"' in page
    assert "Take off the last hand" not in page


@pytest.mark.parametrize("where", [(2, 1), (1, 3)])
def test_a_table_or_round_not_round_one_is_not_found(directing, round_one, where):
    assert directing.get(url(round_one, *where)).status_code == 404


def test_only_the_clubs_secretaries_and_directors_score_a_table(client, round_one):
    client.force_login(UserFactory(username="passer-by"))
    assert client.get(url(round_one)).status_code == 404
    assert client.post(url(round_one), {"makers": "NS", "tricks": "3"}).status_code == 404
    client.logout()
    answer = client.post(url(round_one), {"makers": "NS", "tricks": "3"})
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    assert Hand.objects.count() == 0


# --- the API's rubber door, for the same directors -----------------------------------------


def api_post(user, rubber, number=1):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(user)
    return client.post(
        f"/api/v1/clubs/somerset/rubbers/{rubber.pk}/hands/",
        {"hand": {"makers": "EW", "tricks": 4}, "expected_number": number},
        format="json",
    )


def test_a_director_records_at_a_round_table_through_the_api_too(director, round_one):
    rubber = table_rubber(round_one, 2)
    answer = api_post(director, rubber)
    assert answer.status_code == 201, answer.content
    assert Hand.objects.get(rubber=rubber).data["makers"] == "EW"


def test_a_director_is_refused_at_a_rubber_of_no_tournament(director, club, roster, evening):
    from club.models import Table
    from scoring import services as scoring

    table = Table.objects.create(club=club, evening=evening, number=1)
    rubber = scoring.rubber_start(
        club=club, evening=evening, table=table, ruleset="euchre-somerset-1888",
        players={"NS": ["Ann", "Bob"], "EW": ["Cora", "Dan"]},
    )  # fmt: skip
    answer = api_post(director, rubber)
    assert answer.status_code == 403
    assert "only at his tournaments' tables" in answer.json()["error"]["message"]
    assert not Hand.objects.filter(rubber=rubber).exists()


def test_someone_neither_secretary_nor_director_is_refused_at_a_round_table(round_one):
    answer = api_post(UserFactory(username="passer-by"), table_rubber(round_one))
    assert answer.status_code == 403  # the club is public: seen, not written to
    assert answer.json()["error"]["message"] == (
        "Only the club's secretary or the table may record hands."
    )
    assert Hand.objects.count() == 0


def test_the_clubs_page_shows_a_decided_table_no_more_in_play(client, directing, round_one):
    decided, playing = table_rubber(round_one, 1), table_rubber(round_one, 2)
    directing.post(url(round_one), {"makers": "NS", "tricks": "3", "expected_number": "1"})
    page = client.get("/clubs/somerset/").content.decode()
    assert f"/clubs/somerset/rubbers/{playing.pk}/" in page
    # Its one deal decided the round (ruling P1): its rubber is unfinished, not in play.
    assert f"/clubs/somerset/rubbers/{decided.pk}/" not in page
    assert "euchre-somerset-1888" not in page  # the game in words, never its key


def test_a_megabyte_typed_comes_back_cut_to_what_the_api_repeats(directing, round_one):
    from tests.test_form_echo import BIG, shown_cut

    answer = directing.post(url(round_one), {"makers": "NS", "tricks": BIG, "expected_number": "1"})
    assert answer.status_code == 400
    assert "Not recorded." in shown_cut(answer, "the tricks taken")
    assert Hand.objects.filter(rubber=table_rubber(round_one)).count() == 0


def test_a_decided_rounds_sheet_says_it_is_over_on_its_public_page_too(
    client, directing, round_one
):
    rubber = table_rubber(round_one)
    assert rubber.round_decided() is False
    directing.post(url(round_one), {"makers": "NS", "tricks": "3", "expected_number": "1"})
    rubber.refresh_from_db()
    assert rubber.round_decided() is True and rubber.status == "in_progress"
    page = html.unescape(client.get(f"/clubs/somerset/rubbers/{rubber.pk}/").content.decode())
    winners = " & ".join(rubber.players["NS"])
    assert f"Round to {winners} (N-S), 1 point to 0, after its one deal (ruling P1)." in page
    assert "In progress." not in page and "Total 0 0" not in page


def test_a_deal_after_a_decided_round_of_one_deal_is_refused_in_the_singular(round_one):
    """The scoring service's own refusal (ruling P1), which a backup's import and any door
    that skips the table's checks meet: a round of one deal says 'its one deal', not '1
    deals'."""
    from scoring import services as scoring
    from scoring.rules import ScoringError

    rubber = table_rubber(round_one)
    scoring.rubber_record_hand(rubber=rubber, data={"makers": "NS", "tricks": 3})
    rubber.refresh_from_db()
    with pytest.raises(ScoringError) as refused:
        scoring.rubber_record_hand(rubber=rubber, data={"makers": "EW", "tricks": 3})
    assert str(refused.value.message).startswith(
        "the round is over: its one deal has been played and one side is ahead"
    )
    assert refused.value.law == "ruling P1"
    assert Hand.objects.filter(rubber=rubber).count() == 1
