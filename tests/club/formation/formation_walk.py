"""A driver for walking an evening event by event, and checking refusals leave it unchanged."""

from __future__ import annotations

import pytest

from club.formation import (
    EveningState,
    FormationError,
    Table,
    apply,
    new_evening,
    replay,
)


class Walk:
    """An evening being walked through: ``walk("cut", cards={...})`` applies one event."""

    def __init__(self, rule_set: str):
        self.rule_set = rule_set
        self.state: EveningState = new_evening(rule_set)
        self.log: list[dict] = []
        self.said: list[str] = []

    def __call__(self, kind: str, **fields) -> list[str]:
        event = {"type": kind, **fields}
        self.state, decisions = apply(self.state, event)
        self.log.append(event)
        self.said = [decision.text for decision in decisions]
        return self.said

    def arrive(self, *players: str) -> None:
        for player in players:
            self("arrive", player=player)

    def refused(self, kind: str, **fields) -> FormationError:
        """Apply an illegal event: it must raise FormationError and change nothing."""
        before = self.state.to_dict()
        with pytest.raises(FormationError) as caught:
            apply(self.state, {"type": kind, **fields})
        assert self.state.to_dict() == before
        return caught.value

    def table(self, number: int) -> Table:
        table = self.state.table(number)
        assert table is not None
        return table

    def pending(self, table: int | None = None):
        cuts = [cut for cut in self.state.pending if cut.table == table]
        assert len(cuts) == 1, cuts
        return cuts[0]

    def must_cut(self, table: int | None = None) -> list[str]:
        return sorted(self.pending(table).cutters)

    def consecutive(self, number: int) -> dict[str, int]:
        return {p: m.consecutive for p, m in self.table(number).members.items()}

    def mentions(self, *fragments: str) -> bool:
        return all(any(fragment in line for line in self.said) for fragment in fragments)

    def replays_to_same_state(self) -> bool:
        return replay(self.rule_set, self.log).to_dict() == self.state.to_dict()
