"""A hand meant for a rubber its table no longer has: the phone queued it for the rubber
it showed, and meanwhile the secretary undid the cut that began that rubber (its row is
taken back, club.evening_undo). Like a hand meant for a rubber that is over, it is
refused with a 409 in words, never recorded in the table's next rubber, at every door:
the service, the phone's page, the API's table and rubber endpoints."""

import datetime
from decimal import Decimal

import pytest
from django.test import Client
from rest_framework.test import APIClient

from club import evenings, recording
from club.evening_undo import evening_undo
from club.models import Table
from core.errors import Conflict
from scoring.models import Hand, Rubber

pytestmark = pytest.mark.django_db

SIX = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank"]
SIX_CARDS = {"Ann": "JS", "Bob": "AS", "Cora": "KS", "Dan": "QS", "Edith": "10S", "Frank": "9S"}
PARTNERS = {"Ann": "JH", "Bob": "AH", "Cora": "KH", "Dan": "QH"}
AGAIN = {"Ann": "AH", "Bob": "JH", "Cora": "KH", "Dan": "QH"}
HAND = {"makers": "NS", "tricks": 3}
GONE = (
    "This hand was entered for a rubber that table 1 no longer has: the secretary undid "
    "the cut that began it, so the hand was not recorded. Ask the secretary; "
)


def act(evening, **event):
    return evenings.evening_act(evening_id=evening.pk, event=event)


def partners_cut(club):
    """Table 1 of a Euchre evening: six arrived, the table cut (law 12) and its four cut
    for partners, so its first rubber has begun."""
    evening = evenings.evening_open(
        club=club, date=datetime.date(1888, 11, 21), ruleset="euchre-somerset-1888",
        stake=Decimal("0.25"),
    )  # fmt: skip
    for name in SIX:
        act(evening, type="arrive", player=name)
    act(evening, type="form_table")
    act(evening, type="cut", cards=SIX_CARDS)
    act(evening, type="cut", cards=PARTNERS)
    return evening


@pytest.fixture
def taken_back(club):
    """Table 1 of a Euchre evening: its four cut for partners, the rubber that began (the
    one the phone showed) was taken back by an undo of that cut; no rubber in play."""
    evening = partners_cut(club)
    rubber = Rubber.objects.get(evening=evening)
    evening_undo(evening_id=evening.pk, reason="the wrong pack")
    assert not Rubber.objects.filter(pk=rubber.pk).exists()
    evening.gone = rubber.pk
    evening.table = Table.objects.get(evening=evening, number=1)
    return evening


def cut_again(evening) -> Rubber:
    act(evening, type="cut", cards=AGAIN)
    return Rubber.objects.get(evening=evening)


@pytest.mark.parametrize("recut", [False, True], ids=["none-in-play", "new-rubber-in-play"])
def test_the_service_refuses_it_in_words_and_records_nothing(taken_back, recut):
    new = cut_again(taken_back) if recut else None
    with pytest.raises(Conflict) as refused:
        recording.hand_record(
            evening_id=taken_back.pk, table_number=1, data=HAND, table=taken_back.table,
            expected_number=1, meant_rubber=taken_back.gone,
        )  # fmt: skip
    error = refused.value
    assert (error.code, error.field, error.status_code) == ("rubber_gone", "rubber", 409)
    assert error.message == GONE + (
        "if the hand belongs to the rubber now in play, enter it again."
        if recut
        else "once the table has its new rubber, enter the hand again if it belongs to it."
    )
    assert not Hand.objects.exists()
    if new is not None:
        new.refresh_from_db()
        assert new.hand_count == 0 and new.status == Rubber.Status.IN_PROGRESS


