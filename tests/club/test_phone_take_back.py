"""The phone at an evening's table takes back the last hand it recorded, one recorded by
mistake (law 5, ruling E9; club.recording.hand_remove): in two taps, the hand named by
its number and by when it was recorded; the sheet, the score and the game as they were
before it; the evening's history saying so. Refused in words, nothing taken off: a hand
no longer the last (the other phone recorded after it), one taken back already (a retry
without its Idempotency-Key), one taken back and entered again since, the hand that won
the rubber (law 15), a closed Call-Ace sitting's (ruling C5). A retry with its
Idempotency-Key is answered from the first."""

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from club import evenings, recording
from club.models import EveningEvent
from scoring.models import Game, Hand, RemovedHand, Rubber
from tests.worlds import bridge_and_call_ace_in_play

pytestmark = pytest.mark.django_db

MARCH = {"makers": "NS", "tricks": "5"}


def post(played, form: dict, **headers):
    """A form sent from table 1's phone as its queue sends it (htmx)."""
    return Client().post(f"/t/{played.table.token}/hand/", form, HTTP_HX_REQUEST="true", **headers)


def page_of(response) -> str:
    return html.unescape(response.content.decode())


def take_back_form(page: str) -> dict:
    """The take-back the page offers, as its "Yes, take back hand N" button sends it."""
    form = page[page.index('data-kind="take_back"') :].split("</form>", 1)[0]
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form))
    return {**fields, "reason": ""}


def shown(response) -> str:
    """The refusal as a person reads it."""
    page = response.content.decode()
    alert = page[page.index('data-testid="phone-error"') :].split(">", 1)[1].split("</div>")[0]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", alert)).split())


def tricks(played) -> list[int]:
    """The tricks of each hand on the sheet, in order."""
    return list(
        Hand.objects.filter(rubber=played.rubber)
        .order_by("number")
        .values_list("tricks", flat=True)
    )


def recorded(played, hand: dict, number: int) -> str:
    """Hand `number` recorded from the phone; its answer's page."""
    answer = post(played, {**hand, "expected_number": str(number), "rubber": played.rubber.pk})
    assert answer.status_code == 200, shown(answer)
    return page_of(answer)


def test_the_last_hand_taken_back_leaves_the_sheet_as_before_it(played, client):
    before = Rubber.objects.get(pk=played.rubber.pk).summary
    page = recorded(played, {"makers": "EW", "tricks": "4"}, 2)
    # Beside "Correct hand 2": "Take back hand 2", a second step ("Yes, ...") inside it.
    assert "<summary>Correct hand 2</summary>" in page
    assert "<summary>Take back hand 2</summary>" in page
    form = take_back_form(page)
    assert form["take_back"] == "2" and form["rubber"] == str(played.rubber.pk)
    hand = Hand.objects.get(rubber=played.rubber, number=2)
    assert form["recorded_at"] == hand.recorded_at.isoformat()
    assert "Yes, take back hand 2" in page

    answer = post(played, {**form, "reason": "entered twice"})
    assert answer.status_code == 200
    page = page_of(answer)
    assert (
        "Hand 2 taken back: it is off the sheet and the score is as it was before it; it "
        "stays on record as taken back (ruling E9)."
    ) in page
    rubber = Rubber.objects.get(pk=played.rubber.pk)
    assert rubber.hand_count == 1 and rubber.summary == before
    assert tricks(played) == [3]
    assert "E-W make, four tricks" not in page  # the sheet without it
    assert "Hand <span data-next-label>2</span>" in page  # hand 2 is to come again
    # Hand 1 is the last again, but hand 2 was recorded after it: the table may change it
    # no more (ruling E9), and the phone says so instead of offering it.
    assert "<summary>Take back hand 1</summary>" not in page
    assert "<summary>Correct hand 1</summary>" not in page
    assert (
        "Hand 1 can no longer be changed at the table: a later hand was recorded after it "
        "(and taken back since). Only the secretary may change it now, with a reason "
        "(ruling E9)."
    ) in page
    removed = RemovedHand.objects.get()
    assert (removed.number, removed.reason, removed.at_table) == (2, "entered twice", True)
    assert (removed.data["makers"], removed.data["tricks"]) == ("EW", 4)
    logged = EveningEvent.objects.filter(evening=played.evening).order_by("-seq").first()
    assert logged.type == "hand_removed" and logged.by_table == played.table
    assert logged.data["number"] == 2 and logged.data["reason"] == "entered twice"
    # The board's history: what, who, why.
    client.force_login(played.secretary)
    board = html.unescape(
        client.get(reverse("evening-board", args=[played.evening.pk])).content.decode()
    )
    assert "Hand 2 of rubber 1 at table 1 is taken off" in board
    assert "table 1's phone" in board and "why: “entered twice”" in board


