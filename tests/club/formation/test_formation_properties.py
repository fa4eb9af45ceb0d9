"""Properties over random evenings: random sequences of events, legal and illegal, drawn from
what the state allows. Whatever happens, the laws' invariants hold, refusals change nothing,
cutting out takes the longest-playing, and the log replays to the same state."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from club.formation import (
    BRIDGE,
    CALL_ACE,
    EUCHRE,
    EveningState,
    FormationError,
    apply,
    draw_event,
    get_rule_set,
    new_evening,
    replay,
)

NAMES = [
    "Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal",
    "Ivy", "Jay", "Kit", "Lou", "May", "Ned", "Oli", "Pam",
]  # fmt: skip

#: How often each kind of event is tried: cuts and rubbers often, so evenings move on.
KINDS = (
    ["cut"] * 10
    + ["rubber_end"] * 5
    + ["arrive"] * 4
    + ["form_table"] * 2
    + ["claim"] * 4
    + [
        "bad_cut",
        "depart",
        "withdraw",
        "substitute",
        "leave",
        "change_table",
        "break_up",
        "hand",
    ]
)


def draw_event_for(data: st.DataObject, state: EveningState) -> dict:
    """One event the secretary might enter now: mostly sensible, sometimes wild (and then
    often illegal)."""
    kind = data.draw(st.sampled_from(KINDS), label="kind")
    wild = data.draw(st.integers(0, 4), label="wild") == 0

    def pick(sensible, anything, label: str):
        pool = list(anything) if wild or not sensible else list(sensible)
        return data.draw(st.sampled_from(pool), label=label)

    present = state.present or NAMES[:1]
    candidates = state.candidates
    numbers = [t.number for t in state.tables] or [1]
    in_rubber = [t.number for t in state.tables if t.in_rubber]
    if kind == "cut":
        seed = data.draw(st.integers(0, 2**16), label="seed")
        return draw_event(state, random.Random(seed)) or {"type": "form_table"}
    if kind == "bad_cut":
        players = data.draw(st.lists(st.sampled_from(present), min_size=1, unique=True))
        cards = st.sampled_from(["JS", "JH", "7C", "5D", "AS"])
        return {"type": "cut", "cards": {p: data.draw(cards) for p in players}}
    if kind == "arrive":
        absent = [name for name in NAMES if name not in state.present]
        return {"type": "arrive", "player": pick(absent, NAMES, "player")}
    if kind == "depart":
        return {"type": "depart", "player": pick(candidates, present, "player")}
    if kind == "withdraw":
        claimants = [p for t in state.tables for p in t.claims]
        return {"type": "withdraw", "player": pick(claimants, present, "player")}
    if kind == "form_table":
        return {"type": "form_table"}
    if kind == "claim":
        return {
            "type": "claim",
            "player": pick(candidates, present, "player"),
            "table": pick(numbers, [*numbers, 99], "table"),
        }
    if kind in ("rubber_end", "hand"):
        return {"type": kind, "table": pick(in_rubber, numbers, "table")}
    if kind == "substitute":
        number = pick(in_rubber, numbers, "table")
        table = state.table(number)
        playing = table.playing if table and table.playing else present
        player = data.draw(st.sampled_from(playing), label="player")
        others = [table.occupant(p) for p in playing if p != player] if table else []
        return {
            "type": "substitute",
            "table": number,
            "player": player,
            "substitute": pick(candidates, present, "substitute"),
            "consent": others[:2] if wild else others,
        }
    if kind == "leave":
        number = data.draw(st.sampled_from(numbers), label="table")
        table = state.table(number)
        members = list(table.members) if table else []
        return {"type": "leave", "table": number, "player": pick(members, present, "player")}
    if kind == "change_table":
        members = [p for t in state.tables for p in t.members]
        return {
            "type": "change_table",
            "player": pick(members, present, "player"),
            "table": data.draw(st.sampled_from([*numbers, "new"]), label="table"),
        }
    number = data.draw(st.sampled_from(numbers), label="table")
    table = state.table(number)
    broken_by = data.draw(st.sampled_from([None, *(table.members if table else [])]))
    return {"type": "break_up", "table": number, "broken_by": broken_by}


def check_invariants(state: EveningState) -> None:
    """What the laws require of every state of an evening."""
    rules = get_rule_set(state.rule_set)
    assert len(set(state.present)) == len(state.present)
    belongs: dict[str, int] = {}
    for table in state.tables:
        members = set(table.members)
        # A player belongs to at most one table.
        assert not members & belongs.keys(), (members, belongs)
        belongs.update(dict.fromkeys(members, table.number))
        assert members <= set(state.present)
        assert set(table.playing) | set(table.waiting) == members
        assert not set(table.playing) & set(table.waiting)
        assert len(table.members) <= rules.most_members  # law 12: at most six (Call-Ace 7)
        cut = state.cut_at(table.number)
        if rules.partnership:
            assert len(table.playing) <= 4
            assert len(table.waiting) <= 2
            assert len(table.members) + len(table.claims) <= 6
            if table.in_rubber:
                # Exactly four play during a rubber, partners opposite.
                assert len(table.playing) == 4
                assert table.seated and set(table.seats.values()) == set(table.playing)
                assert table.dealer == table.seats["N"]
                assert cut is None
            elif len(table.playing) == 4:
                assert cut is not None and cut.purpose in ("partners-and-deal", "cut-out")
            else:
                assert cut is None
            assert set(table.substitutes) <= set(table.playing)
            assert not table.substitutes or table.in_rubber
        else:
            assert not table.in_rubber and not table.claims and not table.waiting
            if len(table.playing) < 4:
                assert cut is None
            else:
                assert (table.dealer is None) == (cut is not None)
        for sub in table.substitutes.values():
            assert sub in state.present
            assert sub not in belongs or belongs[sub] == table.number
    for table in state.tables:
        # Claimants are candidates; one may sit in as a substitute at the table he claims.
        assert set(table.claims) <= {*state.candidates, *table.substitutes.values()}
    cutting: set[str] = set()
    for cut in state.pending:
        players = set(cut.cutters)
        assert players <= set(state.present)
        assert not players & cutting  # nobody is in two cuts at once
        cutting |= players
        if state.rule_set == BRIDGE:
            assert cut.round == 1  # a Bridge cut never ties
    sitting_in = {s for t in state.tables for s in t.substitutes.values()}
    assert set(state.prior_right) <= {*state.candidates, *sitting_in}
    busy = set(belongs) | {s for t in state.tables for s in t.substitutes.values()}
    assert state.candidates == [p for p in state.present if p not in busy]


def check_cutting_out(before: EveningState, after: EveningState, applied: dict) -> None:
    """Law 15 / ruling T5: those who go out have played at least as many consecutive rubbers
    as any who stay (law 19's replacements first)."""
    for old in before.tables:
        new = after.table(old.number)
        if new is None:
            continue
        out = [p for p in old.playing if p in new.waiting]
        if not out:
            continue
        event("cut-out")
        ended = applied["type"] == "rubber_end" and applied["table"] == old.number

        def key(player: str, old=old, ended=ended) -> tuple[bool, int]:
            member = old.members[player]
            played = member.consecutive + (1 if ended else 0)
            return member.one_rubber and played >= 1, played

        stayed = [p for p in old.playing if p in new.playing]
        assert min(map(key, out)) >= max(map(key, stayed), default=(False, 0)), (out, stayed)


def walk_an_evening(data: st.DataObject, rule_set: str) -> None:
    state = new_evening(rule_set)
    log: list[dict] = []
    for _ in range(data.draw(st.integers(10, 120), label="length")):
        applied = draw_event_for(data, state)
        before = state.to_dict()
        try:
            after, decisions = apply(state, applied)
        except FormationError as error:
            assert state.to_dict() == before  # never half-applied
            assert error.message
            event(f"refused: {applied['type']}")
            continue
        assert state.to_dict() == before  # apply never changes the state it is given
        assert all(d.law and d.text.startswith(d.law) for d in decisions)
        check_invariants(after)
        check_cutting_out(state, after, applied)
        event(f"applied: {applied['type']}")
        state = after
        log.append(applied)
    # The log replays to the same state, and the state survives JSON both ways.
    assert replay(rule_set, log) == state
    assert EveningState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


@pytest.mark.long  # started first (tests/conftest.py): 10 to 25 s on CI
@settings(max_examples=150, deadline=None)
@given(st.data())
def test_random_euchre_evenings_keep_the_laws(data):
    walk_an_evening(data, EUCHRE)


@pytest.mark.long  # started first (tests/conftest.py): 10 to 25 s on CI
@settings(max_examples=100, deadline=None)
@given(st.data())
def test_random_bridge_evenings_keep_the_laws(data):
    walk_an_evening(data, BRIDGE)


@pytest.mark.long  # started first (tests/conftest.py): 10 to 25 s on CI
@settings(max_examples=60, deadline=None)
@given(st.data())
def test_random_call_ace_evenings_keep_the_laws(data):
    walk_an_evening(data, CALL_ACE)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rule_set=st.sampled_from([EUCHRE, BRIDGE]))
