"""The table-formation engine: an evening's event log in, tables, cuts and decisions out.

``apply(state, event)`` is pure: it works on a copy of the state and either returns the new
state with the decisions the event led to, or raises FormationError and changes nothing. Every
decision names the law and ruling behind it. The events are documented in docs/evening-log.md,
and the readings of the laws taken here in docs/laws-tables.md (each named "Reading ..." in the
code where it applies).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from ..cards import draw_cut, throw_for_jack
from ..errors import FormationError
from ..rules import PARTNERSHIP_PLAYERS, get_rule_set
from ..state import Decision, EveningState
from .claims import Claims
from .cutting import Cutting
from .forming import Forming
from .leaving import Leaving
from .wording import (
    ACTION_TEXT,
    FORM_CUT,
    PASS_THROUGH,
    SERVICE_TEXT,
    count,
    cut_text,
    free_candidates,
    not_an_action,
    purpose_cite,
)


def new_evening(rule_set: str) -> EveningState:
    """An empty evening played under ``rule_set`` (``euchre-somerset-1888``,
    ``bridge-elwell-1907`` or ``call-ace-foster-1905``)."""
    return EveningState(rule_set=get_rule_set(rule_set).key)


def apply(state: EveningState, event: Mapping[str, Any]) -> tuple[EveningState, list[Decision]]:
    """Apply one event of the evening's log; return the new state and the decisions it led to.

    Raises FormationError for an illegal or malformed event; ``state`` is never changed.
    """
    if not isinstance(event, Mapping):
        raise FormationError(
            "an action of the evening is a JSON object saying what is done: its type, "
            "such as arrive or claim",
            field="type",
        )
    kind = event.get("type")
    if kind in PASS_THROUGH:
        return replace(state, events_applied=state.events_applied + 1), []
    handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise FormationError(
            not_an_action(
                kind, what="an action of the evening's log", known={**ACTION_TEXT, **SERVICE_TEXT}
            ),
            field="type",
        )
    step = _Step(copy.deepcopy(state), event)
    handler(step)
    step.state.events_applied += 1
    step.state.decisions = (*step.state.decisions, *step.decisions)
    return step.state, step.decisions


def replay(rule_set: str, events: Iterable[Mapping[str, Any]]) -> EveningState:
    """Project a whole event log onto an empty evening."""
    state = new_evening(rule_set)
    for event in events:
        state, _ = apply(state, event)
    return state


def required(state: EveningState) -> list[dict[str, Any]]:
    """What the laws require next, for the secretary's board: cuts to make and by whom,
    rubbers to finish, places to fill, candidates enough to form a table."""
    rules = get_rule_set(state.rule_set)
    board: list[dict[str, Any]] = []
    for cut in sorted(state.pending, key=lambda c: (c.table is None, c.table or 0, c.id)):
        if cut.purpose == "first-jack":
            board.append(
                {
                    "kind": "deal_jack",
                    "table": cut.table,
                    "players": list(cut.cutters),
                    "law": rules.cite("first_jack"),
                    "text": f"throw a card round table {cut.table} face up; the first jack deals",
                }
            )
            continue
        board.append(
            {
                "kind": "cut",
                "cut_id": cut.id,
                "purpose": cut.purpose,
                "table": cut.table,
                "players": list(cut.cutters),
                "round": cut.round,
                "law": purpose_cite(rules, cut.purpose),
                "text": cut_text(cut),
            }
        )
    fewest = PARTNERSHIP_PLAYERS
    for table in state.tables:
        if table.in_rubber:
            board.append(
                {
                    "kind": "rubber",
                    "table": table.number,
                    "players": [table.occupant(player) for player in table.playing],
                    "law": rules.cite("rubber"),
                    "text": f"rubber {table.rubbers_played + 1} in progress at table "
                    f"{table.number}",
                }
            )
        elif len(table.playing) < fewest:
            short = fewest - len(table.playing)
            board.append(
                {
                    "kind": "seat",
                    "table": table.number,
                    "places": short,
                    "law": rules.cite("claim"),
                    "text": f"table {table.number} is {count(short, 'player')} short: "
                    "a candidate may claim the place",
                }
            )
    free = free_candidates(state)
    if len(free) >= fewest and not any(cut.id == FORM_CUT for cut in state.pending):
        board.append(
            {
                "kind": "form_table",
                "candidates": free,
                "law": rules.cite("form"),
                "text": f"{count(len(free), 'candidate')} may form a fresh table",
            }
        )
    return board


def draw_event(
    state: EveningState,
    rng: random.Random,
    *,
    table: int | None = None,
    cut_id: str | None = None,
) -> dict[str, Any] | None:
    """The ``cut`` or ``deal_jack`` event for a pending cut, its cards drawn from ``rng``
    (ruling T10): the cut named ``cut_id``, else the one at ``table`` (a Call-Ace throw
    for the first jack, law 1), else the first waiting; None when no such cut is pending.
    With two tables waiting, the button under the second draws for the second."""
    cuts = state.pending
    if cut_id is not None:
        cuts = [c for c in cuts if c.id == cut_id]
    elif table is not None:
        cuts = [c for c in cuts if c.table == table]
    if not cuts:
        return None
    cut = cuts[0]
    if cut.purpose == "first-jack":
        return {"type": "deal_jack", "table": cut.table, "cards": throw_for_jack(cut.cutters, rng)}
    cards = draw_cut(cut.cutters, rng, rule_set=state.rule_set)
    return {"type": "cut", "cut_id": cut.id, "cards": cards}


class _Step(Forming, Cutting, Claims, Leaving):
    """Applies one event to a working copy of the state, collecting its decisions; each law
    group's handlers live in their own module."""


_HANDLERS: dict[str, Callable[[_Step], None]] = {
    "arrive": _Step.arrive,
    "depart": _Step.depart,
    "form_table": _Step.form_table,
    "cut": _Step.cut,
    "deal_jack": _Step.deal_jack,
    "claim": _Step.claim,
    "withdraw": _Step.withdraw,
    "rubber_end": _Step.rubber_end,
    "substitute": _Step.substitute,
    "leave": _Step.leave,
    "change_table": _Step.change_table,
    "break_up": _Step.break_up,
    "dealer_choice": _Step.dealer_choice,
    "announce": _Step.announce,
}
