"""Running an evening through the service and the API: the log, the tables, the rubbers,
cutting in and out, the ledger, closing, replaying; every figure checked by the laws."""

import io
import json
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.test import Client

from club import evening_log, evenings, recording
from club.formation import FormationError
from club.models import Cut, Evening, EveningEvent
from config.api import Conflict, UserError
from scoring.models import Rubber
from tests.worlds import assert_replayed

SIX = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank"]
MARCH, THREE = {"makers": "NS", "tricks": 5}, {"makers": "NS", "tricks": 3}
# Three games of march, march, three tricks: N-S win every game double (ruling E3) and the
# third game is always played (ruling E1): 2 + 2 + 2 + 2 for the rubber = 8 (ruling E4).
SWEEP = [MARCH, MARCH, THREE] * 3


def act(evening, **event):
    return evenings.evening_act(evening_id=evening.pk, event=event)


def state(evening):
    evening.refresh_from_db()
    return evenings.evening_summary(evening=evening)


def table(evening, number=1):
    return next(t for t in state(evening)["tables"] if t["number"] == number)


def seat_six(evening):
    """Six arrive; all cut (ruling T3): Euchre's four highest play, knave highest (T1)."""
    for name in SIX:
        act(evening, type="arrive", player=name)
    act(evening, type="form_table")
    act(evening, type="cut", cards={"Ann": "JS", "Bob": "AS", "Cora": "KS", "Dan": "QS",
                                     "Edith": "10S", "Frank": "9S"})  # fmt: skip
    # Ruling T4: the two highest play against the two lowest; the highest deals.
    act(evening, type="cut", cards={"Ann": "JH", "Bob": "AH", "Cora": "KH", "Dan": "QH"})


def record(evening, hands, number=1):
    for hand in hands:
        recording.hand_record(evening_id=evening.pk, table_number=number, data=hand)


def test_a_table_of_six_is_formed_by_the_cut(club, evening):
    seat_six(evening)
    t = table(evening)
    assert sorted(t["playing"]) == ["Ann", "Bob", "Cora", "Dan"]
    assert t["waiting"] == ["Edith", "Frank"]  # law 12: the fifth and sixth belong
    assert t["dealer"] == "Ann"
    assert t["partners"] == {"NS": ["Ann", "Bob"], "EW": ["Cora", "Dan"]}
    rubber = Rubber.objects.get(evening=evening)
    assert rubber.players == {"NS": ["Ann", "Bob"], "EW": ["Cora", "Dan"]}
    assert rubber.table.number == 1 and rubber.table.token
    # Ruling T10: every card cut is kept with what it decided.
    cuts = list(Cut.objects.filter(evening=evening))
    assert [c.purpose for c in cuts] == ["form-table", "partners-and-deal"]
    assert cuts[0].cards["Ann"] == "JS"
    assert cuts[1].decided


def test_each_player_gets_his_two_consecutive_rubbers(club, evening):
    seat_six(evening)
    record(evening, SWEEP)
    rubber = Rubber.objects.get(evening=evening)
    assert (rubber.status, rubber.winner, rubber.value) == ("complete", "NS", 8)
    # Law 15, ruling T5: the waiting members claim; all four have played one rubber, so
    # they cut, and the lowest (Euchre) go out.
    pending = state(evening)["pending_cuts"]
    assert pending[0]["purpose"] == "cut-out"
    assert sorted(pending[0]["players"]) == ["Ann", "Bob", "Cora", "Dan"]
    act(evening, type="cut", cards={"Ann": "JC", "Bob": "AC", "Cora": "7C", "Dan": "8C"})
    t = table(evening)
    assert sorted(t["playing"]) == ["Ann", "Bob", "Edith", "Frank"]
    assert t["waiting"] == ["Cora", "Dan"] or t["waiting"] == ["Dan", "Cora"]
    act(evening, type="cut", cards={"Ann": "JD", "Edith": "AD", "Bob": "KD", "Frank": "QD"})
    record(evening, SWEEP)
    # Now Ann and Bob have played two consecutive rubbers, Edith and Frank one: Ann and Bob
    # go out without a cut, and Cora and Dan come in.
    t = table(evening)
    assert sorted(t["playing"]) == ["Cora", "Dan", "Edith", "Frank"]
    assert sorted(t["waiting"]) == ["Ann", "Bob"]
    consecutive = {m["player"]: m["consecutive_rubbers"] for m in t["members"]}
    assert consecutive["Edith"] == 1 and consecutive["Ann"] == 0


