"""An amount as the service's forms say it is written (ruling M1): the digits 0 to 9 with at
most one point, "0.25". Pure Python, as the rule sets that read a stake are (scoring.rules).
"""

import re

# A leading minus is let through, for each door to refuse a negative in its own words.
_WRITTEN = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def in_digits(text: str) -> bool:
    """Is `text` (trimmed) an amount written in the digits 0 to 9 with at most one point?
    Python's Decimal (and so Django's and DRF's decimal fields) reads more: "1e3" (1000),
    "NaN", "Infinity", "1_000", other scripts' digits (Arabic-Indic ones as ours)."""
    return _WRITTEN.fullmatch(text.strip()) is not None
