"""The three games as table formation sees them: table sizes, who a cut favours, citations.

Euchre's laws are numbered (Somerset Club, 1888); Elwell's Bridge laws (1907) are cited by their
section; Call-Ace (Foster, 1905) has one law on forming a table (law 1). The house rulings T1-T10
apply to all three, so every explanation names the game's own law and the ruling together.

Each game's table laws are part of the game, registered once in ``scoring.rules.games``; this
module looks them up and refuses an unknown rule set with a FormationError.
"""

from __future__ import annotations

from core.quoted import quoted
from scoring.rules.games import GAMES, Game
from scoring.rules.games import TableLaws as RuleSet

from .errors import FormationError

EUCHRE = GAMES["euchre-somerset-1888"].key
BRIDGE = GAMES["bridge-elwell-1907"].key
CALL_ACE = GAMES["call-ace-foster-1905"].key

#: Four play at a Euchre or Bridge table, partners opposite (law 11; Bridge, Forming Tables).
PARTNERSHIP_PLAYERS = 4

__all__ = [
    "BRIDGE",
    "CALL_ACE",
    "EUCHRE",
    "PARTNERSHIP_PLAYERS",
    "RuleSet",
    "get_game",
    "get_rule_set",
]


def get_game(key: object) -> Game:
    """The game with this key; a FormationError on the ``rule_set`` field for any other."""
    if not isinstance(key, str) or key not in GAMES:
        known = ", ".join(GAMES)
        raise FormationError(
            f"unknown rule set {quoted(key)}: use one of {known}", field="rule_set"
        )
    return GAMES[key]


def get_rule_set(key: object) -> RuleSet:
    """The game's table laws; a FormationError on the ``rule_set`` field for an unknown key."""
    return get_game(key).tables
