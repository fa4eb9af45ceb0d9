"""Ruling P1: a round of fixed deals that ends level at a table goes on, one deal at a time,
until one side is ahead; the extra deals count like the others."""

import pytest

from club import recording
from config.api import UserError
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
