"""What a movement reads and writes: seatings, results, cuts and relaxed guarantees.

Everything here is a plain frozen dataclass that turns into JSON-ready dicts and back,
so a round's seating can be stored as it was made and read again to seat the next
round. Nothing here touches the database.

Seats are the compass points; partners sit opposite, so North-South play East-West.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

Seat = Literal["N", "E", "S", "W"]
Side = Literal["NS", "EW"]

SEATS: tuple[Seat, ...] = ("N", "E", "S", "W")
SIDES: tuple[Side, ...] = ("NS", "EW")


class MovementError(Exception):
    """A user error: the director asked for a seating the movement cannot make.

    Raised before anything is seated, so nothing stored changes.
    """


class Guarantee(StrEnum):
    """A promise a movement makes, named so that a relaxation can say which it gave up."""

    CHART = "chart"
    """Rotation: every table is a table of the chart (and so within its opponent bound)."""

    PROGRESSION = "progression"
    """Progressive: every table is formed by winners moving up and losers moving down."""

    NEW_PARTNER = "new-partner"
    """Nobody partners a player he has partnered before in the tournament."""

    BALANCED_BYES = "balanced-byes"
    """Nobody sits out while someone who has played more rounds plays (the byes go to those
    who have played most)."""


@dataclass(frozen=True)
class Relaxation:
    """A guarantee a movement could not keep for one round, and why."""

    guarantee: Guarantee
    detail: str

    def to_dict(self) -> dict[str, Any]:
        """The relaxation as JSON-ready data."""
        return {"guarantee": self.guarantee.value, "detail": self.detail}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Relaxation:
        """Read back what `to_dict` wrote."""
        return cls(guarantee=Guarantee(data["guarantee"]), detail=data["detail"])


@dataclass(frozen=True)
class Cut:
    """The cards one player cut for one purpose, in order: more than one means he tied
    and cut again (laws 13-14, ruling T1). Kept with the seating so that the seating
    can be checked later (ruling T10)."""

    purpose: str
    player: str
    cards: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """The cut as JSON-ready data."""
        return {"purpose": self.purpose, "player": self.player, "cards": list(self.cards)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Cut:
        """Read back what `to_dict` wrote."""
        return cls(purpose=data["purpose"], player=data["player"], cards=tuple(data["cards"]))


@dataclass(frozen=True)
class TableSeating:
    """One table of a round: its number (1 is the head table) and who sits in each seat."""

    number: int
    seats: Mapping[Seat, str]

    def __post_init__(self) -> None:
        if self.number < 1:
            raise ValueError(f"table numbers start at 1, not {self.number}")
        if sorted(self.seats) != sorted(SEATS):
            raise ValueError(f"table {self.number} must have exactly the seats N, E, S, W")
        if len(set(self.seats.values())) != len(SEATS):
            raise ValueError(f"table {self.number} seats the same player twice")

    @classmethod
    def of(cls, number: int, north: str, east: str, south: str, west: str) -> TableSeating:
        """A table from its four players in seat order N, E, S, W."""
        return cls(number=number, seats={"N": north, "E": east, "S": south, "W": west})

    @property
    def players(self) -> tuple[str, ...]:
        """The four players in seat order N, E, S, W."""
        return tuple(self.seats[seat] for seat in SEATS)

    def side(self, side: Side) -> tuple[str, str]:
        """The partnership playing `side`: (N, S) or (E, W)."""
        first, second = side
        return self.seats[first], self.seats[second]

    @property
    def partnerships(self) -> tuple[frozenset[str], frozenset[str]]:
        """The two partnerships at the table, North-South first."""
        return frozenset(self.side("NS")), frozenset(self.side("EW"))

    @property
    def opponents(self) -> tuple[frozenset[str], ...]:
        """The four pairs of players who play against each other at this table."""
        return tuple(
            frozenset((ours, theirs)) for ours in self.side("NS") for theirs in self.side("EW")
        )

    def to_dict(self) -> dict[str, Any]:
        """The table as JSON-ready data."""
        return {"number": self.number, "seats": {seat: self.seats[seat] for seat in SEATS}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableSeating:
        """Read back what `to_dict` wrote."""
        return cls(number=data["number"], seats=dict(data["seats"]))


@dataclass(frozen=True)
class RoundSeating:
    """A round as a movement seats it: the tables, the players sitting out (byes), the
    cards cut to make it, and any guarantee the movement had to relax."""

    round_number: int
    tables: tuple[TableSeating, ...]
    byes: tuple[str, ...] = ()
    cuts: tuple[Cut, ...] = ()
    relaxations: tuple[Relaxation, ...] = ()

    def __post_init__(self) -> None:
        if self.round_number < 1:
            raise ValueError(f"rounds are numbered from 1, not {self.round_number}")
        numbers = [table.number for table in self.tables]
        if numbers != list(range(1, len(self.tables) + 1)):
            raise ValueError(f"round {self.round_number}: tables must be numbered 1 to n in order")
        everyone = [*self.seated, *self.byes]
        if len(set(everyone)) != len(everyone):
            raise ValueError(f"round {self.round_number} places a player twice")

    @property
    def seated(self) -> tuple[str, ...]:
        """Everyone at a table, table by table in seat order."""
        return tuple(player for table in self.tables for player in table.players)

    @property
    def present(self) -> frozenset[str]:
        """Everyone the round accounted for: seated or sitting out."""
        return frozenset((*self.seated, *self.byes))

    def table(self, number: int) -> TableSeating:
        """The table with this number."""
        return self.tables[number - 1]

    def to_dict(self) -> dict[str, Any]:
        """The round's seating as JSON-ready data."""
        return {
            "round_number": self.round_number,
            "tables": [table.to_dict() for table in self.tables],
            "byes": list(self.byes),
            "cuts": [cut.to_dict() for cut in self.cuts],
            "relaxations": [relaxation.to_dict() for relaxation in self.relaxations],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundSeating:
        """Read back what `to_dict` wrote."""
        return cls(
            round_number=data["round_number"],
            tables=tuple(TableSeating.from_dict(table) for table in data["tables"]),
            byes=tuple(data.get("byes", ())),
            cuts=tuple(Cut.from_dict(cut) for cut in data.get("cuts", ())),
            relaxations=tuple(Relaxation.from_dict(r) for r in data.get("relaxations", ())),
        )


@dataclass(frozen=True)
class RoundResult:
    """A round that has been played: its seating and, table by table, the winning side.

    Only the progressive movement needs the winners; the others read the seating alone,
    so a table may still be missing its result when they seat the next round.
    """

    seating: RoundSeating
    winners: Mapping[int, Side] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for number, side in self.winners.items():
            if not 1 <= number <= len(self.seating.tables):
                raise ValueError(f"round {self.seating.round_number} has no table {number}")
            if side not in SIDES:
                raise ValueError(f"the winning side is NS or EW, not {side!r}")

    @property
    def round_number(self) -> int:
        """The number of the round played."""
        return self.seating.round_number

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data (table numbers become string keys, as JSON wants)."""
        return {
            "seating": self.seating.to_dict(),
            "winners": {str(number): side for number, side in sorted(self.winners.items())},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundResult:
        """Read back what `to_dict` wrote."""
        return cls(
            seating=RoundSeating.from_dict(data["seating"]),
            winners={int(number): side for number, side in data.get("winners", {}).items()},
        )


def check_request(
    *, round_number: int, players: Sequence[str], previous: Sequence[RoundResult]
) -> None:
    """Refuse a request no movement can seat; shared by every movement.

    A round number out of step with the rounds already played is a bug in the caller;
    too few players, or a player named twice, is the director's to put right.
    """
    expected = [result.round_number for result in previous]
    if expected != list(range(1, len(previous) + 1)) or round_number != len(previous) + 1:
        raise ValueError(
            f"round {round_number} must follow rounds 1 to {len(previous)}, got {expected}"
        )
    if len(set(players)) != len(players):
        twice = sorted({player for player in players if players.count(player) > 1})
        raise MovementError(f"round {round_number}: {', '.join(twice)} listed more than once")
    if len(players) < len(SEATS):
        raise MovementError(
            f"round {round_number}: four players are needed for a table, {len(players)} present"
        )
