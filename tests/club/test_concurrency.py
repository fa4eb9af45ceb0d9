"""Two devices acting on one table at once (PostgreSQL row locks): one wins, the other
gets a conflict; no cut-out happens twice; the end state is one a serial order gives."""

import datetime
import threading
from decimal import Decimal

import pytest
from django.db import connection

from club import evenings
from club.models import Evening
from config.api import Conflict
from scoring.models import Hand, Rubber
from tests.club.test_evenings import SIX, SWEEP

pytestmark = pytest.mark.django_db(transaction=True)


def race(*calls):
    """Run the calls at the same moment in threads; return what each returned or raised."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as exc:  # collected, asserted by the test
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


@pytest.fixture
def seated(club, postgres):
    evening = evenings.evening_open(
        club=club, date=datetime.date(1888, 11, 21), ruleset="euchre-somerset-1888",
        stake=Decimal("0.25"),
    )  # fmt: skip
    for name in SIX:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    evenings.evening_act(
        evening_id=evening.pk,
        event={
            "type": "cut",
            "cards": {
                "Ann": "JS",
                "Bob": "AS",
                "Cora": "KS",
                "Dan": "QS",
                "Edith": "10S",
                "Frank": "9S",
            },
        },
    )
    evenings.evening_act(evening_id=evening.pk, event={"type": "cut", "cards": {
        "Ann": "JH", "Bob": "AH", "Cora": "KH", "Dan": "QH"}})  # fmt: skip
    return evening


def test_two_phones_recording_from_the_same_version_one_gets_a_conflict(seated):
    seen = Evening.objects.get(pk=seated.pk).version

    def phone(hand):
        return lambda: evenings.evening_record_hand(
            evening_id=seated.pk, table_number=1, hand=hand, expected_version=seen
        )

    results = race(phone({"makers": "NS", "tricks": 3}), phone({"makers": "EW", "tricks": 4}))
    assert sum(isinstance(r, Hand) for r in results) == 1
    assert sum(isinstance(r, Conflict) for r in results) == 1
    assert Hand.objects.filter(rubber__evening=seated).count() == 1


def test_concurrent_hands_without_a_version_are_serialised(seated):
    calls = [
        (lambda h=h: evenings.evening_record_hand(evening_id=seated.pk, table_number=1, hand=h))
        for h in SWEEP[:6]
    ]
    results = race(*calls)
    assert all(isinstance(r, Hand) for r in results), results
    rubber = Rubber.objects.get(evening=seated)
    assert sorted(Hand.objects.filter(rubber=rubber).values_list("number", flat=True)) == [
        1, 2, 3, 4, 5, 6
    ]  # fmt: skip
    assert rubber.hand_count == 6


def test_a_cut_out_is_never_made_twice(seated):
    for hand in SWEEP:  # the rubber ends; the waiting members claim; a cut-out cut is due
        evenings.evening_record_hand(evening_id=seated.pk, table_number=1, hand=hand)
    seen = Evening.objects.get(pk=seated.pk).version
    cards = {"Ann": "JC", "Bob": "AC", "Cora": "7C", "Dan": "8C"}

    def device():
        return evenings.evening_act(
            evening_id=seated.pk, event={"type": "cut", "cards": cards}, expected_version=seen
        )

    results = race(device, device)
    assert sum(isinstance(r, Conflict) for r in results) == 1
    seated.refresh_from_db()
    table = seated.state["tables"][0]
    assert sorted(table["waiting"]) == ["Cora", "Dan"]  # went out once, not twice
    assert seated.events.filter(type="cut").count() == 3


def test_hands_and_a_correction_at_once_end_as_some_serial_order(seated):
    from scoring.models import Rubber as RubberModel
    from scoring.sheet import score_sheet

    first = {"makers": "NS", "tricks": 3}
    evenings.evening_record_hand(evening_id=seated.pk, table_number=1, hand=first)
    corrected, a, b = {"makers": "NS", "tricks": 5}, {"makers": "EW", "tricks": 4}, {
        "makers": "NS", "tricks": 4, "alone": True}  # fmt: skip

    def record(hand):
        return lambda: evenings.evening_record_hand(evening_id=seated.pk, table_number=1, hand=hand)

    def correct():
        return evenings.evening_correct_hand(
            evening_id=seated.pk, table_number=1, rubber_number=1, number=1, hand=corrected,
            reason="a march, not three", is_secretary=True,
        )  # fmt: skip

    results = race(record(a), correct, record(b))
    assert not any(isinstance(r, Exception) for r in results), results
    rubber = RubberModel.objects.get(evening=seated)
    recorded = [h.data for h in rubber.hands.order_by("number")]
    assert recorded[0]["tricks"] == 5
    orders = [[corrected, a, b], [corrected, b, a]]
    sheets = [
        score_sheet({"ruleset": "euchre-somerset-1888", "hands": order})["current"]
        for order in orders
    ]
    assert rubber.summary["current"] in sheets
    assert [h["makers"] for h in recorded[1:]] in (["EW", "NS"], ["NS", "EW"])