def test_the_ledger_adds_to_zero_at_the_stake(club, evening):
    seat_six(evening)
    record(evening, SWEEP)
    ledger = evenings.evening_ledger(evening=evening)
    # Ruling M1: each winner receives 8 x 0.25 from one loser.
    assert ledger == {"Ann": Decimal("2.00"), "Bob": Decimal("2.00"),
                      "Cora": Decimal("-2.00"), "Dan": Decimal("-2.00")}  # fmt: skip
    assert sum(ledger.values()) == 0


def test_every_action_is_in_the_log_and_a_replay_reproduces_the_evening(club, evening, tmp_path):
    seat_six(evening)
    record(evening, SWEEP)
    while state(evening)["pending_cuts"]:
        act(evening, type="cut", draw=True)  # drawn by the service (ruling T10)
    record(evening, [MARCH])
    recording.hand_correct(
        evening_id=evening.pk, table_number=1, rubber_number=2, number=1, data=THREE
    )
    log = evening_log.evening_export(evening=evening)
    types = [e["type"] for e in log["events"]]
    assert types.count("arrive") == 6 and "hand" in types and "correction" in types
    assert "rubber_end" in types  # logged, marked automatic
    drawn = [e for e in log["events"] if e.get("drawn")]
    assert drawn and all(isinstance(e["cards"], dict) for e in drawn)
    before = state(evening)

    Evening.objects.all().delete()
    path = tmp_path / "evening.json"
    path.write_text(json.dumps(log))
    out = io.StringIO()
    call_command("replay_evening", str(path), stdout=out)
    replayed = json.loads(out.getvalue())
    assert_replayed(replayed, before)


def test_a_stale_device_gets_a_conflict_and_changes_nothing(club, evening):
    seat_six(evening)
    seen = Evening.objects.get(pk=evening.pk).version
    recording.hand_record(evening_id=evening.pk, table_number=1, data=MARCH, expected_version=seen)
    with pytest.raises(Conflict):
        recording.hand_record(
            evening_id=evening.pk, table_number=1, data=MARCH, expected_version=seen
        )
    assert Rubber.objects.get(evening=evening).hand_count == 1


@pytest.mark.parametrize(
    ("event", "law"),
    [
        ({"type": "claim", "player": "Ann", "table": 1}, None),  # a member, not a candidate
        ({"type": "substitute", "table": 1, "player": "Ann", "substitute": "Grace",
          "consent": ["Bob"]}, "law 18"),
    ],
)  # fmt: skip
def test_illegal_actions_name_the_law_and_change_nothing(club, evening, event, law):
    seat_six(evening)
    act(evening, type="arrive", player="Grace")
    before = Evening.objects.get(pk=evening.pk)
    with pytest.raises(FormationError) as error:
        act(evening, **event)
    if law:
        assert law in (error.value.law or "")
    after = Evening.objects.get(pk=evening.pk)
    assert (after.version, after.state) == (before.version, before.state)


def test_a_seventh_member_is_refused_by_law_12(club, evening):
    seat_six(evening)
    act(evening, type="arrive", player="Grace")
    with pytest.raises(FormationError) as error:
        act(evening, type="claim", player="Grace", table=1)
    assert "12" in (error.value.law or error.value.message)


def test_a_hand_at_a_table_whose_rubber_has_not_begun(club, evening):
    for name in SIX[:4]:
        act(evening, type="arrive", player=name)
    act(evening, type="form_table")  # four: a table without cutting, partners still to cut
    with pytest.raises(UserError) as error:
        record(evening, [MARCH])
    assert error.value.law == "ruling T4"


def test_closing_freezes_and_reopening_needs_a_reason(club, evening):
    seat_six(evening)
    evenings.evening_close(
        evening_id=evening.pk,
        rubbers=[{"table": 1, "rubber": 1, "outcome": "abandoned", "reason": "closing time"}],
    )
    with pytest.raises(UserError):
        act(evening, type="arrive", player="Grace")
    with pytest.raises(UserError):
        record(evening, [MARCH])
    with pytest.raises(UserError) as error:
        evenings.evening_reopen(evening_id=evening.pk, reason=" ")
    assert error.value.field == "reason"
    evenings.evening_reopen(evening_id=evening.pk, reason="Hugh's hand was missed")
    assert EveningEvent.objects.filter(evening=evening, type="reopen").get().data["reason"]
    record(evening, [MARCH])