def test_a_take_back_sent_without_javascript_answers_the_whole_page(played):
    page = recorded(played, {"makers": "EW", "tricks": "4"}, 2)
    answer = Client().post(f"/t/{played.table.token}/hand/", take_back_form(page))
    assert answer.status_code == 200
    assert "<!doctype html>" in answer.content.decode().lower()
    assert "Hand 2 taken back" in page_of(answer)
    assert tricks(played) == [3]


def test_a_hand_that_won_a_game_taken_back_leaves_the_game_unwon(played):
    recorded(played, MARCH, 2)  # N-S 3
    page = recorded(played, MARCH, 3)  # N-S 5: the first game won (law 1)
    rubber = Rubber.objects.get(pk=played.rubber.pk)
    assert len(rubber.summary["games"]) == 1 and Game.objects.filter(rubber=rubber).count() == 1
    answer = post(played, take_back_form(page))
    assert answer.status_code == 200
    rubber.refresh_from_db()
    assert rubber.hand_count == 2 and rubber.summary["games"] == []
    assert not Game.objects.filter(rubber=rubber).exists()
    assert rubber.status == Rubber.Status.IN_PROGRESS


def test_after_the_other_phone_records_the_next_hand_the_take_back_is_refused(played):
    page = recorded(played, {"makers": "EW", "tricks": "4"}, 2)
    form = take_back_form(page)
    # The other phone at the table records hand 3 meanwhile.
    recording.hand_record(
        evening_id=played.evening.pk, table_number=1, data={"makers": "NS", "tricks": 3}
    )
    answer = post(played, form)
    assert answer.status_code == 409  # a conflict, as the API answers it
    assert shown(answer) == (
        "Not taken back. Hand 2 was not taken back: hand 3 has been recorded at this table "
        "since (law 2: N-S make, three tricks: 1), and only the last hand is taken back. "
        "Hand 2 may now be changed only by the secretary, as the club's referee. (law 5, "
        "ruling E9)"
    )
    assert tricks(played) == [3, 4, 3]
    assert not RemovedHand.objects.exists()
    page = page_of(answer)  # the table as it is: hand 3 the last, its take-back closed
    assert "<summary>Take back hand 3</summary>" in page
    assert '<details class="panel take-back" data-testid="take-back">' in page


def test_a_hand_not_on_the_sheet_is_not_taken_back(played):
    form = take_back_form(recorded(played, {"makers": "EW", "tricks": "4"}, 2))
    answer = post(played, {**form, "take_back": "5"})
    assert answer.status_code == 409
    assert shown(answer) == (
        "Not taken back. The rubber has 2 hands recorded: there is no hand 5 to take back; "
        "look at the sheet as it is now."
    )
    assert tricks(played) == [3, 4]


def test_a_take_back_sent_again_with_its_key_is_made_once_and_without_it_refused(played):
    form = take_back_form(recorded(played, {"makers": "EW", "tricks": "4"}, 2))
    first = post(played, form, HTTP_IDEMPOTENCY_KEY="take-back-2")
    again = post(played, form, HTTP_IDEMPOTENCY_KEY="take-back-2")
    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true" and again.content == first.content
    assert tricks(played) == [3]  # hand 1 stays: never two hands taken back
    # The same take-back sent again without its key (a second tap after the first went
    # out, say): hand 2 is gone, and hand 1 is not taken in its stead.
    answer = post(played, form, HTTP_IDEMPOTENCY_KEY="take-back-2-again")
    assert answer.status_code == 409
    assert shown(answer) == (
        "Not taken back. Hand 2 was taken back already: the rubber has 1 hand now, so "
        "nothing more was taken back."
    )
    assert tricks(played) == [3] and RemovedHand.objects.count() == 1


def test_a_hand_taken_back_and_entered_again_is_not_taken_back_by_the_first_take_back(played):
    form = take_back_form(recorded(played, {"makers": "EW", "tricks": "4"}, 2))
    assert post(played, form).status_code == 200
    recorded(played, {"makers": "EW", "tricks": "3"}, 2)  # the hand as it was played
    answer = post(played, form)  # the first take-back, queued on another phone
    assert answer.status_code == 409
    assert shown(answer) == (
        "Not taken back. Hand 2 on the sheet now (law 2: E-W make, three tricks: 1) is not "
        "the one taken back from here: that one was taken back already and hand 2 entered "
        "again since, so it was not taken back; look at the sheet as it is now."
    )
    assert tricks(played) == [3, 3] and RemovedHand.objects.count() == 1


