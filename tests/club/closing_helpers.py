"""Closing an evening in tests that are about something else: every rubber still in play is
abandoned, with a reason (club.closing)."""

from club import evenings
from club.closing import unfinished_rubbers
from club.models import Evening


def close_abandoning(evening_id: int) -> Evening:
    """Close the evening, abandoning each rubber in play "at closing time"."""
    evening = Evening.objects.get(pk=evening_id)
    answers = [
        {
            "table": r["table"],
            "rubber": r["rubber"],
            "outcome": "abandoned",
            "reason": "closing time",
        }
        for r in unfinished_rubbers(evening=evening)
    ]
    return evenings.evening_close(evening_id=evening_id, rubbers=answers)
