"""Ruling P1: a round of fixed deals that ends level at a table goes on, one deal at a time,
until one side is ahead; the extra deals count like the others."""

import pytest

from club import recording
from config.api import UserError
from scoring.models import RemovedHand
from scoring.rules import ScoringError
from scoring.rules.fixed_deals import deal_past_the_end, fixed_deals_over
from tests.tournaments.test_progressive import seat
from tournaments import rounds
from tournaments.selectors import standings_published

ONE_EACH = [{"makers": "NS", "tricks": 3}, {"makers": "EW", "tricks": 3}]  # 1 - 1


def deal(commit, table, hand):
    commit(recording.hand_record, rubber_id=table.rubber_id, data=hand)


@pytest.mark.parametrize("movement", ["cut", "progressive", "rotation"])
def test_a_level_round_goes_on_until_one_side_is_ahead(make, commit, movement):
    tournament = make(movement, deals=2)
    first = seat(tournament)
    level, other = first.tables.order_by("number")
    for hand in ONE_EACH:
        deal(commit, level, hand)
    deal(commit, other, {"makers": "NS", "tricks": 5})
    deal(commit, other, {"makers": "NS", "tricks": 3})

    shown = rounds.round_as_dict(first)["tables"]
    assert shown[0]["winner"] is None and shown[0]["level"] is True
    assert shown[1]["winner"] == "NS" and shown[1]["level"] is False
    with pytest.raises(UserError) as error:
        seat(tournament)
    assert error.value.code == "round_unfinished" and error.value.law == "ruling P1"
    assert "one more deal" in error.value.message

    # The deciding deal: E-W march, 2 points; now E-W are ahead and the round is over.
    deal(commit, level, {"makers": "EW", "tricks": 5})
    shown = rounds.round_as_dict(first)["tables"]
    assert shown[0]["winner"] == "EW" and shown[0]["level"] is False
    with pytest.raises(ScoringError) as refused:
        recording.hand_record(rubber_id=level.rubber_id, data={"makers": "NS", "tricks": 3})
    assert refused.value.law == "ruling P1"
    second = seat(tournament)
    assert second.number == 2

    # The extra deal counts like the others: E-W scored 1 + 2 at the level table.
    tournament.refresh_from_db()
    rows = {row["name"]: row for row in standings_published(tournament=tournament)["rows"]}
    east = first.seating["tables"][0]["seats"]["E"]
    assert rows[east]["metrics"]["points"] == 3
    assert rows[east]["metrics"]["hands"] == 3
    assert rows[east]["metrics"]["rounds_won"] == 1


def test_when_the_deals_are_over():
    two = [{"NS": 1, "EW": 0}, {"NS": 0, "EW": 1}]
    assert not fixed_deals_over(2, two[:1])
    assert not fixed_deals_over(2, two)  # level: one more deal
    assert fixed_deals_over(2, [*two, {"NS": 0, "EW": 2}])
    # Bridge: both lines count; level again after an extra deal, it goes on again.
    bridge = [{"NS": {"below": 8, "above": 0}, "EW": {"below": 0, "above": 8}}]
    assert not fixed_deals_over(1, bridge)
    assert not fixed_deals_over(1, bridge * 2)
    spades = {"NS": {"below": 2, "above": 0}, "EW": {"below": 0, "above": 0}}
    assert fixed_deals_over(1, [*bridge, spades])
    assert deal_past_the_end(2, [*two, {"NS": 0, "EW": 2}]) is None
    assert deal_past_the_end(2, [{"NS": 2, "EW": 0}, *two]) == 3


def test_a_correction_cannot_leave_a_deal_played_after_the_round_was_over(make, commit):
    tournament = make("cut", deals=2)
    table = seat(tournament).tables.get(number=1)
    for hand in [*ONE_EACH, {"makers": "NS", "tricks": 3}]:  # level, then N-S ahead
        deal(commit, table, hand)
    # Deal 2 corrected to N-S: they were ahead after two deals, so deal 3 was never due.
    with pytest.raises(ScoringError) as refused:
        recording.hand_correct(
            rubber_id=table.rubber_id, number=2, data={"makers": "NS", "tricks": 3},
            is_secretary=True, reason="the makers were N-S",
        )  # fmt: skip
    assert refused.value.law == "ruling P1" and "deal 3" in refused.value.message
    assert table.rubber.hands.get(number=2).data["makers"] == "EW"  # nothing changed
    commit(recording.hand_remove, rubber_id=table.rubber_id, number=3, is_secretary=True,
           reason="not due")  # fmt: skip
    # Deal 3 was recorded after deal 2, taken back or not: deal 2 is the referee's now
    # (ruling E9), with a reason.
    commit(recording.hand_correct, rubber_id=table.rubber_id, number=2,
           data={"makers": "NS", "tricks": 3}, is_secretary=True,
           reason="the makers were N-S")  # fmt: skip
    assert rounds.round_as_dict(table.round)["tables"][0]["winner"] == "NS"


def take_off(table, number):
    return recording.hand_remove(
        rubber_id=table.rubber_id, number=number, is_secretary=True, reason="entered wrong"
    )