def test_the_hand_that_won_the_rubber_is_not_taken_back(played):
    number = 2
    while Rubber.objects.get(pk=played.rubber.pk).status == Rubber.Status.IN_PROGRESS:
        page = recorded(played, MARCH, number)
        number += 1
    last = number - 1
    words = (
        "The rubber is over (ruling E1), so its last hand is no longer taken back from the "
        "phone; correct its figures instead."
    )
    # Not offered: the page says why beside "Correct hand N".
    assert f"<summary>Correct hand {last}</summary>" in page
    assert 'data-kind="take_back"' not in page and words in page
    hand = Hand.objects.get(rubber=played.rubber, number=last)
    form = {
        "take_back": str(last),
        "rubber": str(played.rubber.pk),
        "recorded_at": hand.recorded_at.isoformat(),
    }
    answer = post(played, form)  # sent anyway (queued before the rubber was won)
    assert answer.status_code == 400
    assert shown(answer) == f"Not taken back. {words}"
    assert Rubber.objects.get(pk=played.rubber.pk).hand_count == last
    assert not RemovedHand.objects.exists()


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"recorded_at": ""}, "recorded_at",
         "Not taken back. The take-back does not say which hand 2 it is, as the sheet showed "
         "it (when it was recorded): reload the page and take the hand back again."),
        ({"recorded_at": "yesterday"}, "recorded_at",
         "Not taken back. The take-back does not say which hand 2 it is, as the sheet showed "
         "it (when it was recorded): reload the page and take the hand back again."),
        ({"reason": "x" * 600}, "reason",
         "Not taken back. The reason is 500 characters at most; this one has 600."),
        ({"take_back": "two"}, "take_back",
         "Not taken back. The hand to take back: give a whole number, nothing below nought, "
         "in the digits 0 to 9, at most 9 of them."),
    ],
)  # fmt: skip
def test_a_take_back_refused_for_its_fields_names_them_and_takes_nothing(
    played, change, field, words
):
    form = take_back_form(recorded(played, {"makers": "EW", "tricks": "4"}, 2))
    answer = post(played, {**form, **change})
    assert answer.status_code == 400
    assert shown(answer).startswith(words), shown(answer)
    assert f'data-field="{field}"' in answer.content.decode()
    assert tricks(played) == [3, 4] and not RemovedHand.objects.exists()
    if field == "reason":  # the take-back offered again, open, the reason as typed (cut)
        page = page_of(answer)
        assert '<details class="panel take-back" data-testid="take-back" open>' in page
        assert f'placeholder="entered twice">{"x" * 500}' in page


def test_a_call_ace_deal_is_taken_back_as_a_deal_and_a_closed_sitting_keeps_its_deals(played):
    table = bridge_and_call_ace_in_play(played.club).call_ace
    address = f"/t/{table.token}/hand/"
    page = page_of(Client().get(f"/t/{table.token}/"))
    assert "<summary>Take back deal 1</summary>" in page and "Yes, take back deal 1" in page
    answer = Client().post(address, take_back_form(page), HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert "Deal 1 taken back: it is off the sheet" in page_of(answer)
    sitting = Rubber.objects.get(table=table)
    assert sitting.hand_count == 0

    order = sitting.players
    recording.hand_record(
        evening_id=table.evening_id, table_number=1, data={"maker": order[1], "tricks": 3}
    )
    page = page_of(Client().get(f"/t/{table.token}/"))
    form = take_back_form(page)
    evenings.evening_close_sitting(evening_id=table.evening_id, table_number=1)
    words = (
        "The sitting is closed and settled (ruling C5): its last deal is not taken back; ask "
        "the secretary, the club's referee."
    )
    # The settled sitting's deals are not offered at all now (ruling C5); a take-back sent
    # anyway (a page read before) is refused in these words.
    assert "Take back deal 1" not in page_of(Client().get(f"/t/{table.token}/"))
    answer = Client().post(address, form, HTTP_HX_REQUEST="true")
    assert answer.status_code == 400
    assert shown(answer) == f"Not taken back. {words}"
    assert Rubber.objects.get(pk=sitting.pk).hand_count == 1


def test_a_sheet_is_not_taken_back_hand_by_hand(played):
    """Ruling E9 frees a hand "until the next hand at that table is recorded": hand 2
    recorded and taken back, hand 1 stays as it was for the table, taken back or
    corrected; the secretary may still change it, with a reason."""
    page = recorded(played, {"makers": "EW", "tricks": "4"}, 2)
    assert post(played, take_back_form(page)).status_code == 200
    hand_1 = Hand.objects.get(rubber=played.rubber, number=1)
    sent = {
        "rubber": played.rubber.pk,
        "take_back": "1",
        "recorded_at": hand_1.recorded_at.isoformat(),
    }
    refused = post(played, {**sent, "reason": ""})
    assert refused.status_code in (400, 403, 409)
    assert "Too late for the players to change this hand" in shown(refused)
    corrected = post(played, {"correct": "1", "rubber": played.rubber.pk, **MARCH})
    assert "Too late for the players to change this hand" in shown(corrected)
    assert tricks(played) == [3] and RemovedHand.objects.count() == 1
    with pytest.raises(Exception, match="needs a reason"):
        recording.hand_correct(
            evening_id=played.evening.pk, table_number=1, rubber_number=1, number=1,
            data={"makers": "NS", "tricks": 5}, is_secretary=True,
        )  # fmt: skip
    recording.hand_correct(
        evening_id=played.evening.pk, table_number=1, rubber_number=1, number=1,
        data={"makers": "NS", "tricks": 5}, is_secretary=True, reason="the table's word",
    )  # fmt: skip
    assert tricks(played) == [5]
