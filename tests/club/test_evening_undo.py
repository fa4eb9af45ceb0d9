"""Undoing the last board action (issue #15, item 4): an `undo` event in the log whose
effect is replaying the log without the action it names; refused, with the reason, when
the last entry is a hand, the evening is closed, or the action settled a rubber."""

from decimal import Decimal

import pytest

from club import evening_log, evenings, recording
from club.evening_undo import evening_undo
from club.formation import engine
from club.models import Cut, Evening, EveningEvent, Table
from core.errors import Conflict, UserError
from scoring.models import Rubber

pytestmark = pytest.mark.django_db

SIX = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank"]
MARCH = {"makers": "NS", "tricks": 5}


def act(evening, **event):
    return evenings.evening_act(evening_id=evening.pk, event=event)


def fresh(evening) -> Evening:
    return Evening.objects.get(pk=evening.pk)


def form_six(evening):
    for name in SIX:
        act(evening, type="arrive", player=name)
    act(evening, type="form_table")
    act(evening, type="cut", cards={"Ann": "JS", "Bob": "AS", "Cora": "KS", "Dan": "QS",
                                     "Edith": "10S", "Frank": "9S"})  # fmt: skip


PARTNERS = {"Ann": "JH", "Bob": "AH", "Cora": "KH", "Dan": "QH"}


def test_an_undone_arrival_is_as_if_it_never_was(club, evening, secretary):
    act(evening, type="arrive", player="Ann")
    before = fresh(evening).state
    act(evening, type="arrive", player="Bob")
    logged = evening_undo(evening_id=evening.pk, user=secretary, reason="Bob is next door")
    evening = fresh(evening)
    assert evening.state == before
    assert evening.state["present"] == ["Ann"]
    assert logged.data == {"type": "undo", "undoes": 2, "action": "arrive",
                           "reason": "Bob is next door"}  # fmt: skip
    assert logged.by_user == secretary and evening.version == 3
    # Bob may come in after all, and the evening goes on from the state before the undo.
    act(evening, type="arrive", player="Bob")
    assert fresh(evening).state["present"] == ["Ann", "Bob"]


def test_undoing_the_cut_that_began_a_rubber_takes_the_rubber_back(club, evening):
    form_six(evening)
    before = fresh(evening).state
    cut = act(evening, type="cut", cards=PARTNERS)
    assert Rubber.objects.filter(evening=evening).count() == 1
    evening_undo(evening_id=evening.pk)
    evening = fresh(evening)
    assert evening.state == before
    assert not Rubber.objects.filter(evening=evening).exists()
    assert not Cut.objects.filter(event=cut).exists()
    assert EveningEvent.objects.get(pk=cut.pk).data["cards"] == PARTNERS  # the log keeps it
    # Cut again (other cards): one rubber, its hands numbered from the first.
    act(evening, type="cut", cards={"Ann": "AH", "Bob": "JH", "Cora": "KH", "Dan": "QH"})
    recording.hand_record(evening_id=evening.pk, table_number=1, data=MARCH)
    rubber = Rubber.objects.get(evening=evening)
    assert rubber.hand_count == 1 and fresh(evening).state["tables"][0]["dealer"] == "Bob"


def test_undoing_the_table_formed_takes_its_phone_link_back(club, evening):
    for name in SIX[:4]:
        act(evening, type="arrive", player=name)
    act(evening, type="form_table")  # four: the table is formed at once (ruling T3)
    token = Table.objects.get(evening=evening, number=1).token
    evening_undo(evening_id=evening.pk)
    assert not Table.objects.filter(evening=evening).exists()
    assert fresh(evening).state["tables"] == []
    act(evening, type="form_table")
    assert Table.objects.get(evening=evening, number=1).token != token


def test_a_hand_since_the_action_is_not_undone(club, evening):
    form_six(evening)
    act(evening, type="cut", cards=PARTNERS)
    recording.hand_record(evening_id=evening.pk, table_number=1, data=MARCH)
    version = fresh(evening).version
    with pytest.raises(UserError) as error:
        evening_undo(evening_id=evening.pk)
    assert "A hand has been recorded or changed at table 1 since" in error.value.message
    assert "ruling E9" in error.value.message and error.value.code == "cannot_undo"
    assert fresh(evening).version == version


