"""Seating players round by round, when no chart says where they sit.

Used by the rotation movement for players it cannot seat from its chart (arrivals,
departures, byes out of turn, rounds beyond the chart). Partners are chosen first, so
that nobody partners anyone twice where that can be helped; then partnerships are
put together at tables so that players meet the opponents they have met least.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from .history import History

Pair = tuple[str, str]


def seat_pool(
    players: Sequence[str], *, history: History, reserved: Collection[frozenset[str]] = ()
) -> tuple[list[tuple[str, str, str, str]], list[Pair]]:
    """Seat `players` (a multiple of four) at tables.

    Returns the tables, four players each in seat order N, E, S, W, and the
    partnerships among them that repeat one already played: as few as any pairing of
    these players allows. Partnerships in `reserved` (those a chart has still to play)
    are new too, but are used only where the others do not suffice.
    """
    partnerships = _partners(players, history=history, reserved=reserved)
    tables = _tables(partnerships, history=history)
    repeats = [pair for pair in partnerships if history.have_partnered(*pair)]
    return [(first[0], second[0], first[1], second[1]) for first, second in tables], repeats


def fewest_repeats(players: Sequence[str], *, history: History) -> int:
    """How many partnerships must repeat, at the least, to pair off `players`."""
    matched = _maximum_matching(players, joined=lambda a, b: not history.have_partnered(a, b))
    return len(players) // 2 - len(matched)


def _partners(
    players: Sequence[str], *, history: History, reserved: Collection[frozenset[str]]
) -> list[Pair]:
    """Pair everyone off, repeating as few partnerships as possible.

    A maximum matching of the new partnerships that are not reserved comes first; it
    is then grown into a maximum matching of all new partnerships (growing a matching
    by augmenting paths never unmatches anyone). Whoever is left over partners again.
    """
    free = _maximum_matching(
        players,
        joined=lambda a, b: not history.have_partnered(a, b) and frozenset((a, b)) not in reserved,
    )
    partnerships = _maximum_matching(
        players, joined=lambda a, b: not history.have_partnered(a, b), start=free
    )
    paired = {player for pair in partnerships for player in pair}
    left_over = [player for player in players if player not in paired]
    return partnerships + list(zip(left_over[::2], left_over[1::2], strict=True))


def _maximum_matching(
    players: Sequence[str], *, joined: Callable[[str, str], bool], start: Sequence[Pair] = ()
) -> list[Pair]:
    """A largest set of pairs of `players` who are `joined`, nobody in two, grown from
    the pairs in `start`: Edmonds' blossom algorithm."""
    count = len(players)
    index = {player: i for i, player in enumerate(players)}
    adjacent = [
        [j for j in range(count) if j != i and joined(players[i], players[j])] for i in range(count)
    ]
    match = [-1] * count
    for first, second in start:
        match[index[first]], match[index[second]] = index[second], index[first]

    def augmenting_path_end(root: int) -> tuple[int, list[int]]:
        """Grow an alternating tree from `root`, shrinking odd cycles (blossoms) to
        their base, until it reaches an unmatched player; return him (or -1) and the
        parent links to walk back along."""
        used = [False] * count
        parent = [-1] * count
        base = list(range(count))

        def common_base(a: int, b: int) -> int:
            seen = [False] * count
            while True:
                a = base[a]
                seen[a] = True
                if match[a] == -1:
                    break
                a = parent[match[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[match[b]]

        def mark_blossom(v: int, blossom_base: int, child: int, blossom: list[bool]) -> None:
            while base[v] != blossom_base:
                blossom[base[v]] = blossom[base[match[v]]] = True
                parent[v] = child
                child = match[v]
                v = parent[match[v]]

        used[root] = True
        queue = [root]
        while queue:
            v = queue.pop(0)
            for to in adjacent[v]:
                if base[v] == base[to] or match[v] == to:
                    continue
                if to == root or (match[to] != -1 and parent[match[to]] != -1):
                    blossom_base = common_base(v, to)
                    blossom = [False] * count
                    mark_blossom(v, blossom_base, to, blossom)
                    mark_blossom(to, blossom_base, v, blossom)
                    for i in range(count):
                        if blossom[base[i]]:
                            base[i] = blossom_base
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if match[to] == -1:
                        return to, parent
                    used[match[to]] = True
                    queue.append(match[to])
        return -1, parent

    for root in range(count):
        if match[root] != -1:
            continue
        end, parent = augmenting_path_end(root)
        while end != -1:
            previous = parent[end]
            following = match[previous]
            match[end], match[previous] = previous, end
            end = following
    return [(players[i], players[match[i]]) for i in range(count) if i < match[i]]


def _meeting_cost(first: Pair, second: Pair, history: History) -> int:
    """What it costs to set two partnerships against each other: for each of the four
    pairs of opponents, the square of the times they have met, so that a third meeting
    weighs more than two second ones."""
    return sum(
        history.opponents[frozenset((ours, theirs))] ** 2 for ours in first for theirs in second
    )


def _tables(partnerships: list[Pair], *, history: History) -> list[tuple[Pair, Pair]]:
    """Put partnerships together two to a table, meeting opponents met least.

    Greedy first (each partnership in turn takes the cheapest opposition left), then
    improved by exchanging partnerships between two tables until no exchange helps.
    """
    remaining = list(partnerships)
    tables: list[tuple[Pair, Pair]] = []
    while remaining:
        first = remaining.pop(0)
        second = min(remaining, key=lambda other: _meeting_cost(first, other, history))
        remaining.remove(second)
        tables.append((first, second))
    improved = True
    while improved:
        improved = False
        for i in range(len(tables)):
            for j in range(i + 1, len(tables)):
                (a, b), (c, d) = tables[i], tables[j]
                now = _meeting_cost(a, b, history) + _meeting_cost(c, d, history)
                for (w, x), (y, z) in (((a, c), (b, d)), ((a, d), (b, c))):
                    if _meeting_cost(w, x, history) + _meeting_cost(y, z, history) < now:
                        tables[i], tables[j] = (w, x), (y, z)
                        improved = True
                        break
    return tables
