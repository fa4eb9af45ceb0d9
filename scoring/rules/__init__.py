"""The three rule sets, by their stable keys (see RULINGS.md), and the error they raise.

The games themselves (rule set, pack, cutting order, table laws, names) are registered once, in
``scoring.rules.games``; ``RULESETS`` is that registry's rule sets.
"""

from __future__ import annotations

from typing import Any

from .base import HandResult, Line, RuleSet, ScoringError
from .bridge import RULES as BRIDGE
from .call_ace import RULES as CALL_ACE
from .euchre import RULES as EUCHRE
from .games import GAMES, Game, get_game

#: The registered games' rule sets, by key (the registry itself is ``GAMES``).
RULESETS: dict[str, RuleSet] = {key: game.rules for key, game in GAMES.items()}


def get_ruleset(key: Any) -> RuleSet:
    """The rule set with this key; a ScoringError on the ``ruleset`` field for any other."""
    return get_game(key).rules


__all__ = [
    "BRIDGE",
    "CALL_ACE",
    "EUCHRE",
    "GAMES",
    "RULESETS",
    "Game",
    "HandResult",
    "Line",
    "RuleSet",
    "ScoringError",
    "get_game",
    "get_ruleset",
]
