"""One way from a hand to the evening and the standings (club/recording.py), whatever the
door: the rubber named by id or by its evening's table, the evening and the standings
learning of it from scoring's signals, in the same transaction."""

import pytest
from django.db import transaction

from club import evenings, recording, rubber_locks
from club.evening_receivers import Via
from club.models import EveningEvent
from core.errors import UserError
from scoring import services as scoring
from scoring import signals
from scoring.models import Rubber
from tests.club.test_evenings import MARCH, THREE, seat_six
from tournaments import services as tournaments
from tournaments.models import StandingsDirty


def _logged(evening) -> list[dict]:
    return [e.data for e in EveningEvent.objects.filter(evening=evening, type="hand")]


def test_a_hand_is_logged_alike_whether_the_rubber_is_named_by_id_or_by_its_table(evening):
    """Before, a hand recorded through scoring by the rubber's id (not through the
    evening) was scored but never entered in the evening's log."""
    seat_six(evening)
    rubber = Rubber.objects.get(evening=evening)
    recording.hand_record(evening_id=evening.pk, table_number=1, data=MARCH)
    recording.hand_record(rubber_id=rubber.pk, data=THREE)
    assert _logged(evening) == [
        {"type": "hand", "table": 1, "rubber": 1, "hand": MARCH},
        {"type": "hand", "table": 1, "rubber": 1, "hand": THREE},
    ]
    evening.refresh_from_db()
    assert evening.version == EveningEvent.objects.filter(evening=evening).count()


def test_a_hand_that_wins_the_rubber_by_id_ends_it_at_its_table(evening):
    """The rubber's end (law 15) comes from scoring's `rubber_finished`, whatever the door."""
    seat_six(evening)
    rubber = Rubber.objects.get(evening=evening)
    for hand in [MARCH, MARCH, THREE] * 3:
        recording.hand_record(rubber_id=rubber.pk, data=hand)
    rubber.refresh_from_db()
    assert rubber.is_complete
    ends = EveningEvent.objects.filter(evening=evening, type="rubber_end", automatic=True)
    assert ends.count() == 1
    # The engine ended the rubber at its table (law 15): the table cuts in and out next.
    evening.refresh_from_db()
    assert not evenings.evening_state(evening).table(1).in_rubber


def test_a_receiver_that_refuses_rolls_the_hand_back(evening):
    """Receivers run inside the hand's transaction: the evening's refusal (a closed
    evening seen only by the receiver) leaves no hand, no event, no outbox row."""
    seat_six(evening)
    rubber = Rubber.objects.get(evening=evening)

    def refuse(sender, **kwargs):
        raise UserError("Refused by a listener.", field="hand")

    signals.hand_recorded.connect(refuse, dispatch_uid="test-refuse")
    try:
        with pytest.raises(UserError, match="Refused"):
            recording.hand_record(rubber_id=rubber.pk, data=MARCH)
    finally:
        signals.hand_recorded.disconnect(dispatch_uid="test-refuse")
    assert not rubber.hands.exists()
    assert not _logged(evening)


def test_the_standings_outbox_is_written_by_its_receiver_in_the_hands_transaction(club, evening):
    """Scoring imports nothing of tournaments: the outbox row comes from the receiver
    of `rubber_changed`, and goes if the hand's transaction is rolled back."""
    seat_six(evening)
    tournaments.tournament_create(
        club=club, name="Winter ladder", slug="winter", kind="ladder", evening_ids=[evening.pk]
    )
    rubber = Rubber.objects.get(evening=evening)
    with pytest.raises(RuntimeError, match="rolled back"), transaction.atomic():
        recording.hand_record(rubber_id=rubber.pk, data=MARCH)
        assert StandingsDirty.objects.count() == 4  # the rubber's four players
        raise RuntimeError("rolled back")
    assert StandingsDirty.objects.count() == 0
    recording.hand_record(rubber_id=rubber.pk, data=MARCH)
    assert StandingsDirty.objects.count() == 4


@pytest.mark.django_db(transaction=True)
def test_scoring_refuses_a_rubber_outside_a_transaction(club):
    """Scoring's writes take the rubber locked by the caller (club.recording): outside a
    transaction no lock can be held, and it refuses before writing."""
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        club.members.create(name=name)
    rubber = scoring.rubber_start(
        club=club, ruleset="euchre-somerset-1888",
        players={"NS": ["Ann", "Bob"], "EW": ["Cora", "Dan"]},
    )  # fmt: skip
    with pytest.raises(RuntimeError, match="outside a transaction"):
        scoring.rubber_record_hand(rubber=rubber, data=MARCH)
    assert not rubber.hands.exists()


@pytest.mark.parametrize("read_with_the_lock", [[], [MARCH]], ids=["none", "one of two"])
def test_a_hand_replays_the_hands_stored_not_a_stale_reading_of_them(evening, read_with_the_lock):
    """The hands a new hand follows come with the rubber's locking read (PostgreSQL,
    scoring.services.with_hand_data); a reading that does not match the rubber's count of
    hands (a rubber object kept from an earlier read) is not replayed: the hands are read
    again, and the new hand takes the next number with the score its place gives."""
    seat_six(evening)
    rubber = Rubber.objects.get(evening=evening)
    recording.hand_record(rubber_id=rubber.pk, data=MARCH)
    recording.hand_record(rubber_id=rubber.pk, data=MARCH)  # N-S at 4 (law 2: a march scores two)
    with transaction.atomic():
        held = rubber_locks.lock_placed(rubber.pk)
        setattr(held, scoring.HAND_DATA, read_with_the_lock)  # as with_hand_data reads it
        hand = scoring.rubber_record_hand(rubber=held, data=MARCH, via=Via())
    assert hand.number == 3
    rubber.refresh_from_db()
    assert rubber.hand_count == 3
    assert rubber.summary["games"][0]["winner"] == "NS"  # 4 + 2: a game is five points (law 2)
