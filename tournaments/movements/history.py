"""What the rounds already played say about each player: whom he has partnered and met,
how many rounds he has played, and who should sit out next."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .seating import RoundResult


@dataclass(frozen=True)
class History:
    """Counts taken from the rounds played so far."""

    partners: Counter[frozenset[str]]
    opponents: Counter[frozenset[str]]
    played: Counter[str]

    @classmethod
    def of(cls, previous: Iterable[RoundResult]) -> History:
        """Count partnerships, opponent meetings and rounds played in `previous`."""
        partners: Counter[frozenset[str]] = Counter()
        opponents: Counter[frozenset[str]] = Counter()
        played: Counter[str] = Counter()
        for result in previous:
            for table in result.seating.tables:
                partners.update(table.partnerships)
                opponents.update(table.opponents)
                played.update(table.players)
        return cls(partners=partners, opponents=opponents, played=played)

    def have_partnered(self, first: str, second: str) -> bool:
        """Whether the two have already played as partners."""
        return self.partners[frozenset((first, second))] > 0


def choose_byes(
    players: Sequence[str], *, count: int, played: Counter[str], tie_break: Callable[[str], Any]
) -> list[str]:
    """The `count` players who sit out: those who have played the most rounds, ties
    settled by `tie_break` (smallest sits out first).

    Counting rounds played rather than rounds sat out is what keeps a late arrival at a
    table: he has played least, so he plays until he has caught up (in the spirit of
    law 17, which gives those who have not yet played the prior right of entry). Among
    players present from the first round it is the same as giving the bye to whoever has
    sat out least, so their byes never differ by more than one.
    """
    return sorted(players, key=lambda player: (-played[player], tie_break(player)))[:count]