def test_law_19_at_a_full_table_of_six_each_player_gets_his_two_consecutive_rubbers(seed, rule_set):
    """Six members, nobody coming or going: after the first rubber (where all four have
    played one and cut, law 15), every player who goes out has played exactly two rubbers in
    a row, and every one who stays in exactly one."""
    rng = random.Random(seed)
    state = new_evening(rule_set)
    for player in NAMES[:6]:
        state, _ = apply(state, {"type": "arrive", "player": player})
    state, _ = apply(state, {"type": "form_table"})
    for rubber in range(1, 10):
        while (cut := draw_event(state, rng)) is not None:
            state, _ = apply(state, cut)
        before = state.table(1)
        state, _ = apply(state, {"type": "rubber_end", "table": 1})
        while state.pending[0].purpose == "cut-out":
            state, _ = apply(state, draw_event(state, rng))
        after = state.table(1)
        out = [p for p in before.playing if p in after.waiting]
        stayed = [p for p in before.playing if p in after.playing]
        assert len(out) == 2 and len(stayed) == 2
        played = {p: before.members[p].consecutive + 1 for p in before.playing}
        if rubber == 1:
            assert set(played.values()) == {1}
        else:
            assert [played[p] for p in out] == [2, 2]
            assert [played[p] for p in stayed] == [1, 1]
