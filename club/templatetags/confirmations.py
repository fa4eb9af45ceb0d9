"""Words for the other side's confirmation of a hand (club/confirmations.py) on pages."""

from django import template

from club.confirmations import who
from scoring.views import describe_play

register = template.Library()


@register.filter
def side_name(label: str) -> str:
    """ "NS" as "North-South", "EW" as "East-West"; a Call-Ace player's name as it is."""
    return who(label)


@register.filter
def play(data: dict | None, ruleset: str) -> str:
    """A version of a hand in a few words, as the score sheet shows a hand."""
    return describe_play(ruleset, data) if data else ""


@register.filter
def count(items, value) -> int:
    """How often `value` is in a list (a Euchre hand's revokes: one entry a revoke)."""
    return list(items or []).count(value)