def test_only_the_last_action_and_only_once(club, evening):
    act(evening, type="arrive", player="Ann")
    act(evening, type="arrive", player="Bob")
    evening_undo(evening_id=evening.pk)
    with pytest.raises(UserError) as error:
        evening_undo(evening_id=evening.pk)
    assert "undone already" in error.value.message
    assert fresh(evening).state["present"] == ["Ann"]


def test_a_closed_evening_and_a_stale_board_are_refused(club, evening):
    act(evening, type="arrive", player="Ann")
    with pytest.raises(Conflict):
        evening_undo(evening_id=evening.pk, expected_version=0)  # the board saw version 0
    evenings.evening_close(evening_id=evening.pk)
    with pytest.raises(UserError) as error:
        evening_undo(evening_id=evening.pk)
    assert "closed" in error.value.message
    assert fresh(evening).state["present"] == ["Ann"]


def test_an_action_that_abandoned_a_rubber_is_not_undone(club, evening):
    form_six(evening)
    act(evening, type="cut", cards=PARTNERS)
    recording.hand_record(evening_id=evening.pk, table_number=1, data=MARCH)
    act(evening, type="break_up", table=1)  # law 21: the rubber is abandoned, its hand stands
    with pytest.raises(UserError) as error:
        evening_undo(evening_id=evening.pk)
    assert "ended the rubber at table 1" in error.value.message
    assert Rubber.objects.get(evening=evening).status == Rubber.Status.ABANDONED
    assert fresh(evening).state["tables"] == []


def test_a_replayed_log_with_an_undo_reaches_the_same_state(club, evening):
    for name in SIX[:4]:
        act(evening, type="arrive", player=name)
    act(evening, type="form_table")
    act(evening, type="cut", cards=PARTNERS)
    recording.hand_record(evening_id=evening.pk, table_number=1, data=MARCH)
    act(evening, type="arrive", player="Gus")
    act(evening, type="claim", player="Gus", table=1)
    evening_undo(evening_id=evening.pk, reason="he only came to watch")
    before = evenings.evening_summary(evening=fresh(evening))
    log = evening_log.evening_export(evening=fresh(evening))
    assert log["events"][-1] == {"type": "undo", "undoes": 9, "action": "claim",
                                 "reason": "he only came to watch"}  # fmt: skip
    replayed = evening_log.evening_replay(log=log, club=club)
    after = evenings.evening_summary(evening=replayed)
    for key in ("present", "candidates", "tables", "pending_cuts", "required"):
        assert after[key] == before[key], key
    # The same rubbers (new rows: their ids are the replayed evening's own).
    assert [{**r, "id": None} for r in after["rubbers"]] == [
        {**r, "id": None} for r in before["rubbers"]
    ]
    # The same state, decisions aside (worded from the log, whose JSON may hold a cut's
    # cards in another order); and the engine, given the log without the undone entry,
    # agrees.
    state = {k: v for k, v in fresh(evening).state.items() if k != "decisions"}
    assert {k: v for k, v in replayed.state.items() if k != "decisions"} == state
    kept = [e for e in log["events"][:-2] if e["type"] != "hand"]
    expected = engine.replay("euchre-somerset-1888", kept).to_dict()
    assert {k: v for k, v in expected.items() if k != "decisions"} == state


def test_a_replayed_undo_must_name_the_last_entry(club, evening):
    log = {
        "format": evening_log.LOG_FORMAT,
        "club": {"name": "Somerset Club", "slug": "somerset"},
        "evening": {"date": "1888-11-21", "ruleset": "euchre-somerset-1888"},
        "events": [{"type": "arrive", "player": "Ann"}, {"type": "arrive", "player": "Bob"},
                   {"type": "undo", "undoes": 1}],
    }  # fmt: skip
    with pytest.raises(UserError) as error:
        evening_log.evening_replay(log=log, club=club)
    assert error.value.field == "events[2].undoes"


