"""Devices acting at once (PostgreSQL row locks). On one table: one wins, the other gets a
conflict; no cut-out happens twice; the end state is one a serial order gives. At the
tables of one evening: hands are written side by side, each rubber locked and the evening
only at the end (core/db.py), and whatever races them (a break-up, closing) ends in a
serial order with nothing half-written."""

import datetime
import threading
import time
from decimal import Decimal

import pytest
from django.db import connection, transaction

from club import evening_log, evenings, recording
from club.models import Evening, EveningEvent, Member
from club.seating import rubber_reseat
from config.api import Conflict, UserError
from core import db
from scoring.models import Hand, HandScore, Rubber
from tests.club.test_evenings import SIX, SWEEP
from tests.worlds import assert_replayed, euchre_table

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
    evening = euchre_table(club, SIX)
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
        return lambda: recording.hand_record(
            evening_id=seated.pk, table_number=1, data=hand, expected_version=seen
        )

    results = race(phone({"makers": "NS", "tricks": 3}), phone({"makers": "EW", "tricks": 4}))
    assert sum(isinstance(r, Hand) for r in results) == 1
    assert sum(isinstance(r, Conflict) for r in results) == 1
    assert Hand.objects.filter(rubber__evening=seated).count() == 1


def test_concurrent_hands_without_a_version_are_serialised(seated):
    calls = [
        (lambda h=h: recording.hand_record(evening_id=seated.pk, table_number=1, data=h))
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
        recording.hand_record(evening_id=seated.pk, table_number=1, data=hand)
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
    recording.hand_record(evening_id=seated.pk, table_number=1, data=first)
    corrected, a, b = {"makers": "NS", "tricks": 5}, {"makers": "EW", "tricks": 4}, {
        "makers": "NS", "tricks": 4, "alone": True}  # fmt: skip

    def record(hand):
        return lambda: recording.hand_record(evening_id=seated.pk, table_number=1, data=hand)

    def correct():
        return recording.hand_correct(
            evening_id=seated.pk, table_number=1, rubber_number=1, number=1, data=corrected,
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


# --- the tables of one evening record side by side (the rubber is locked, the evening last) ---

EIGHT = [*SIX, "Grace", "Hugh"]
MARCH, THREE = {"makers": "NS", "tricks": 5}, {"makers": "NS", "tricks": 3}


@pytest.fixture
def two_tables(club, postgres, monkeypatch):
    """An evening with a rubber at each of two tables, counted in a ladder; a lock not
    granted within five seconds is a conflict (so a test that would wait fails)."""
    from tournaments.services import tournament_create

    monkeypatch.setattr(db, "LOCK_TIMEOUT_MS", 5000)
    evening = evenings.evening_open(
        club=club, date=datetime.date(1888, 11, 21), ruleset="euchre-somerset-1888",
        stake=Decimal("0.25"),
    )  # fmt: skip
    tournament_create(
        club=club, name="Winter", slug="winter", kind="ladder", evening_ids=[evening.pk]
    )
    for four, cards in (
        (EIGHT[:4], ["JS", "AS", "KS", "QS"]),
        (EIGHT[4:], ["JH", "AH", "KH", "QH"]),
    ):
        for name in four:
            evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
        evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
        evenings.evening_act(
            evening_id=evening.pk,
            event={"type": "cut", "cards": dict(zip(four, cards, strict=True))},
        )
    evening.refresh_from_db()
    assert evening.rubbers.filter(status="in_progress").count() == 2
    return evening


class Background:
    """A call run in its own thread (its own connection); `.result` is what it returned or
    raised once `.join()` has returned."""

    def __init__(self, call):
        self.result = None
        self.thread = threading.Thread(target=self._run, args=(call,))
        self.thread.start()

    def _run(self, call):
        try:
            self.result = call()
        except Exception as exc:  # asserted by the test
            self.result = exc
        finally:
            connection.close()

    def join(self):
        self.thread.join(30)
        assert not self.thread.is_alive()
        return self.result


def holding(write):
    """Another connection makes `write` (a row under a unique constraint) and keeps its
    transaction open until `.release()`, then rolls it back. A request that must write
    the same row waits there, half-way through its own transaction, holding whatever it
    has locked so far; then it goes on as if nothing had happened."""
    held, release = threading.Event(), threading.Event()

    def hold():
        with transaction.atomic():
            write()
            held.set()
            release.wait(30)
            transaction.set_rollback(True)

    holder = Background(hold)
    assert held.wait(10)
    holder.release = release.set
    return holder


def hand_being_written(rubber):
    """Hold the next hand's number of the rubber: a hand recorded in it stops half-way,
    its rubber locked and its scoring done, before it reaches the evening."""
    return holding(
        lambda: Hand.objects.create(rubber=rubber, number=rubber.hand_count + 1, data={}, points={})
    )


def standings_being_written(evening, name):
    """Hold a player's row of the standings' outbox: a change to his rubber stops there,
    after the rubber's own rows are written."""
    from tournaments.models import StandingsDirty

    ladder = evening.tournaments.get()
    member = Member.objects.get(name=name)
    return holding(lambda: StandingsDirty.objects.create(tournament=ladder, member=member))


def waiting_for_locks(count: int) -> None:
    """Wait until `count` connections of this database wait for a row lock. (Called in a
    transaction too: the activity read afresh each time, not the transaction's copy.)"""
    deadline = time.monotonic() + 10
    while True:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0] >= count:
                return
        assert time.monotonic() < deadline, "nothing came to wait for the lock"
        time.sleep(0.02)


def log_is_whole(evening, *, replays: bool = True) -> list[EveningEvent]:
    """The log's seq runs 1..version without a gap, and replays to the evening's state."""
    evening.refresh_from_db()
    events = list(evening.events.order_by("seq"))
    assert [e.seq for e in events] == list(range(1, evening.version + 1))
    if not replays:
        return events
    before = evenings.evening_summary(evening=evening)
    replayed = evening_log.evening_replay(log=evening_log.evening_export(evening=evening))
    after = evenings.evening_summary(evening=replayed)
    assert_replayed(after, before, ("present", "tables", "pending_cuts", "rubbers", "ledger"))
    return events


def rubber_is_whole(rubber) -> None:
    """A rubber's rows agree: its count of hands, its hands, their scores."""
    rubber.refresh_from_db()
    hands = rubber.hands.count()
    assert rubber.hand_count == hands
    assert HandScore.objects.filter(rubber=rubber).count() == 4 * hands


def test_a_table_records_while_another_tables_hand_is_being_written(two_tables):
    """Table 1's hand is stopped half-way through its write (its rubber locked, its hand
    scored); table 2's hand is recorded meanwhile and committed: the tables do not wait
    for each other on the evening. Table 1's hand then commits after it, and the log has
    them in that order."""
    evening = two_tables
    holder = hand_being_written(evening.rubbers.get(table__number=1))
    table_1 = Background(
        lambda: recording.hand_record(evening_id=evening.pk, table_number=1, data=MARCH)
    )
    waiting_for_locks(1)
    recorded = recording.hand_record(evening_id=evening.pk, table_number=2, data=THREE)
    assert recorded.pk and table_1.thread.is_alive()  # table 1 is still being written
    holder.release()
    holder.join()
    assert isinstance(table_1.join(), Hand)
    events = log_is_whole(evening)
    hands = [(e.data["table"], e.data["hand"]) for e in events if e.type == "hand"]
    assert hands == [(2, THREE), (1, MARCH)]
    for rubber in evening.rubbers.all():
        rubber_is_whole(rubber)
        assert rubber.hand_count == 1


def test_closing_waits_for_the_hand_being_written_then_settles_its_rubber(two_tables):
    """Closing settles every rubber in play (club.closing), so it locks them first, as any
    evening action does: it waits for the hand being written, which is kept, and then
    abandons the rubber with that hand in it."""
    evening = two_tables
    holder = hand_being_written(evening.rubbers.get(table__number=1))
    table_1 = Background(
        lambda: recording.hand_record(evening_id=evening.pk, table_number=1, data=MARCH)
    )
    waiting_for_locks(1)
    answers = [
        {"table": number, "rubber": 1, "outcome": "abandoned", "reason": "closing time"}
        for number in (1, 2)
    ]
    closing = Background(lambda: evenings.evening_close(evening_id=evening.pk, rubbers=answers))
    waiting_for_locks(2)
    holder.release()
    holder.join()
    assert not isinstance(table_1.join(), Exception)
    assert not isinstance(closing.join(), Exception)
    rubber = evening.rubbers.get(table__number=1)
    assert rubber.status == "abandoned" and rubber.hand_count == 1
    assert [e.type for e in log_is_whole(evening)][-2:] == ["hand", "close"]
    for rubber in evening.rubbers.all():
        rubber_is_whole(rubber)


@pytest.mark.parametrize("first", ["hand", "break_up"])
def test_a_hand_racing_a_break_up_ends_in_a_serial_order(two_tables, first):
    """Law 21: the table breaks up while a hand is being recorded at it. Whichever gets
    the rubber first is done whole, then the other: the hand counts in the abandoned
    rubber, or it is refused (no rubber left in play at the table) and leaves nothing.
    Neither deadlocks: the break-up waits for the rubber before it takes the evening."""
    evening = two_tables
    rubber = evening.rubbers.get(table__number=1)
    recording.hand_record(evening_id=evening.pk, table_number=1, data=THREE)
    # Whichever goes first is stopped half-way through its write, the rubber locked.
    if first == "hand":
        holder = hand_being_written(Rubber.objects.get(pk=rubber.pk))
    else:  # the break-up, writing the abandoned rubber's players to the standings
        holder = standings_being_written(evening, "Ann")

    def hand():
        return recording.hand_record(evening_id=evening.pk, table_number=1, data=MARCH)

    def break_up():
        return evenings.evening_act(
            evening_id=evening.pk, event={"type": "break_up", "table": 1, "broken_by": "Ann"}
        )

    calls = {"hand": hand, "break_up": break_up}
    second = "break_up" if first == "hand" else "hand"
    running = {first: Background(calls[first])}
    waiting_for_locks(1)  # the first holds the rubber and waits for the held row
    running[second] = Background(calls[second])
    waiting_for_locks(2)  # the second waits for the rubber
    holder.release()
    holder.join()
    results = {name: job.join() for name, job in running.items()}

    assert isinstance(results["break_up"], EveningEvent), results
    rubber.refresh_from_db()
    assert rubber.status == "abandoned" and not rubber.settlements.exists()
    rubber_is_whole(rubber)
    events = log_is_whole(evening)
    kinds = [e.type for e in events if e.type in {"hand", "break_up"}]
    if first == "hand":
        assert isinstance(results["hand"], Hand) and results["hand"].number == 2
        assert rubber.hand_count == 2 and kinds == ["hand", "hand", "break_up"]
    else:
        assert isinstance(results["hand"], UserError), results
        assert rubber.hand_count == 1 and kinds == ["hand", "break_up"]


def test_hands_at_every_table_at_once_all_commit_and_log_in_one_order(two_tables):
    """Phones at both tables post hands at the same moment, several each: every one is
    recorded, each rubber's hands in order, and the log is whole (seq = version)."""

    def phone(number, hand):
        return lambda: recording.hand_record(
            evening_id=two_tables.pk, table_number=number, data=hand
        )

    calls = [phone(n, h) for h in [MARCH, THREE, {"makers": "EW", "tricks": 3}] for n in (1, 2)]
    results = race(*calls)
    assert all(isinstance(r, Hand) for r in results), results
    log_is_whole(two_tables)
    for rubber in two_tables.rubbers.all():
        rubber_is_whole(rubber)
        assert sorted(rubber.hands.values_list("number", flat=True)) == [1, 2, 3]


def test_an_action_never_waits_for_a_rubber_while_it_holds_the_evening(two_tables):
    """A second rubber is started at table 2 outside the cutting after a break-up of
    table 2 has locked the rubbers then in play and the evening; a phone records a hand
    in it and waits for the evening. The break-up, coming to abandon that rubber too
    (law 21), does not wait for it (each would wait for the other): it is refused at
    once with a retryable 409 and leaves nothing, and the hand is recorded."""
    from scoring import services as scoring

    evening = two_tables
    first = evening.rubbers.get(table__number=2)
    # The break-up stops half-way, holding the rubbers in play and the evening, at
    # logging its event (another request holds the log's next seq).
    holder = holding(
        lambda: EveningEvent.objects.create(
            evening=evening, seq=evening.version + 1, type="held", data={}
        )
    )
    break_up = Background(
        lambda: evenings.evening_act(
            evening_id=evening.pk, event={"type": "break_up", "table": 2, "broken_by": "Edith"}
        )
    )
    waiting_for_locks(1)
    started = scoring.rubber_start(
        club=evening.club, evening=evening, table=first.table, ruleset=first.ruleset,
        players=first.players,
    )  # fmt: skip
    hand = Background(
        lambda: recording.hand_record(
            evening_id=evening.pk, table_number=2, data=THREE, rubber_id=started.pk
        )
    )
    waiting_for_locks(2)  # the hand holds the new rubber and waits for the evening
    holder.release()
    holder.join()
    refused, recorded = break_up.join(), hand.join()
    assert isinstance(refused, Conflict) and refused.code == "locked", refused
    assert isinstance(recorded, Hand) and recorded.rubber_id == started.pk, recorded
    first.refresh_from_db()
    assert first.status == "in_progress"  # the break-up left nothing
    assert [t["number"] for t in evenings.evening_summary(evening=evening)["tables"]] == [1, 2]
    events = log_is_whole(evening, replays=False)  # the rubber started outside is not in it
    assert events[-1].type == "hand" and "break_up" not in [e.type for e in events]
    rubber_is_whole(started)


@pytest.mark.parametrize("named_by", ["rubber", "table"])
def test_a_hand_that_waited_for_the_dealers_choice_is_scored_to_the_new_seats(seated, named_by):
    """A phone records the first hand while the secretary's dealer's choice (ruling T12)
    holds the rubber and changes its sides. The hand waits for the lock and is then
    scored to the seats as the choice left them: each player's score under his own
    side, never a neighbour's, whether the phone names the rubber or its table (the
    locking read is made again when the rubber changed while it waited,
    club.rubber_locks.as_locked)."""
    rubber = Rubber.objects.get(evening=seated)
    (a, b), (c, d) = rubber.players["NS"], rubber.players["EW"]
    holding = threading.Event()

    def secretary():
        with transaction.atomic():
            locked = db.lock_one(Rubber.objects.filter(pk=rubber.pk), what="rubber")
            rubber_reseat(rubber=locked, seats={"N": a, "S": c, "E": b, "W": d})
            holding.set()
            waiting_for_locks(1)  # the phone's hand waits for the rubber: commit now
        return "reseated"

    def phone():
        holding.wait(10)
        hand = {"makers": "NS", "tricks": 5}
        if named_by == "rubber":  # the API's rubber
            return recording.hand_record(rubber_id=rubber.pk, data=hand)
        return recording.hand_record(evening_id=seated.pk, table_number=1, data=hand)

    results = race(secretary, phone)
    assert results[0] == "reseated" and isinstance(results[1], Hand), results
    rubber.refresh_from_db()
    assert rubber.players == {"NS": [a, c], "EW": [b, d]}
    seat_side = dict(rubber.seats.values_list("member__name", "side"))
    scored = {s.member.name: (s.side, s.points) for s in HandScore.objects.filter(rubber=rubber)}
    assert {name: side for name, (side, _) in scored.items()} == seat_side
    assert scored[a] == scored[c] == ("NS", 2)  # a march scores two (law 2), to the new partners
    assert scored[b][1] == scored[d][1] == 0


def test_a_phones_hand_for_a_rubber_that_ends_while_it_waits_for_its_lock_is_refused(
    seated, monkeypatch
):
    """The phone's hand names the rubber it was entered for (`rubber`: one queued on the
    phone may arrive late). It comes while another phone's hand holds that rubber, which
    then wins it; the table cuts again and plays the next rubber's first hand. Checked by
    the view before the lock, the rubber was still in play, and the hand, waiting for the
    rubber in progress, was recorded as the next rubber's hand 2. Checked under the lock
    (club.recording.hand_record), it is refused as over (409, rubber_over)."""
    from django.test import Client

    monkeypatch.setattr(db, "LOCK_TIMEOUT_MS", 5000)
    first = Rubber.objects.get(evening=seated)
    recording.hand_record(evening_id=seated.pk, table_number=1, data=SWEEP[0])
    holding = threading.Event()

    def other_phone():
        with transaction.atomic():
            db.lock_one(Rubber.objects.filter(pk=first.pk), what="rubber")
            holding.set()
            waiting_for_locks(1)  # the phone's hand waits for the rubber: play on now
            for hand in SWEEP[1:]:  # N-S win the rubber
                recording.hand_record(evening_id=seated.pk, table_number=1, data=hand)
            while evenings.evening_state(Evening.objects.get(pk=seated.pk)).pending:
                evenings.evening_act(evening_id=seated.pk, event={"type": "cut", "draw": True})
            recording.hand_record(evening_id=seated.pk, table_number=1, data=THREE)
        return "played on"

    def phone():
        holding.wait(10)
        form = {"makers": "EW", "tricks": "3", "expected_number": "2", "rubber": first.pk}
        return Client().post(f"/t/{first.table.token}/hand/", form, HTTP_HX_REQUEST="true")

    played_on, answer = race(other_phone, phone)
    assert played_on == "played on", played_on
    assert answer.status_code == 409, answer.content.decode()
    assert "was entered for the rubber before this one, which is over" in answer.content.decode()
    first.refresh_from_db()
    second = Rubber.objects.filter(evening=seated).exclude(pk=first.pk).get()
    assert first.status == "complete" and first.hand_count == len(SWEEP)
    assert [(h.number, h.data["makers"]) for h in second.hands.all()] == [(1, "NS")]
