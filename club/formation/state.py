"""The state of a club evening as the laws of table formation see it, and its JSON form.

States are values: ``engine.apply`` never changes the state it is given, it works on a copy.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

#: Seats in playing order, partners opposite: North-South against East-West.
SEATS = ("N", "E", "S", "W")


@dataclass(frozen=True)
class Decision:
    """One thing the laws decided, and why: ``law`` names the law and ruling, ``text`` explains.

    ``event`` is the index in the evening's log of the event that led to it.
    """

    event: int
    law: str
    text: str

    def __deepcopy__(self, memo: dict) -> Decision:
        return self  # immutable: copies of a state share their decisions

    def to_dict(self) -> dict[str, Any]:
        return {"event": self.event, "law": self.law, "text": self.text}


@dataclass
class Member:
    """A member of a table: playing, or a waiting member (law 12)."""

    player: str
    #: Consecutive rubbers played without going out (law 15); a rubber played by a substitute
    #: is booked to the absent player (ruling T6).
    consecutive: int = 0
    #: Rubbers played (booked) at this table this evening.
    rubbers: int = 0
    #: Law 19 / ruling T7: took the place of a player who left a full table after one of his
    #: two rubbers, and goes out at the end of one rubber, as his predecessor would have done.
    one_rubber: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "consecutive_rubbers": self.consecutive,
            "rubbers": self.rubbers,
            "goes_out_after_one_rubber": self.one_rubber,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Member:
        return cls(
            data["player"],
            data["consecutive_rubbers"],
            data["rubbers"],
            data["goes_out_after_one_rubber"],
        )


@dataclass
class Table:
    """A table of the evening."""

    number: int
    #: Every member in the order he joined: the players and the waiting members.
    members: dict[str, Member] = field(default_factory=dict)
    #: Who plays the rubber in progress or the next one. Once the partners are cut (``seated``)
    #: in seat order N, E, S, W. At Call-Ace: all the players, in their order round the table.
    playing: list[str] = field(default_factory=list)
    #: Waiting members, in the order they began waiting (ruling T5).
    waiting: list[str] = field(default_factory=list)
    seated: bool = False
    dealer: str | None = None
    in_rubber: bool = False
    rubbers_played: int = 0
    #: Candidates who have claimed admission (law 16), in order: prior rights first (law 21,
    #: ruling T8), then in the order they claimed.
    claims: list[str] = field(default_factory=list)
    #: Absent player -> his substitute, for the rest of the rubber in progress (law 18).
    substitutes: dict[str, str] = field(default_factory=dict)
    #: A card has been cut at this table since its last rubber ended: too late to claim (law 16).
    cut_begun: bool = False
    #: Ruling T13 (Bridge): candidates who announced, while the table had six members, the
    #: desire to succeed any player who retires; the first has the first vacancy.
    announced: list[str] = field(default_factory=list)
    #: Ruling T12: the dealer's choice for the rubber in progress, as the secretary recorded it
    #: ({"seat": "E", "cards": ..., "counters": ...}); he must abide by it (law 11).
    choice: dict[str, str] = field(default_factory=dict)

    @property
    def seats(self) -> dict[str, str] | None:
        return dict(zip(SEATS, self.playing, strict=True)) if self.seated else None

    def occupant(self, player: str) -> str:
        """Who actually sits in ``player``'s seat: his substitute, if he has one."""
        return self.substitutes.get(player, player)

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "seats": self.seats,
            "playing": list(self.playing),
            "waiting": list(self.waiting),
            "dealer": self.dealer,
            "members": [member.to_dict() for member in self.members.values()],
            "rubber_in_progress": self.in_rubber,
            "rubbers_played": self.rubbers_played,
            "claims": list(self.claims),
            "substitutes": dict(self.substitutes),
            "cut_begun": self.cut_begun,
            "announced": list(self.announced),
            "dealer_choice": dict(self.choice),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Table:
        members = [Member.from_dict(member) for member in data["members"]]
        return cls(
            number=data["number"],
            members={member.player: member for member in members},
            playing=list(data["playing"]),
            waiting=list(data["waiting"]),
            seated=data["seats"] is not None,
            dealer=data["dealer"],
            in_rubber=data["rubber_in_progress"],
            rubbers_played=data["rubbers_played"],
            claims=list(data["claims"]),
            substitutes=dict(data["substitutes"]),
            cut_begun=data["cut_begun"],
            # States stored before rulings T12 and T13 have neither.
            announced=list(data.get("announced", [])),
            choice=dict(data.get("dealer_choice", {})),
        )


