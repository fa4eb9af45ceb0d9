"""The players at a progressive's table take back its last deal from the phone, one
recorded by mistake, as an evening's table's players do (law 5, ruling E9;
club.recording.hand_remove): at their own table's rubber of the round in play
(tournaments.table_links.may_take_back), its standings told in the same transaction;
refused in words, nothing taken off, once another deal is recorded after it, once the
round is over at the table (the director seats the next round from its result), for a
round before, and once the tournament is over; sent again with its Idempotency-Key, made
once."""

import re

import pytest

from club import recording
from scoring.models import RemovedHand
from tournaments import rounds
from tournaments.models import StandingsDirty
from tournaments.table_links import ASK_THE_REFEREE

from .test_table_phone import at_table, deal, hands, page_of, play_out
from .test_table_phone_corrections import send, shown

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_deals(make, director):
    """A rotation progressive of two deals a round, round 1 seated: two tables."""
    tournament = make("rotation", deals=2)
    rounds.round_seat_next(tournament_id=tournament.pk, user=director)
    return tournament


def take_back_form(page: str) -> dict:
    """The take-back the page offers, as its "Yes, take back hand N" button sends it."""
    form = page[page.index('data-kind="take_back"') :].split("</form>", 1)[0]
    return dict(re.findall(r'name="(\w+)" value="([^"]*)"', form))


def test_the_last_deal_taken_back_from_the_phone(client, two_deals):
    table = at_table(two_deals)
    page = page_of(send(client, two_deals, deal(expected_number="1")))
    assert "<summary>Correct hand 1</summary>" in page
    assert "<summary>Take back hand 1</summary>" in page and "Yes, take back hand 1" in page
    StandingsDirty.objects.all().delete()  # as the worker leaves it

    answer = send(client, two_deals, {**take_back_form(page), "reason": "wrong table's phone"})
    assert answer.status_code == 200
    page = page_of(answer)
    assert "Hand 1 taken back: it is off the sheet" in page
    assert hands(table) == []
    assert "Hand <span data-next-label>1</span>" in page
    assert 'data-kind="take_back"' not in page  # nothing left to take back
    removed = RemovedHand.objects.get(rubber=table.rubber)
    assert removed.number == 1 and removed.reason == "wrong table's phone"
    # The standings heard of it in the take-back's transaction (their outbox).
    assert StandingsDirty.objects.filter(tournament=two_deals).count() == 4


def test_a_deal_recorded_after_it_by_the_other_phone_refuses_the_take_back(client, two_deals):
    table = at_table(two_deals)
    form = take_back_form(page_of(send(client, two_deals, deal(expected_number="1"))))
    # The other phone at the table records deal 2 (level: one more deal, ruling P1).
    recording.hand_record(rubber_id=table.rubber_id, data={"makers": "EW", "tricks": 3})
    answer = send(client, two_deals, form)
    assert answer.status_code == 409
    assert shown(page_of(answer)) == (
        "Not taken back. Hand 1 was not taken back: hand 2 has been recorded at this table "
        "since (law 2: E-W make, three tricks: 1), and only the last hand is taken back. "
        "Hand 1 may now be changed only by the secretary, as the club's referee. (law 5, "
        "ruling E9)"
    )
    assert [h["makers"] for h in hands(table)] == ["NS", "EW"]
    assert not RemovedHand.objects.exists()


def test_a_take_back_sent_again_is_made_once(client, two_deals):
    table = at_table(two_deals)
    send(client, two_deals, deal(expected_number="1"))
    form = take_back_form(page_of(send(client, two_deals, deal("EW", expected_number="2"))))
    assert form["take_back"] == "2"
    first = send(client, two_deals, form, HTTP_IDEMPOTENCY_KEY="take-back-once")
    again = send(client, two_deals, form, HTTP_IDEMPOTENCY_KEY="take-back-once")
    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true" and again.content == first.content
    assert [h["makers"] for h in hands(table)] == ["NS"]  # deal 1 stays
    other = send(client, two_deals, form)  # without its key: deal 2 is gone, 1 not taken
    assert other.status_code == 409
    assert "Hand 2 was taken back already" in shown(page_of(other))
    assert [h["makers"] for h in hands(table)] == ["NS"] and RemovedHand.objects.count() == 1


def test_a_round_over_at_the_table_keeps_its_last_deal(client, round_one):
    """One deal a round: it decides the round at the table (ruling P1); taken back, the
    round the director seats the next from would be open again. Its figures may still be
    corrected (test_table_phone_corrections.py)."""
    table = at_table(round_one)
    seats = round_one.rounds.get(number=1).seating["tables"][0]["seats"]
    page = page_of(send(client, round_one, deal(expected_number="1")))
    words = (
        f"Round 1 is over at this table ({seats['N']} & {seats['S']} (N-S) won it, ruling "
        "P1), and the director seats the next round from that result: its last hand is not "
        f"taken back. Correct its figures if they were wrong, or {ASK_THE_REFEREE}."
    )
    assert "Round 1 is over at this table" in page and "<summary>Correct hand 1" in page
    assert 'data-kind="take_back"' not in page and words in page  # why, beside it
    hand = table.rubber.hands.get()
    form = {
        "take_back": "1",
        "rubber": str(table.rubber_id),
        "recorded_at": hand.recorded_at.isoformat(),
    }
    answer = send(client, round_one, form)  # sent anyway: queued before the round ended
    assert answer.status_code == 400
    assert shown(page_of(answer)) == f"Not taken back. {words} (ruling E9)"
    assert [h["makers"] for h in hands(table)] == ["NS"] and not RemovedHand.objects.exists()


def test_the_round_before_and_a_finished_tournament_take_nothing_back(client, round_one, director):
    earlier = at_table(round_one)
    form = {"take_back": "1", "rubber": str(earlier.rubber_id)}
    play_out(round_one)
    form["recorded_at"] = earlier.rubber.hands.get().recorded_at.isoformat()
    rounds.round_seat_next(tournament_id=round_one.pk, user=director)
    answer = send(client, round_one, form)
    assert answer.status_code == 409
    assert shown(page_of(answer)) == (
        "Not taken back. This take-back of hand 1 was entered for round 1 at this table, "
        "which is over (the director has seated the next round from its result), so it was "
        f"not made; {ASK_THE_REFEREE}. (ruling E9)"
    )
    round_one.rounds_planned = 2
    round_one.save(update_fields=["rounds_planned"])
    play_out(round_one, round_number=2)
    now = at_table(round_one, round_number=2)
    form = {
        "take_back": "1",
        "rubber": str(now.rubber_id),
        "recorded_at": now.rubber.hands.get().recorded_at.isoformat(),
    }
    answer = send(client, round_one, form)
    assert answer.status_code == 409
    assert shown(page_of(answer)).startswith(
        "Not taken back. The tournament is over: every table has played its last round, "
        "round 2, and this table's link records nothing more. This take-back of hand 1 was "
        "not made;"
    )
    assert len(hands(earlier)) == len(hands(now)) == 1 and not RemovedHand.objects.exists()
