"""Movements: how the tables of a progressive tournament are seated, round by round.

A movement is pure computation, like a draw generator: it is given the round to seat,
the players present, the rounds already played and a random source, and returns the
seating. It never touches the database; the caller stores what it returns.

    movement = movement_for("rotation", rule_set="euchre-somerset-1888")
    seating = movement.seat_round(
        round_number=3, players=present, previous=results, rng=secrets.SystemRandom()
    )

`docs/movements.md` describes each movement, what it guarantees and where it stops.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Protocol

from .cut import CutMovement
from .cutting import CardsError, EnteredCards, Pack, pack_for
from .progressive import ProgressiveMovement
from .rotation import RotationMovement
from .seating import (
    SEATS,
    SIDES,
    Cut,
    Guarantee,
    MovementError,
    Relaxation,
    RoundResult,
    RoundSeating,
    Seat,
    Side,
    TableSeating,
)

__all__ = [
    "MOVEMENTS",
    "SEATS",
    "SIDES",
    "CardsError",
    "Cut",
    "CutMovement",
    "EnteredCards",
    "Guarantee",
    "Movement",
    "MovementError",
    "ProgressiveMovement",
    "Relaxation",
    "RotationMovement",
    "RoundResult",
    "RoundSeating",
    "Seat",
    "Side",
    "TableSeating",
    "movement_for",
]


class Movement(Protocol):
    """What every movement offers."""

    key: str
    title: str
    pack: Pack

    def max_rounds(self, *, player_count: int) -> int | None:
        """The most rounds the movement can seat for this many players; None if no limit."""
        ...

    def seat_round(
        self,
        *,
        round_number: int,
        players: Sequence[str],
        previous: Sequence[RoundResult],
        rng: random.Random,
        cards: Mapping[str, Sequence[str]] | None = None,
    ) -> RoundSeating:
        """Seat round `round_number` (previous holds rounds 1 to round_number - 1, in
        order) of `players`, those present for it. Deterministic given `rng`'s state.
        A round seated by a cut (round 1 of every movement, every round of the cut) cuts
        with cards drawn from `rng`, or, given `cards`, with the cards the players
        actually cut: each player's, in the order he cut them (ruling T10).
        Raises MovementError, changing nothing, when the round cannot be seated."""
        ...


MOVEMENTS: dict[str, Movement] = {
    movement.key: movement
    for movement in (CutMovement(), ProgressiveMovement(), RotationMovement())
}
"""The movements by key, cutting with the Euchre pack; see `movement_for` for Bridge."""


def movement_for(key: str, *, rule_set: str) -> Movement:
    """The movement `key`, cutting with the pack of `rule_set` (ruling T1): Euchre's four
    highest cards play, Bridge's four lowest."""
    try:
        movement = MOVEMENTS[key]
    except KeyError:
        raise MovementError(
            f"no movement {key!r}; the movements are {', '.join(sorted(MOVEMENTS))}"
        ) from None
    return dataclasses.replace(movement, pack=pack_for(rule_set))