@dataclass
class PendingCut:
    """A cut the laws require and the secretary has still to enter.

    ``purpose`` is one of ``form-table`` (ruling T3), ``partners-and-deal`` (T4), ``cut-out``
    (law 15 / T5), ``break-up`` (law 21 / T9) and ``first-jack`` (Call-Ace law 1). ``tiers`` is
    the standing so far, strongest claim first (see ``ranking``); ``boundaries`` the positions
    the cut must decide; ``cutters`` exactly the players who must cut now (for ``first-jack``,
    the players in their order round the table). ``rounds`` records every card cut (T10).
    """

    id: str
    purpose: str
    table: int | None
    cutters: list[str]
    tiers: list[list[str]] = field(default_factory=list)
    boundaries: list[int] = field(default_factory=list)
    round: int = 1
    rounds: list[dict[str, str]] = field(default_factory=list)
    context: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "purpose": self.purpose,
            "table": self.table,
            "players": list(self.cutters),
            "tiers": [list(tier) for tier in self.tiers],
            "boundaries": list(self.boundaries),
            "round": self.round,
            "rounds": [dict(cards) for cards in self.rounds],
            "context": copy.deepcopy(self.context),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PendingCut:
        return cls(
            id=data["id"],
            purpose=data["purpose"],
            table=data["table"],
            cutters=list(data["players"]),
            tiers=[list(tier) for tier in data["tiers"]],
            boundaries=list(data["boundaries"]),
            round=data["round"],
            rounds=[dict(cards) for cards in data["rounds"]],
            context=copy.deepcopy(data["context"]),
        )


@dataclass
class EveningState:
    """An evening's tables, candidates and pending cuts, projected from its event log."""

    rule_set: str
    #: Everyone in the room, in order of arrival (ruling T2).
    present: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    #: Law 17: who has belonged to or played at a table this evening, in that order.
    belonged: list[str] = field(default_factory=list)
    #: Law 21 / ruling T9: players of a broken-up table with the prior right to places at the
    #: other tables, in order of precedence.
    prior_right: list[str] = field(default_factory=list)
    #: Ruling T8, Bridge: player -> the table he may return to after making up a fresh one.
    reentry: dict[str, int] = field(default_factory=dict)
    pending: list[PendingCut] = field(default_factory=list)
    decisions: tuple[Decision, ...] = ()
    next_table: int = 1
    events_applied: int = 0

    # -- reading the state -------------------------------------------------------------------

    @property
    def candidates(self) -> list[str]:
        """Players in the room who belong to no table, in order of arrival (ruling T2). A
        player sitting in as a substitute is at a table until the rubber ends, so not one."""
        busy = {player for table in self.tables for player in table.members}
        busy.update(sub for table in self.tables for sub in table.substitutes.values())
        return [player for player in self.present if player not in busy]

    def table(self, number: int) -> Table | None:
        return next((table for table in self.tables if table.number == number), None)

    def table_of(self, player: str) -> Table | None:
        """The table ``player`` belongs to, if any."""
        return next((table for table in self.tables if player in table.members), None)

    def substituting_at(self, player: str) -> Table | None:
        return next((t for t in self.tables if player in t.substitutes.values()), None)

    def claim_of(self, player: str) -> Table | None:
        return next((table for table in self.tables if player in table.claims), None)

    def cut_of(self, player: str) -> PendingCut | None:
        """The pending cut ``player`` takes part in or waits on, if any: a cut-out counts the
        players claiming admission whom it will let in."""
        for cut in self.pending:
            if (
                player in cut.cutters
                or any(player in tier for tier in cut.tiers)
                or player in cut.context.get("entrants", ())
            ):
                return cut
        return None

    def cut_at(self, number: int) -> PendingCut | None:
        return next((cut for cut in self.pending if cut.table == number), None)

    # -- JSON ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The state as JSON-ready data; ``from_dict`` reads it back."""
        return {
            "rule_set": self.rule_set,
            "present": list(self.present),
            "candidates": self.candidates,
            "tables": [table.to_dict() for table in self.tables],
            "belonged_or_played": list(self.belonged),
            "prior_right": list(self.prior_right),
            "right_of_reentry": dict(self.reentry),
            "pending_cuts": [cut.to_dict() for cut in self.pending],
            "decisions": [decision.to_dict() for decision in self.decisions],
            "next_table": self.next_table,
            "events_applied": self.events_applied,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EveningState:
        """Read back ``to_dict``'s output (``candidates`` is derived, so not read)."""
        return cls(
            rule_set=data["rule_set"],
            present=list(data["present"]),
            tables=[Table.from_dict(table) for table in data["tables"]],
            belonged=list(data["belonged_or_played"]),
            prior_right=list(data["prior_right"]),
            reentry={player: int(n) for player, n in data["right_of_reentry"].items()},
            pending=[PendingCut.from_dict(cut) for cut in data["pending_cuts"]],
            decisions=tuple(Decision(**decision) for decision in data["decisions"]),
            next_table=data["next_table"],
            events_applied=data["events_applied"],
        )