def points_of(tournament):
    tournament.refresh_from_db()
    rows = standings_published(tournament=tournament)["rows"]
    return {row["name"]: row["metrics"]["points"] for row in rows}


def test_the_deal_that_decided_a_round_is_not_taken_off_once_the_next_is_seated(make, commit):
    """Ruling E9, as the director's correction reads it (tournaments.corrections): a decided
    round stays decided once its players have moved on. The secretary's take-off of the
    deal that decided round 1, round 2 seated from its result, reopened it ("level: one
    more deal"), let a deal more be recorded, and changed the standings; refused, nothing
    taken off."""
    tournament = make("rotation", deals=2)
    first = seat(tournament)
    for table in first.tables.all():
        for hand in [{"makers": "NS", "tricks": 3}, {"makers": "EW", "tricks": 3}]:
            deal(commit, table, hand)
        deal(commit, table, {"makers": "NS", "tricks": 3})  # P1: N-S ahead after a level two
    seat(tournament)
    before = points_of(tournament)
    table = first.tables.get(number=1)

    with pytest.raises(UserError) as refused:
        take_off(table, 3)
    assert refused.value.law == "ruling E9" and refused.value.field == "number"
    message = refused.value.message
    assert message.startswith("Taking off hand 3 would leave round 1 at table 1 undecided (")
    assert "won it, ruling P1), but its players have moved on from it (round 2 is " in message
    assert "a decided round stays decided" in message
    table.rubber.refresh_from_db()
    assert (
        table.rubber.hand_count == 3
        and not RemovedHand.objects.filter(rubber=table.rubber).exists()
    )
    assert rounds.round_as_dict(first)["tables"][0]["winner"] == "NS"
    assert points_of(tournament) == before


def test_the_last_rounds_deciding_deal_is_kept_once_the_tournament_is_over(make, commit):
    """Ruling E9: in the last round the players have moved on once every table has its
    result (the tournament over, ended by its director or its results declared final): its
    deciding deal is not taken off. While another table still plays, a deal recorded by
    mistake is taken off as before (the round in play at the table, ruling P1)."""
    tournament = make("rotation", deals=1)
    tournament.rounds_planned = 1
    tournament.save(update_fields=["rounds_planned"])
    first = seat(tournament)
    one, two = first.tables.order_by("number")
    deal(commit, one, {"makers": "NS", "tricks": 3})
    take_off(one, 1)  # table 2 still playing: the tournament is not over
    deal(commit, one, {"makers": "EW", "tricks": 3})
    deal(commit, two, {"makers": "NS", "tricks": 3})

    with pytest.raises(UserError) as refused:
        take_off(one, 1)
    assert refused.value.law == "ruling E9"
    assert "(round 1 was the tournament's last, and the tournament is over)" in (
        refused.value.message
    )
    rounds.tournament_results_final(tournament_id=tournament.pk)
    with pytest.raises(UserError) as refused:
        take_off(two, 1)
    assert "(the tournament is over, its results declared final at " in refused.value.message
    assert one.rubber.hands.count() == 1 and two.rubber.hands.count() == 1


def test_a_round_ended_after_by_its_director_keeps_its_deciding_deal(make, commit):
    """Ruling E9: a progressive its director ended after round 1 is over; the deal that
    decided a table of it is not taken off."""
    tournament = make("rotation", deals=1)
    first = seat(tournament)
    for table in first.tables.all():
        deal(commit, table, {"makers": "NS", "tricks": 3})
    rounds.tournament_end(tournament_id=tournament.pk)
    with pytest.raises(UserError) as refused:
        take_off(first.tables.get(number=2), 1)
    assert "(round 1 was the tournament's last, and the tournament is over)" in (
        refused.value.message
    )


def test_a_correction_on_the_rubbers_page_does_not_reopen_a_round_moved_on_from(make, commit):
    """Ruling E9, as for the take-off: the secretary's correction on the rubber's page (no
    director's check there) of round 1's second deal to E-W left it level, "one more
    deal", round 2 seated from its result. Refused, nothing changed; a correction that
    keeps a side winning it is made, as the referee's (the standings follow)."""
    tournament = make("rotation", deals=2)
    first = seat(tournament)
    for table in first.tables.all():
        deal(commit, table, {"makers": "NS", "tricks": 3})
        deal(commit, table, {"makers": "NS", "tricks": 3})
    seat(tournament)
    table = first.tables.get(number=1)

    def correct(hand):
        commit(
            recording.hand_correct, rubber_id=table.rubber_id, number=2, data=hand,
            is_secretary=True, reason="the makers were E-W",
        )  # fmt: skip

    with pytest.raises(UserError) as refused:
        correct({"makers": "EW", "tricks": 3})
    assert refused.value.law == "ruling E9" and refused.value.field == "hand"
    assert refused.value.message.startswith(
        "This correction of hand 2 would leave round 1 at table 1 undecided ("
    )
    assert "its players have moved on from it (round 2 is seated)" in refused.value.message
    assert table.rubber.hands.get(number=2).data["makers"] == "NS"
    assert rounds.round_as_dict(first)["tables"][0]["winner"] == "NS"
    correct({"makers": "NS", "tricks": 5})  # a march: N-S still win it
    assert table.rubber.hands.get(number=2).data["tricks"] == 5
