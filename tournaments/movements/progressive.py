"""Progressive euchre: winners move up a table, losers move down, and partners split.

Tables are numbered from 1, the head table, to n, the foot. After each round:

* the winners at table t move up to table t - 1, and the losers down to table t + 1;
* at the head table the winners stay, and at the foot table the losers stay;
* so every table receives two partnerships: the upper pair, from the table above
  (the head table's own winners at the head), and the lower pair, from the table
  below (the foot table's own losers at the foot). With one table the winners are
  the upper pair and the losers the lower.

The two pairs split so that each player partners one of the other pair. Each pair's
first player is the one who sat North or East in the round just played, its second the
one who sat South or West. The upper pair's first takes North and its second East; the
lower pair's first takes South and its second West, so that upper first partners lower
first and upper second partners lower second. If either of those partnerships has been
played before and the other split (lower second South, lower first West) repeats fewer,
the other split is used.

Round 1 is seated by the cut. When players sit out, arrive or leave, the progression is
kept for everyone else: see `ProgressiveMovement.seat_round`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from .cut import seat_by_cut
from .cutting import EUCHRE_PACK, CardsError, Pack
from .history import History, choose_byes
from .seating import (
    Guarantee,
    MovementError,
    Relaxation,
    RoundResult,
    RoundSeating,
    Side,
    TableSeating,
    check_request,
)

_OTHER_SIDE: dict[Side, Side] = {"NS": "EW", "EW": "NS"}


def progress(result: RoundResult) -> list[str]:
    """Where everyone at the tables of `result` goes next, as a ladder: table by table
    from the head, each table's upper pair then its lower pair, first player first."""
    tables = result.seating.tables
    foot = len(tables)

    def pair(number: int, *, won: bool) -> tuple[str, str]:
        winners = result.winners[number]
        return result.seating.table(number).side(winners if won else _OTHER_SIDE[winners])

    ladder: list[str] = []
    for number in range(1, foot + 1):
        upper = pair(1, won=True) if number == 1 else pair(number - 1, won=False)
        lower = pair(foot, won=False) if number == foot else pair(number + 1, won=True)
        ladder.extend((*upper, *lower))
    return ladder


@dataclass(frozen=True)
class ProgressiveMovement:
    """The customary progressive movement: see the module docstring.

    Guarantees: winners move up and losers down exactly as described, except where a
    player sits out, arrives or leaves (each such change is reported); a player
    partners someone he has partnered before only when both splits at his table would
    (reported too); players present throughout sit out within one round of each other.
    """

    pack: Pack = EUCHRE_PACK
    key: ClassVar[str] = "progressive"
    title: ClassVar[str] = "Progressive: winners up, losers down, partners split"

    def max_rounds(self, *, player_count: int) -> int | None:
        """The progression can go on for ever."""
        return None

    def seat_round(
        self,
        *,
        round_number: int,
        players: Sequence[str],
        previous: Sequence[RoundResult],
        rng: random.Random,
        cards: Mapping[str, Sequence[str]] | None = None,
    ) -> RoundSeating:
        """Seat round `round_number` of those present from the last round's results.

        Round 1 is cut for (laws 11-12), with the cards drawn from `rng` or those entered
        as cut (`cards`, ruling T10); later rounds have no cut.

        Afterwards: who sits out is chosen first,
        those who have played most, and among them those lowest on the ladder; their
        places, and the places of anyone who has left, are taken in order from the
        head down by those who sat out last round, then by new arrivals. If there are
        more players than places, new tables are made at the foot from the rest; if
        fewer, the players lowest on the ladder move up into the empty places, and the
        foot table goes.
        """
        check_request(round_number=round_number, players=players, previous=previous)
        history = History.of(previous)
        if not previous:
            return seat_by_cut(
                round_number=round_number,
                players=players,
                history=history,
                pack=self.pack,
                rng=rng,
                cards=cards,
            )
        if cards is not None:
            raise CardsError(
                f"round {round_number} is seated by the progression, not by a cut: "
                "there are no cards to enter"
            )
        last = previous[-1]
        unfinished = [
            str(table.number) for table in last.seating.tables if table.number not in last.winners
        ]
        if unfinished:
            raise MovementError(
                f"round {last.round_number} has no result at table {', '.join(unfinished)}: "
                "the progression needs every table's winners"
            )
        ladder = progress(last)
        rung = {player: index for index, player in enumerate(ladder)}
        last_byes = list(last.seating.byes)
        byes = choose_byes(
            players,
            count=len(players) % 4,
            played=history.played,
            tie_break=lambda p: (0, -rung[p]) if p in rung else (1, 0),
        )
        playing = set(players) - set(byes)
        fillers = sorted(
            (player for player in players if player in playing and player not in rung),
            key=lambda p: (0, last_byes.index(p)) if p in last_byes else (1, players.index(p)),
        )
        # The ladder's places, emptied of those who left or sit out, then filled again.
        slots: list[str | None] = [player if player in playing else None for player in ladder]
        size = len(playing)
        slots.extend([None] * (size - len(slots)))
        for index in range(size):
            if slots[index] is not None:
                continue
            if fillers:
                slots[index] = fillers.pop(0)
            else:
                lowest = max(i for i, player in enumerate(slots) if player is not None)
                slots[index], slots[lowest] = slots[lowest], None
        seated = [player for player in slots[:size] if player is not None]
        tables, repeats = [], []
        for start in range(0, size, 4):
            table, repeated = _split(start // 4 + 1, *seated[start : start + 4], history=history)
            tables.append(table)
            repeats.extend(repeated)
        return RoundSeating(
            round_number=round_number,
            tables=tuple(tables),
            byes=tuple(byes),
            relaxations=_relaxations(ladder, seated, repeats),
        )


def _split(
    number: int,
    upper_first: str,
    upper_second: str,
    lower_first: str,
    lower_second: str,
    *,
    history: History,
) -> tuple[TableSeating, list[tuple[str, str]]]:
    """Seat a table from its upper and lower pair; return it and any repeated partnership."""
    usual = ((upper_first, lower_first), (upper_second, lower_second))
    other = ((upper_first, lower_second), (upper_second, lower_first))
    usual_repeats = [pair for pair in usual if history.have_partnered(*pair)]
    other_repeats = [pair for pair in other if history.have_partnered(*pair)]
    if len(other_repeats) < len(usual_repeats):
        table = TableSeating.of(number, upper_first, upper_second, lower_second, lower_first)
        return table, other_repeats
    table = TableSeating.of(number, upper_first, upper_second, lower_first, lower_second)
    return table, usual_repeats


def _relaxations(
    ladder: list[str], seated: list[str], repeats: list[tuple[str, str]]
) -> tuple[Relaxation, ...]:
    """Report where the progression was broken and which partnerships had to repeat."""
    relaxations = []
    changes = [
        f"{player} at table {index // 4 + 1} in place of {ladder[index]}"
        if index < len(ladder)
        else f"{player} at new table {index // 4 + 1}"
        for index, player in enumerate(seated)
        if index >= len(ladder) or ladder[index] != player
    ]
    if changes:
        relaxations.append(
            Relaxation(
                Guarantee.PROGRESSION,
                "players sitting out, arriving or leaving: " + "; ".join(changes),
            )
        )
    if repeats:
        relaxations.append(
            Relaxation(
                Guarantee.NEW_PARTNER,
                "partners again, as both splits of their table repeat a partnership: "
                + "; ".join(f"{a} and {b}" for a, b in repeats),
            )
        )
    return tuple(relaxations)