def test_a_table_breaking_up_mid_rubber_abandons_it(club, evening):
    seat_six(evening)
    record(evening, [MARCH, THREE])
    act(evening, type="break_up", table=1)
    rubber = Rubber.objects.get(evening=evening)
    assert rubber.status == "abandoned" and rubber.hand_count == 2
    assert not rubber.settlements.exists()  # law 21: nothing is won on it
    assert evenings.evening_ledger(evening=evening) == {}
    with pytest.raises(UserError) as error:
        recording.hand_record(rubber_id=rubber.pk, data=MARCH)
    assert error.value.law == "law 21"


def test_a_correction_that_would_finish_an_abandoned_rubber_wins_it_nothing(club, evening):
    """Law 21: a rubber whose table broke up has no winner and settles nothing; a later
    correction (ruling E9) changes its figures but does not revive it, so it still
    settles nothing, even when the corrected hands would have won it."""
    seat_six(evening)
    record(evening, SWEEP[:8])  # two games won, the third at 4 to 0
    act(evening, type="break_up", table=1)
    rubber = Rubber.objects.get(evening=evening)
    recording.hand_correct(
        rubber_id=rubber.pk, number=8, data={**MARCH, "alone": True}, reason="it was alone",
        is_secretary=True,
    )  # fmt: skip
    rubber.refresh_from_db()
    assert rubber.status == "abandoned" and rubber.hand_count == 8
    assert len(rubber.summary["games"]) == 3  # the corrected hand won the third game
    assert (rubber.winner, rubber.value) == ("", None)
    assert not rubber.settlements.exists()
    assert evenings.evening_ledger(evening=evening) == {}
    assert not rubber.seats.filter(stake_won__gt=0).exists()
    page = Client().get(f"/clubs/{club.slug}/rubbers/{rubber.pk}/").content.decode()
    assert "it settles nothing (law 21)" in page and "Rubber to" not in page


def test_a_substitute_plays_on_and_the_rubber_is_booked_to_the_absent_player(club, evening):
    seat_six(evening)
    act(evening, type="substitute", table=1, player="Dan", substitute="Edith",
        consent=["Ann", "Bob", "Cora"])  # fmt: skip
    record(evening, SWEEP)
    rubber = Rubber.objects.get(evening=evening)
    assert rubber.players["EW"] == ["Cora", "Dan"]  # ruling T6: booked to Dan
    consecutive = {m["player"]: m["consecutive_rubbers"] for m in table(evening)["members"]}
    assert consecutive["Dan"] == 1 and consecutive["Edith"] == 0
    # The club's book names who played it: the sheet and the hands CSV (law 18).
    from club.exports import hands_rows, sheet_rubbers

    said = "Ann & Bob v Cora & Dan (Edith for Dan, law 18)"
    assert sheet_rubbers(evening=evening)[0]["players"] == said
    rows = hands_rows(evening=evening)
    assert {row[rows[0].index("players")] for row in rows[1:]} == {said}
    club.is_public = True
    club.save(update_fields=["is_public"])
    page = Client().get(f"/clubs/{club.slug}/evenings/{evening.pk}/").content.decode()
    assert "Cora & Dan</a> <span" in page and "(Edith for Dan, law 18)" in page  # the results


def test_a_substitution_undone_is_named_nowhere(club, evening):
    from club import evening_undo
    from club.exports import sheet_rubbers

    seat_six(evening)
    act(evening, type="substitute", table=1, player="Dan", substitute="Edith",
        consent=["Ann", "Bob", "Cora"])  # fmt: skip
    evening_undo.evening_undo(evening_id=evening.pk)
    record(evening, SWEEP)
    assert sheet_rubbers(evening=evening)[0]["players"] == "Ann & Bob v Cora & Dan"


def test_a_removed_hand_is_in_the_log_and_the_replay(club, evening, tmp_path):
    seat_six(evening)
    record(evening, [MARCH, THREE])
    recording.hand_remove(
        evening_id=evening.pk, table_number=1, rubber_number=1, number=2,
        reason="entered twice",
    )  # fmt: skip
    log = evening_log.evening_export(evening=evening)
    assert log["events"][-1] == {"type": "hand_removed", "table": 1, "rubber": 1, "number": 2,
                                 "reason": "entered twice"}  # fmt: skip
    replayed = evening_log.evening_replay(log=log, club=club)
    assert Rubber.objects.get(evening=replayed).hand_count == 1


def test_an_action_json_cannot_hold_is_refused(club, evening):
    with pytest.raises(UserError) as error:
        act(evening, type="claim", player="Ann", table=float("inf"))
    assert "plain JSON" in error.value.message
    assert Evening.objects.get(pk=evening.pk).version == 0
