"""The cut itself: ranking players by the cards they cut, and which ties must be cut again.

A cut's standing is a list of *tiers*, strongest claim first; players in one tier are not yet
told apart. A cut only has to decide a few *boundaries* (positions in the ranking): the four who
play against the rest (4), the six members against the rest (6), partners (2) and the deal (1),
how many stay in at a cutting out. Laws 13-14 say equal cards are cut again; read with ruling T4
("a tie of the two highest cut again only for the deal"), a tie is cut again exactly when it
straddles a boundary, and then only the tied players cut.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence


def group(players: Sequence[str], key: Callable[[str], Hashable]) -> list[list[str]]:
    """Tiers of ``players`` by ascending ``key``, keeping the given order inside a tier."""
    tiers: dict[Hashable, list[str]] = {}
    for player in players:
        tiers.setdefault(key(player), []).append(player)
    return [tiers[k] for k in sorted(tiers)]


def refine(tiers: Sequence[Sequence[str]], strength: Mapping[str, int]) -> list[list[str]]:
    """Split every tier whose players cut (those in ``strength``) by their cards, strongest
    first; tiers that did not cut are left alone. A tier always cuts whole."""
    refined: list[list[str]] = []
    for tier in tiers:
        cutting = [player for player in tier if player in strength]
        if not cutting:
            refined.append(list(tier))
            continue
        if len(cutting) != len(tier):
            raise ValueError(f"a tier cuts whole: {tier} against {cutting}")
        refined.extend(reversed(group(tier, lambda player: strength[player])))
    return refined


def undecided(tiers: Sequence[Sequence[str]], boundaries: Sequence[int]) -> list[list[str]]:
    """The tiers that straddle a boundary: their tie matters, so they cut (again)."""
    straddling: list[list[str]] = []
    start = 0
    for tier in tiers:
        end = start + len(tier)
        if any(start < boundary < end for boundary in boundaries):
            straddling.append(list(tier))
        start = end
    return straddling


def flatten(tiers: Sequence[Sequence[str]]) -> list[str]:
    return [player for tier in tiers for player in tier]