def test_call_ace_the_first_jack_undone_takes_the_sitting_back(club):
    evening = evenings.evening_open(
        club=club, date="1888-11-21", ruleset="call-ace-foster-1905", stake=Decimal("0.10")
    )
    for name in ["Ann", "Bob", "Cora", "Dan", "Edith"]:
        act(evening, type="arrive", player=name)
    act(evening, type="form_table")
    order = fresh(evening).state["tables"][0]["playing"]
    before = fresh(evening).state
    act(evening, type="deal_jack", table=1, cards=[[order[0], "9S"], [order[1], "JD"]])
    assert Rubber.objects.filter(evening=evening).count() == 1  # law 1: the sitting begins
    evening_undo(evening_id=evening.pk, reason="the jack was thrown out of turn")
    assert fresh(evening).state == before
    assert not Rubber.objects.filter(evening=evening).exists()
    # Thrown again, the other way: a jack to the third player, who deals.
    act(evening, type="deal_jack", table=1,
        cards=[[order[0], "9S"], [order[1], "KH"], [order[2], "JC"]])  # fmt: skip
    assert fresh(evening).state["tables"][0]["dealer"] == order[2]
    assert Rubber.objects.get(evening=evening).players == order


def test_an_undone_dealers_choice_gives_the_rubber_back_its_sides(club, evening):
    form_six(evening)
    act(evening, type="cut", cards=PARTNERS)
    rubber = Rubber.objects.get(evening=evening)
    sides = rubber.players
    before = fresh(evening).state
    act(evening, type="dealer_choice", table=1, seat="S")  # ruling T12
    assert Rubber.objects.get(pk=rubber.pk).players != sides
    evening_undo(evening_id=evening.pk)
    assert Rubber.objects.get(pk=rubber.pk).players == sides
    assert fresh(evening).state == before


# The API's door to the same service: POST .../evenings/<id>/undo/ (the board's Undo).


def undo_url(evening) -> str:
    return f"/api/v1/clubs/{evening.club.slug}/evenings/{evening.pk}/undo/"


def test_the_api_undoes_the_last_action_and_says_which(club, evening, secretary, secretary_api):
    act(evening, type="arrive", player="Ann")
    act(evening, type="arrive", player="Bob")
    version = fresh(evening).version
    answer = secretary_api.post(
        undo_url(evening),
        {"reason": "Bob is next door", "expected_version": version, "undoes": 2},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["undone"] == "Bob arrives"
    assert body["event"] == {"type": "undo", "undoes": 2, "action": "arrive",
                             "reason": "Bob is next door"}  # fmt: skip
    assert body["evening"]["evening"]["version"] == version + 1
    evening = fresh(evening)
    assert evening.state["present"] == ["Ann"] and evening.version == version + 1
    assert EveningEvent.objects.get(evening=evening, type="undo").by_user == secretary


def test_the_api_refuses_with_the_field_and_the_reason_and_changes_nothing(
    club, evening, secretary_api
):
    form_six(evening)
    act(evening, type="cut", cards=PARTNERS)
    version = fresh(evening).version

    def refused(body, status, field):
        answer = secretary_api.post(undo_url(evening), body, format="json")
        assert answer.status_code == status, answer.content
        error = answer.json()["error"]
        assert error["field"] == field and error["message"], error
        assert fresh(evening).version == version  # nothing written
        return error

    refused({"expected_version": version - 1}, 409, None)  # the device had not seen the cut
    assert "entry 3" in refused({"undoes": 3}, 400, "undoes")["message"]
    refused({"reason": ["not", "text"]}, 400, "reason")
    refused({"expected_version": "soon"}, 400, "expected_version")
    recording.hand_record(evening_id=evening.pk, table_number=1, data=MARCH)
    version = fresh(evening).version
    error = refused({}, 400, "type")  # a hand since: corrected or taken off instead
    assert error["code"] == "cannot_undo" and "ruling E9" in error["message"]
