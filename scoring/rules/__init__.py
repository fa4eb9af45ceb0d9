"""The three rule sets, by their stable keys (see RULINGS.md), and the error they raise."""

from __future__ import annotations

from typing import Any

from .base import HandResult, Line, RuleSet, ScoringError
from .bridge import RULES as BRIDGE
from .call_ace import RULES as CALL_ACE
from .euchre import RULES as EUCHRE

RULESETS: dict[str, RuleSet] = {rules.key: rules for rules in (EUCHRE, CALL_ACE, BRIDGE)}


def get_ruleset(key: Any) -> RuleSet:
    """The rule set with this key; a ScoringError on the ``ruleset`` field for any other."""
    if not isinstance(key, str) or key not in RULESETS:
        known = ", ".join(RULESETS)
        raise ScoringError(f"unknown rule set {key!r}: use one of {known}", field="ruleset")
    return RULESETS[key]


__all__ = [
    "BRIDGE",
    "CALL_ACE",
    "EUCHRE",
    "RULESETS",
    "HandResult",
    "Line",
    "RuleSet",
    "ScoringError",
    "get_ruleset",
]
