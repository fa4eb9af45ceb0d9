"""No doubled hand (issue #14 item 2): a device says which number it means the hand to
have; a second hand meant as the same number is refused with 409 naming the hand already
recorded, by the one service (club.recording.hand_record) whatever the door."""

import threading

import pytest
from django.db import connections
from django.test import Client
from rest_framework.test import APIClient

from club import evenings, recording
from club.models import Evening
from core.errors import Conflict
from scoring.models import Hand, Rubber
from tests.worlds import bridge_and_call_ace_in_play

pytestmark = pytest.mark.django_db(transaction=True)


def phone(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {token}")
    return client


def test_a_second_hand_meant_as_the_same_number_is_refused_naming_the_first(played):
    recording.hand_record(
        evening_id=played.evening.pk, table_number=1, data={"makers": "EW", "tricks": 5},
        expected_number=2,
    )  # fmt: skip
    with pytest.raises(Conflict) as refused:
        recording.hand_record(
            evening_id=played.evening.pk, table_number=1, data={"makers": "NS", "tricks": 4},
            expected_number=2,
        )  # fmt: skip
    assert refused.value.code == "hand_already_recorded"
    assert refused.value.field == "expected_number"
    assert "Hand 2 is already recorded" in refused.value.message
    assert "the next is hand 3" in refused.value.message
    assert refused.value.details["hand"]["makers"] == "EW"
    assert list(Hand.objects.filter(rubber=played.rubber).values_list("number", flat=True)) == [
        1,
        2,
    ]


def test_a_hand_sent_again_once_the_rubber_is_over_offers_no_next_hand(club):
    from scoring import services as scoring
    from tests.factories import MemberFactory

    for name in ("Ann", "Bob", "Cora", "Dan"):
        MemberFactory(club=club, name=name)

    rubber = scoring.rubber_start(
        club=club, ruleset="euchre-somerset-1888",
        players={"NS": ["Ann", "Bob"], "EW": ["Cora", "Dan"]},
    )  # fmt: skip
    # Two games of march, march, three tricks and the third game likewise (ruling E1).
    for number, tricks in enumerate([5, 5, 3] * 3, start=1):
        recording.hand_record(
            rubber_id=rubber.pk, data={"makers": "NS", "tricks": tricks}, expected_number=number
        )
    rubber.refresh_from_db()
    assert rubber.is_complete
    with pytest.raises(Conflict) as refused:
        recording.hand_record(
            rubber_id=rubber.pk, data={"makers": "NS", "tricks": 3}, expected_number=9
        )
    assert refused.value.code == "hand_already_recorded"
    assert "Hand 9 is already recorded" in refused.value.message
    assert refused.value.message.endswith("the rubber is over: no hand follows it.")
    assert Hand.objects.filter(rubber=rubber).count() == 9


def test_a_number_past_the_next_is_refused_too(played):
    with pytest.raises(Conflict) as refused:
        recording.hand_record(
            evening_id=played.evening.pk, table_number=1, data={"makers": "NS", "tricks": 3},
            expected_number=5,
        )  # fmt: skip
    assert refused.value.code == "hand_number_ahead"
    assert Hand.objects.filter(rubber=played.rubber).count() == 1


def test_a_number_past_the_next_is_refused_in_the_games_own_words(played):
    """A Call-Ace sitting of one deal (ruling C5: a sitting, its deals) is counted as
    the sheet has it: '1 deal', never '1 deals' nor 'This rubber'."""
    table = bridge_and_call_ace_in_play(played.club).call_ace
    sitting = table.evening.rubbers.get()
    with pytest.raises(Conflict) as refused:
        recording.hand_record(
            evening_id=table.evening_id, table_number=1, expected_number=4,
            data={"maker": sitting.players[0], "tricks": 3},
        )  # fmt: skip
    assert refused.value.message == (
        "This sitting has 1 deal recorded, so the next is deal 2, not 4; look at the sheet "
        "as it is now."
    )


def test_two_requests_racing_for_the_same_number_store_one_hand(played, postgres):
    """The rubber's row lock orders them; the second sees the first's hand."""
    outcomes = []

    def record(makers):
        try:
            recording.hand_record(
                evening_id=played.evening.pk, table_number=1,
                data={"makers": makers, "tricks": 3}, expected_number=2,
            )  # fmt: skip
            outcomes.append("recorded")
        except Conflict as exc:
            outcomes.append(exc.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=record, args=(side,)) for side in ("NS", "EW")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["hand_already_recorded", "recorded"]
    assert Hand.objects.filter(rubber=played.rubber).count() == 2


def test_the_evenings_table_endpoint_takes_the_expected_number(played):
    url = f"/api/v1/clubs/somerset/evenings/{played.evening.pk}/tables/1/hands/"
    client = phone(played.table.token)
    hand = {"hand": {"makers": "NS", "tricks": 3}, "expected_number": 2}
    assert client.post(url, hand, format="json").status_code == 201
    again = client.post(url, hand, format="json")
    assert again.status_code == 409
    error = again.json()["error"]
    assert error["code"] == "hand_already_recorded"
    assert error["field"] == "expected_number"
    assert "Hand 2 is already recorded" in error["message"]
    # Without it, as before: the next hand.
    assert client.post(url, {"hand": hand["hand"]}, format="json").status_code == 201
    assert Hand.objects.filter(rubber=played.rubber).count() == 3


def test_the_rubbers_endpoint_takes_it_as_a_query_parameter(played):
    url = f"/api/v1/clubs/somerset/rubbers/{played.rubber.pk}/hands/"
    client = phone(played.table.token)
    hand = {"makers": "EW", "tricks": 4}
    assert client.post(f"{url}?expected_number=2", hand, format="json").status_code == 201
    again = client.post(f"{url}?expected_number=2", hand, format="json")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "hand_already_recorded"
    bad = client.post(f"{url}?expected_number=two", hand, format="json")
    assert bad.status_code == 400
    assert Hand.objects.filter(rubber=played.rubber).count() == 2


def test_the_phone_page_shows_the_refusal(played):
    url = f"/t/{played.table.token}/hand/"
    form = {"makers": "NS", "tricks": "3", "expected_number": "2"}
    first = Client().post(url, form, HTTP_HX_REQUEST="true")
    assert first.status_code == 200
    second = Client().post(url, form, HTTP_HX_REQUEST="true")
    assert second.status_code == 409
    page = second.content.decode()
    assert "Hand 2 is already recorded" in page
    assert 'id="table-live"' in page  # the whole live part, heading and form included
    assert Hand.objects.filter(rubber=played.rubber).count() == 2


def won(evening) -> None:
    """N-S march at table 1 until its rubber is over."""
    rubber = evening.rubbers.get(status=Rubber.Status.IN_PROGRESS)
    while rubber.status == Rubber.Status.IN_PROGRESS:
        recording.hand_record(
            evening_id=evening.pk, table_number=1, data={"makers": "NS", "tricks": 5}
        )
        rubber.refresh_from_db()


@pytest.mark.parametrize("cut_again", [False, True], ids=["before-the-cut", "next-in-play"])
def test_a_hand_meant_for_a_rubber_that_is_over_is_refused(played, cut_again):
    """The phone names the rubber a hand was entered for (`meant_rubber`); the service
    locks that rubber and refuses the hand once it is over, whether the table has cut for
    the next rubber yet or not: never recorded in the next."""
    hand = {"makers": "EW", "tricks": 3}
    recorded = recording.hand_record(
        evening_id=played.evening.pk, table_number=1, data=hand, meant_rubber=played.rubber.pk
    )
    assert recorded.rubber_id == played.rubber.pk and recorded.number == 2
    won(played.evening)
    while cut_again and evenings.evening_state(Evening.objects.get(pk=played.evening.pk)).pending:
        evenings.evening_act(evening_id=played.evening.pk, event={"type": "cut", "draw": True})
    before = Hand.objects.count()
    with pytest.raises(Conflict) as refused:
        recording.hand_record(
            evening_id=played.evening.pk, table_number=1, data=hand,
            meant_rubber=played.rubber.pk, table=played.table,
        )  # fmt: skip
    assert refused.value.code == "rubber_over" and refused.value.field == "rubber"
    assert refused.value.message.startswith(
        "This hand was entered for the rubber before this one, which is over"
    )
    assert Hand.objects.count() == before
    assert played.evening.rubbers.count() == (2 if cut_again else 1)


def test_a_hand_meant_for_a_closed_sitting_starts_no_new_one(club):
    """Call-Ace: the same players sit on in a new sitting when a hand comes after one is
    closed; a hand entered for the closed sitting is refused and starts none."""
    table = bridge_and_call_ace_in_play(club).call_ace
    sitting = table.evening.rubbers.get()
    evenings.evening_close_sitting(evening_id=table.evening_id, table_number=1)
    with pytest.raises(Conflict) as refused:
        recording.hand_record(
            evening_id=table.evening_id, table_number=1, table=table, meant_rubber=sitting.pk,
            data={"maker": sitting.players[0], "tricks": 3},
        )  # fmt: skip
    assert refused.value.code == "rubber_over"
    assert "entered for the sitting before this one" in refused.value.message
    assert list(table.evening.rubbers.values_list("pk", flat=True)) == [sitting.pk]
