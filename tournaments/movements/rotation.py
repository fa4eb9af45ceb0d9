"""The rotation: a chart, cut for in round 1, under which nobody partners anyone twice.

The charts (see `charts`) are for 8 to 32 players. In round 1 everyone cuts for a place
on the chart: the best cut takes place 0, the next place 1, and so on. Later rounds
read the places back from round 1's seating and follow them through the rounds played
(`_Roster`), so nothing besides the rounds needs storing.

While nobody comes or goes, round k is round k of the chart. Arrivals and departures
do not stop it:

* a player who arrives takes the place of one who has left, if there is one, and the
  chart goes on for everyone as before;
* otherwise the round is planned afresh (`_seat`): the chart's rounds may be played in
  any order, since no two of them share a partnership, so the round of the chart that
  keeps most tables standing is played; the players it cannot seat (arrivals with no
  place, the rest of a table short of a leaver) are paired by `pairing.seat_pool`, with
  new partners wherever any pairing allows and with partnerships the chart still needs
  left alone where others will do.

Every round not seated wholly from the chart says so, and says which guarantee it gave
up (`Relaxation`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from .charts import MAX_PLAYERS, MIN_PLAYERS, Chart, ChartRound, rotation_chart
from .cutting import EUCHRE_PACK, CardsError, EnteredCards, Pack, cut_order
from .history import History, choose_byes
from .pairing import fewest_repeats, seat_pool
from .seating import (
    Guarantee,
    MovementError,
    Relaxation,
    RoundResult,
    RoundSeating,
    TableSeating,
    check_request,
)


def _chart_for(player_count: int, *, round_one: bool = False) -> Chart:
    """The chart for `player_count` players, or a MovementError saying there is none; for
    the players present at round 1 (`round_one`), what the director can do about it. A
    tournament's movement is fixed when it is created, so the refusal never tells him to
    choose another: he enters players, or some sit round 1 out at their own request (a
    bye out of turn) and play from round 2 as arrivals, which the rotation places."""
    if MIN_PLAYERS <= player_count <= MAX_PLAYERS:
        return rotation_chart(player_count)
    rule = f"the rotation movement seats {MIN_PLAYERS} to {MAX_PLAYERS} players from its charts"
    if not round_one:
        raise MovementError(f"{rule}, not {player_count}")
    if player_count < MIN_PLAYERS:
        short = MIN_PLAYERS - player_count
        raise MovementError(
            f"{rule}, and {player_count} are present for round 1: enter {short} more "
            f"player{'s' if short > 1 else ''} before seating it (the movement is chosen when "
            "the tournament is created and is not changed)"
        )
    over = player_count - MAX_PLAYERS
    raise MovementError(
        f"{rule}, and {player_count} are present for round 1: {over} of them must ask to sit "
        "round 1 out (a bye), or leave, before it is seated; one sitting it out plays from "
        "round 2, placed as an arrival (the movement is chosen when the tournament is created "
        "and is not changed)"
    )


def _places(first: RoundSeating) -> dict[int, str]:
    """Who took each place on the chart, read from round 1's seating."""
    chart_round = _chart_for(len(first.present)).rounds[0]
    if len(first.tables) != len(chart_round.tables) or len(first.byes) != len(chart_round.byes):
        raise MovementError("round 1 was not seated in the shape of a rotation chart")
    places = dict(zip(chart_round.byes, first.byes, strict=True))
    for table, places_at_table in zip(first.tables, chart_round.tables, strict=True):
        places.update(zip(places_at_table, table.players, strict=True))
    return places


@dataclass(frozen=True)
class _Roster:
    """The places on the chart as they stand for the round being seated.

    A player who leaves keeps his place, empty, and has it again if he comes back
    while it is still empty. A player who arrives (or comes back to find his place
    taken) takes the lowest empty place, arrivals in the order of their names, so that
    the chart goes on for everyone else as if nobody had changed. The record of rounds
    played, which decides byes, belongs to the place: an arrival in an empty place
    plays and sits out as the chart has that place do. An arrival with no place to take
    has his own record.
    """

    holders: dict[int, str]
    played: dict[str, int]

    @classmethod
    def replay(cls, previous: Sequence[RoundResult], players: Sequence[str]) -> _Roster:
        """Follow the places from round 1 through every round played, to this one."""
        holders = _places(previous[0].seating)
        place_played = dict.fromkeys(holders, 0)
        own_played: Counter[str] = Counter()
        attendance = [result.seating.present for result in previous[1:]] + [frozenset(players)]
        for result, present in zip(previous, attendance, strict=True):
            seated = set(result.seating.seated)
            own_played.update(seated)
            for place, holder in holders.items():
                place_played[place] += holder in seated
            empty = sorted(place for place, holder in holders.items() if holder not in present)
            holding = set(holders.values())
            arrivals = sorted(player for player in present if player not in holding)
            holders.update(zip(empty, arrivals, strict=False))
        played = dict(own_played)
        played.update({holders[place]: count for place, count in place_played.items()})
        return cls(holders=holders, played=played)