def test_call_ace_a_deal_for_a_sitting_taken_back_says_so_in_its_words(club):
    evening = evenings.evening_open(
        club=club, date="1888-11-21", ruleset="call-ace-foster-1905", stake=Decimal("0.10")
    )
    for name in SIX[:5]:
        act(evening, type="arrive", player=name)
    act(evening, type="form_table")
    order = evening.__class__.objects.get(pk=evening.pk).state["tables"][0]["playing"]
    act(evening, type="deal_jack", table=1, cards=[[order[0], "9S"], [order[1], "JD"]])
    sitting = Rubber.objects.get(evening=evening)
    evening_undo(evening_id=evening.pk)
    with pytest.raises(Conflict) as refused:
        recording.hand_record(
            evening_id=evening.pk, table_number=1, meant_rubber=sitting.pk,
            data={"maker": order[0], "tricks": 3},
        )  # fmt: skip
    assert refused.value.code == "rubber_gone"
    assert refused.value.message.startswith(
        "This deal was entered for a sitting that table 1 no longer has: the secretary undid "
        "the first jack that began it, so the deal was not recorded."
    )
    assert not Rubber.objects.filter(evening=evening).exists()  # and none begun by it


def test_the_phones_page_refuses_it_with_the_form_as_typed_and_for_good(taken_back):
    """409 without Retry-After: the phone's queue (static/js/phone-queue.js) drops the
    hand and shows the refusal; sent again with its key, the same answer, kept."""
    new = cut_again(taken_back)
    url = f"/t/{taken_back.table.token}/hand/"
    form = {"makers": "NS", "tricks": "3", "expected_number": "1", "rubber": taken_back.gone}
    answer = Client().post(url, form, HTTP_HX_REQUEST="true", HTTP_IDEMPOTENCY_KEY="hand-q1")
    page = answer.content.decode()
    assert answer.status_code == 409 and not answer.has_header("Retry-After")
    assert "<strong>Not recorded.</strong> " + GONE in page
    assert 'data-field="rubber"' in page
    assert 'name="tricks" min="0" max="5" required inputmode="numeric" value="3"' in page
    assert f'name="rubber" value="{new.pk}"' in page  # the form now names the new rubber
    again = Client().post(url, form, HTTP_HX_REQUEST="true", HTTP_IDEMPOTENCY_KEY="hand-q1")
    assert again.status_code == 409 and again["Idempotent-Replayed"] == "true"
    assert not Hand.objects.exists()


def table_api(evening) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {evening.table.token}")
    return client


def test_the_tables_endpoint_takes_the_rubber_meant_and_refuses_one_taken_back(taken_back):
    new = cut_again(taken_back)
    url = f"/api/v1/clubs/somerset/evenings/{taken_back.pk}/tables/1/hands/"
    client = table_api(taken_back)
    refused = client.post(url, {"hand": HAND, "rubber": taken_back.gone}, format="json")
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert (error["code"], error["field"]) == ("rubber_gone", "rubber")
    assert error["message"].startswith(GONE)
    assert not Hand.objects.exists()
    # The rubber in play, named, takes it; once over, a hand meant for it is refused too.
    assert client.post(url, {"hand": HAND, "rubber": new.pk}, format="json").status_code == 201
    while new.status == Rubber.Status.IN_PROGRESS:
        recording.hand_record(evening_id=taken_back.pk, table_number=1, data=HAND)
        new.refresh_from_db()
    over = client.post(url, {"hand": HAND, "rubber": new.pk}, format="json")
    assert over.status_code == 409 and over.json()["error"]["code"] == "rubber_over"


def test_the_rubbers_endpoint_says_in_words_that_there_is_no_such_rubber(taken_back):
    url = f"/api/v1/clubs/somerset/rubbers/{taken_back.gone}/hands/"
    answer = table_api(taken_back).post(url, {"hand": HAND}, format="json")
    assert answer.status_code == 404
    error = answer.json()["error"]
    assert error["code"] == "not_found"
    assert error["message"] == (
        "This club has no such rubber (a rubber is taken back when the secretary undoes the "
        "cut that began it), so nothing was recorded or changed; ask the secretary which "
        "rubber the table plays now."
    )
    assert not Hand.objects.exists()
