"""Table formation: who plays, who waits, partners, deal and cutting out, by the laws.

A pure, event-sourced engine: the evening's log of events (arrivals, cuts, claims, rubber ends,
substitutes, leaving, changing tables, breaking up) is projected onto an ``EveningState`` by
``apply``; every decision names the law and ruling behind it. No ORM here: the DB layer stores
the log and calls these functions. See docs/evening-log.md and docs/laws-tables.md.
"""

from .cards import Card, draw_cut, pack_for, parse_card, throw_for_jack
from .engine import PASS_THROUGH, apply, draw_event, new_evening, replay, required
from .errors import FormationError
from .rules import BRIDGE, CALL_ACE, EUCHRE, RuleSet, get_game, get_rule_set
from .state import Decision, EveningState, Member, PendingCut, Table

__all__ = [
    "BRIDGE",
    "CALL_ACE",
    "EUCHRE",
    "PASS_THROUGH",
    "Card",
    "Decision",
    "EveningState",
    "FormationError",
    "Member",
    "PendingCut",
    "RuleSet",
    "Table",
    "apply",
    "draw_cut",
    "draw_event",
    "get_game",
    "get_rule_set",
    "new_evening",
    "pack_for",
    "parse_card",
    "replay",
    "required",
    "throw_for_jack",
]