@dataclass(frozen=True)
class RotationMovement:
    """A rotation chart for 8 to 32 players; see the module docstring.

    Guarantees, while everyone present in round 1 stays and nobody arrives: nobody
    partners anyone twice; after every round nobody has sat out more than once more
    than anyone else; over the whole chart every two players meet as opponents exactly
    twice (player counts 4m and 4m + 1) or once or twice (4m + 2 and 4m + 3).

    When players come and go: a newcomer in a leaver's place changes nothing. Otherwise
    a partnership is repeated only when, with the players sitting out, no pairing of
    those at the tables avoids it; players present throughout sit out within one
    round of each other, or two where the chart is kept by making the one who left a
    phantom; and each round says which of these it had to give up.
    """

    pack: Pack = EUCHRE_PACK
    key: ClassVar[str] = "rotation"
    title: ClassVar[str] = "Rotation chart: a new partner every round"

    def max_rounds(self, *, player_count: int) -> int | None:
        """How many rounds the chart for `player_count` players has."""
        return len(_chart_for(player_count).rounds)

    def seat_round(
        self,
        *,
        round_number: int,
        players: Sequence[str],
        previous: Sequence[RoundResult],
        rng: random.Random,
        cards: Mapping[str, Sequence[str]] | None = None,
    ) -> RoundSeating:
        """Seat round `round_number` of those present: by the chart as far as it goes,
        and round by round for whoever it cannot place. Round 1 is cut for places on the
        chart, with the cards drawn from `rng` or those entered as cut (`cards`, T10)."""
        check_request(round_number=round_number, players=players, previous=previous)
        if not previous:
            chart = _chart_for(len(players), round_one=True)
            entered = (
                EnteredCards(cards, pack=self.pack, players=players) if cards is not None else None
            )
            order, cuts = cut_order(
                players, pack=self.pack, rng=rng, purpose="places on the chart", entered=entered
            )
            if entered is not None:
                entered.check_used()
            places = dict(enumerate(order))
            chart_round = chart.rounds[0]
            return RoundSeating(
                round_number=1,
                tables=tuple(
                    TableSeating.of(number, *(places[place] for place in table))
                    for number, table in enumerate(chart_round.tables, start=1)
                ),
                byes=tuple(places[place] for place in chart_round.byes),
                cuts=tuple(cuts),
            )
        if cards is not None:
            raise CardsError(
                f"round {round_number} is seated by the chart, not by a cut: "
                "there are no cards to enter"
            )
        return _seat(
            round_number=round_number,
            players=players,
            roster=_Roster.replay(previous, players),
            chart=rotation_chart(len(previous[0].seating.present)),
            history=History.of(previous),
        )


Seats = tuple[str, str, str, str]
"""Four players in seat order N, E, S, W."""


@dataclass(frozen=True)
class _Plan:
    """One way to seat the round: who sits out, the chart tables that stand, and how
    everyone else is seated."""

    byes: tuple[str, ...]
    tables: tuple[Seats, ...]
    off_chart: tuple[str, ...]
    pool: tuple[Seats, ...]
    repeats: tuple[tuple[str, str], ...]
    taken: int
    """How many of the pool's partnerships another round of the chart has still to play."""
    shortfall: int
    """Rounds fewer than someone who plays that the least played of those sitting out
    has played: 0 when byes are balanced."""


# How many plans a disturbed round may try in full before it takes the best so far.
_PLANS_TRIED = 16


