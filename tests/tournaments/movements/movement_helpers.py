"""Shared helpers for the movement tests: play a tournament through, and count what
happened in it, independently of the code under test."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from tournaments.movements import SIDES, Movement, RoundResult, RoundSeating


def players(count: int, prefix: str = "p") -> list[str]:
    """`count` player ids that sort in the order they are made."""
    return [f"{prefix}{number:02d}" for number in range(count)]


def play(
    movement: Movement,
    *,
    rounds: int,
    present: Callable[[int], Sequence[str]],
    seed: int = 0,
) -> list[RoundResult]:
    """Seat `rounds` rounds, `present(k)` being who is there for round k, with winners
    drawn at random; return the results."""
    rng = random.Random(seed)
    results: list[RoundResult] = []
    for number in range(1, rounds + 1):
        seating = movement.seat_round(
            round_number=number, players=list(present(number)), previous=results, rng=rng
        )
        results.append(
            RoundResult(seating, {table.number: rng.choice(SIDES) for table in seating.tables})
        )
    return results


def partnerships(seating: RoundSeating) -> list[frozenset[str]]:
    """The partnerships of a round: North with South, East with West."""
    return [
        frozenset((table.seats[a], table.seats[b]))
        for table in seating.tables
        for a, b in (("N", "S"), ("E", "W"))
    ]


def repeated_partnerships(results: Sequence[RoundResult]) -> dict[frozenset[str], int]:
    """Partnerships played more than once, and how often."""
    counts = Counter(pair for result in results for pair in partnerships(result.seating))
    return {pair: count for pair, count in counts.items() if count > 1}


def opponent_meetings(results: Sequence[RoundResult]) -> Counter[frozenset[str]]:
    """How often each two players sat on opposite sides of a table."""
    met: Counter[frozenset[str]] = Counter()
    for result in results:
        for table in result.seating.tables:
            for ours in (table.seats["N"], table.seats["S"]):
                for theirs in (table.seats["E"], table.seats["W"]):
                    met[frozenset((ours, theirs))] += 1
    return met


def bye_counts_after_each_round(
    results: Sequence[RoundResult], everyone: Sequence[str]
) -> list[Counter[str]]:
    """For each round, how often each of `everyone` has sat out so far."""
    sat_out: Counter[str] = Counter(dict.fromkeys(everyone, 0))
    history = []
    for result in results:
        sat_out.update(result.seating.byes)
        history.append(Counter(sat_out))
    return history
