"""Words for the other side's confirmation of a hand (club/confirmations.py) on pages."""

from django import template

from club.confirmations import who
from scoring.hand_input import hand_input
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
def form_values(data: dict | None, ruleset: str) -> dict:
    """A recorded hand as the phone's hand form shows it (scoring.hand_input's to_form),
    so a dispute starts from the hand as recorded."""
    return hand_input(ruleset).to_form(data) if data else {}