def _seat(
    *,
    round_number: int,
    players: Sequence[str],
    roster: _Roster,
    chart: Chart,
    history: History,
) -> RoundSeating:
    """Seat a later round: the chart's tables that still stand, the rest round by round.

    The chart's rounds need not be played in order: each is a set of partnerships that
    no other round repeats. So when arrivals or departures spoil the round due, another
    round of the chart may be played instead, and the spoilt one later. Plans are made
    from every round of the chart, with balanced byes (chosen as usual, and with each
    other player who has played as often in place of the last one chosen) and, while
    a place is empty, with the byes the chart would give if the empty place were a
    phantom: its table-mates sit out, unless that has someone sit out who has played
    two rounds fewer than someone who plays.

    Plans are tried most promising first (byes balanced, every table from the chart,
    the round due) until one repeats no partnership and leaves the rest of the chart
    whole; failing that, the plan kept repeats fewest partnerships, then takes fewest
    from later rounds, then leaves byes most nearly balanced.
    """
    present = set(players)
    places = roster.holders
    place_of = {player: place for place, player in places.items()}
    played = Counter(roster.played)
    count = len(players) % 4
    tables_wanted = len(players) // 4
    chart_partnerships = [
        {
            frozenset((places[a], places[b]))
            for places_at_table in chart_round.tables
            for a, b in (places_at_table[0::2], places_at_table[1::2])
        }
        for chart_round in chart.rounds
    ]

    def by_place(player: str) -> tuple[bool, int, str]:
        return player not in place_of, place_of.get(player, 0), player

    def shortfall(byes: Sequence[str]) -> int:
        most_played = max((played[p] for p in present if p not in byes), default=0)
        return max(0, most_played - min((played[p] for p in byes), default=most_played))

    def byes_for(chart_round: ChartRound) -> list[list[str]]:
        """The ways of choosing byes worth trying with this round of the chart."""
        short = {
            place
            for table in chart_round.tables
            if any(places[p] not in present for p in table)
            for place in table
        }

        def preference(player: str) -> tuple[int, int, str]:
            place = place_of.get(player)
            if place is None:
                return 3, 0, player
            if place in chart_round.byes:
                return 0, place, player
            return (1 if place in short else 2), place, player

        usual = choose_byes(players, count=count, played=played, tie_break=preference)
        ways = [usual]
        if usual:
            last = usual[-1]
            ways.extend(
                [*usual[:-1], other]
                for other in sorted(players, key=preference)
                if other not in usual and played[other] == played[last]
            )
        as_phantom = sorted((p for p in players if preference(p)[0] < 2), key=preference)
        if len(as_phantom) == count and shortfall(as_phantom) <= 1:
            ways.append(as_phantom)
        return ways

    def standing(chart_round: ChartRound, byes: Sequence[str]) -> list[Seats]:
        """The round's tables whose players are all here, none sitting out, and whose
        partnerships are both new."""
        tables = []
        for places_at_table in chart_round.tables:
            north, east, south, west = (places[p] for p in places_at_table)
            if (
                all(p in present and p not in byes for p in (north, east, south, west))
                and not history.have_partnered(north, south)
                and not history.have_partnered(east, west)
            ):
                tables.append((north, east, south, west))
        return tables

    def complete(index: int, byes: Sequence[str], tables: list[Seats]) -> _Plan:
        """The plan, once everyone not at a standing table of the chart is seated.

        Partnerships that other rounds of the chart have still to play are kept for
        them where others will do; this round's own are free to use.
        """
        reserved = set().union(*chart_partnerships[:index], *chart_partnerships[index + 1 :])
        playing = sorted(present - set(byes), key=by_place)
        on_chart = {player for table in tables for player in table}
        off_chart = [player for player in playing if player not in on_chart]
        pool, repeats = seat_pool(off_chart, history=history, reserved=reserved)
        if repeats and fewest_repeats(playing, history=history) < len(repeats):
            # The chart's tables force partners again that seating the whole round
            # afresh avoids: a new partner comes before the chart.
            tables, off_chart = [], playing
            pool, repeats = seat_pool(off_chart, history=history, reserved=reserved)
        return _Plan(
            byes=tuple(byes),
            tables=tuple(tables),
            off_chart=tuple(off_chart),
            pool=tuple(pool),
            repeats=tuple(repeats),
            taken=sum(
                frozenset(pair) in reserved
                for north, east, south, west in pool
                for pair in ((north, south), (east, west))
            ),
            shortfall=shortfall(byes),
        )

    due = round_number - 1
    if due < len(chart.rounds):
        # Nobody has come or gone out of turn: the round due, as the chart has it.
        usual = byes_for(chart.rounds[due])[0]
        tables = standing(chart.rounds[due], usual)
        if len(tables) == tables_wanted and not shortfall(usual):
            return _seating(round_number, complete(due, usual, tables), played=played)
    candidates = [
        (index, byes, standing(chart.rounds[index], byes))
        for index in sorted(range(len(chart.rounds)), key=lambda index: index != due)
        for byes in byes_for(chart.rounds[index])
    ]
    # Stable: among equals the round due, and the usual byes, stay first.
    candidates.sort(key=lambda c: (len(c[2]) < tables_wanted, shortfall(c[1]), -len(c[2])))
    plans = []
    for index, byes, tables in candidates[:_PLANS_TRIED]:
        plans.append(complete(index, byes, tables))
        if not plans[-1].repeats and not plans[-1].taken:
            break
    best = min(plans, key=lambda plan: (len(plan.repeats), plan.taken, plan.shortfall))
    return _seating(round_number, best, played=played)


def _seating(round_number: int, plan: _Plan, *, played: Counter[str]) -> RoundSeating:
    """The round's seating from the plan chosen, saying what it had to give up."""
    tables = [
        TableSeating.of(number, *seats)
        for number, seats in enumerate((*plan.tables, *plan.pool), start=1)
    ]
    relaxations = []
    if plan.off_chart:
        relaxations.append(
            Relaxation(
                Guarantee.CHART,
                "seated off the chart, after arrivals, departures or byes out of turn: "
                + ", ".join(plan.off_chart),
            )
        )
    if plan.shortfall:
        relaxations.append(
            Relaxation(
                Guarantee.BALANCED_BYES,
                "sitting out ahead of players who have played more rounds, so that the "
                "chart's tables stand: "
                + ", ".join(f"{p} ({played[p]} played)" for p in plan.byes),
            )
        )
    if plan.repeats:
        relaxations.append(
            Relaxation(
                Guarantee.NEW_PARTNER,
                "partners again: with these sitting out, every pairing of the players "
                "repeats as many: " + "; ".join(f"{a} and {b}" for a, b in plan.repeats),
            )
        )
    return RoundSeating(
        round_number=round_number,
        tables=tuple(tables),
        byes=plan.byes,
        relaxations=tuple(relaxations),
    )
