"""The step every event handler works on: the working state, the event, the decisions, and
the helpers the law groups share (reading fields, refusing, joining a table, opening cuts)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import FormationError
from ..rules import PARTNERSHIP_PLAYERS, get_rule_set
from ..state import Decision, EveningState, Member, PendingCut, Table
from .wording import (
    FIELD_TEXT,
    PURPOSE_TEXT,
    action_text,
    purpose_cite,
)


class StepBase:
    """One event and a working copy of the state, collecting its decisions: what every law
    group's handlers share."""

    def __init__(self, state: EveningState, event: Mapping[str, Any]):
        self.state = state
        self.event = event
        self.rules = get_rule_set(state.rule_set)
        self.decisions: list[Decision] = []

    # -- helpers -----------------------------------------------------------------------------

    def cite(self, topic: str) -> str:
        return self.rules.cite(topic)

    def decide(self, law: str, text: str) -> None:
        self.decisions.append(Decision(self.state.events_applied, law, f"{law}: {text}"))

    def fail(self, law: str | None, text: str, field: str | None = None) -> FormationError:
        message = f"{law}: {text}" if law else text
        return FormationError(message, law=law, field=field)

    def field_player(self, name: str = "player") -> str:
        value = self.event.get(name)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(None, self.needs(name, value, "written as text"), name)
        return value

    def needs(self, name: str, value: object, form: str) -> str:
        """A field missing or of the wrong kind, in words: "a claim needs the player's
        name", "the table's number is a whole number"."""
        words = FIELD_TEXT[name]
        if value is None or (isinstance(value, str) and not value.strip()):
            return f"{action_text(self.event.get('type'))} needs {words}"
        return f"{words} is {form}"

    def present_player(self, name: str = "player") -> str:
        player = self.field_player(name)
        if player not in self.state.present:
            raise self.fail(self.cite("candidates"), f"{player} is not in the room", name)
        return player

    def field_table(self, name: str = "table") -> Table:
        number = self.event.get(name)
        if isinstance(number, bool) or not isinstance(number, int):
            raise self.fail(None, self.needs(name, number, "a whole number, such as 2"), name)
        table = self.state.table(number)
        if table is None:
            raise self.fail(None, f"there is no table {number} this evening", name)
        return table

    def member(self, table: Table, player: str) -> Member:
        return table.members[player]

    def free_for_a_seat(self, player: str, field: str, *, claim_at: Table | None = None) -> None:
        """Refuse a player who is busy elsewhere: at a table, sitting in, in a cut, or waiting
        on a claim at a table other than ``claim_at``."""
        state = self.state
        if (table := state.table_of(player)) is not None:
            raise self.fail(
                self.cite("change"),
                f"{player} belongs to table {table.number}; a player belongs to one table at a "
                f"time: to play at another, {player} changes tables and gives up the place at "
                f"table {table.number}",
                field,
            )
        if (table := state.substituting_at(player)) is not None:
            raise self.fail(
                self.cite("substitute"),
                f"{player} is sitting in as a substitute at table {table.number} until its "
                "rubber ends",
                field,
            )
        if (cut := state.cut_of(player)) is not None:
            raise self.fail(
                purpose_cite(self.rules, cut.purpose),
                f"{player} is in the cut {PURPOSE_TEXT[cut.purpose]}, which must be finished first",
                field,
            )
        if (table := state.claim_of(player)) is not None and table is not claim_at:
            raise self.fail(
                self.cite("claim"),
                f"{player} has claimed admission at table {table.number} and waits for it "
                "(withdraw the claim first)",
                field,
            )

    def open_cut(self, cut: PendingCut) -> None:
        self.state.pending = [c for c in self.state.pending if c.id != cut.id]
        self.state.pending.append(cut)

    def drop_cut_at(self, table: Table) -> PendingCut | None:
        cut = self.state.cut_at(table.number)
        if cut is not None:
            self.state.pending.remove(cut)
        return cut

    @staticmethod
    def sitting_runs(table: Table) -> bool:
        """Call-Ace: is a sitting in play at ``table``? Its first jack has named a dealer
        and four or more play (law 1)."""
        return table.dealer is not None and len(table.playing) >= PARTNERSHIP_PLAYERS

    def join(self, table: Table, player: str, *, play: bool, one_rubber: bool = False) -> None:
        """Make ``player`` a member of ``table``: he has now belonged to a table (law 17)."""
        state = self.state
        table.members[player] = Member(player, one_rubber=one_rubber)
        (table.playing if play else table.waiting).append(player)
        if player not in state.belonged:
            state.belonged.append(player)
        # Only a free candidate joins (reading T2-claims), so his one claim, if any, is here.
        if player in table.claims:
            table.claims.remove(player)
        if player in state.prior_right:
            state.prior_right.remove(player)
        # Ruling T8: joining a table uses a right of re-entry into it, and cutting into any
        # other gives the right up.
        state.reentry.pop(player, None)
        self.drop_announcements(player)

    def drop_announcements(self, player: str) -> None:
        """Ruling T13: an announcement lapses once its maker joins a table or leaves."""
        for other in self.state.tables:
            if player in other.announced:
                other.announced.remove(player)
