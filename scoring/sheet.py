"""Stateless scoring of a whole scoresheet (docs/scoresheet.md).

Built only from the rule set's own ``start`` / ``validate_hand`` / ``apply`` / ``summary`` /
``settle`` calls, so recording a rubber hand by hand and scoring its sheet at once agree by
construction.
"""

from __future__ import annotations

from typing import Any

from .rules import get_ruleset
from .rules.base import ScoringError, check_bool, check_mapping, parse_stake

#: The most hands (Call-Ace: deals) one sheet may hold, the same for every rule set. A
#: Euchre rubber ends within thirty hands; a Call-Ace sitting of an evening, or a Bridge
#: rubber of many part-scores, stays well inside it. The bound keeps one anonymous call to
#: the scoresheet endpoint from holding a worker for seconds (docs/scoresheet.md).
MAX_SHEET_HANDS = 500

_SHEET_KEYS = frozenset({"ruleset", "options", "players", "stake", "hands", "deals", "closed"})


def score_sheet(data: dict) -> dict:
    """Score a scoresheet: validate it, fold its hands through the rule set, settle the money.

    Raises ScoringError naming the offending field (``ruleset``, ``options.odd_trick_cap``,
    ``hands[3].tricks``, ...). Nothing is returned unless every part of the sheet is valid.
    """
    check_mapping(data, "", _SHEET_KEYS)
    if "ruleset" not in data:
        raise ScoringError("say which rule set the sheet is scored by", field="ruleset")
    rules = get_ruleset(data["ruleset"])
    options = rules.validate_options(data.get("options"))
    players = rules.validate_players(data.get("players"))
    stake = parse_stake(data["stake"]) if data.get("stake") is not None else None
    key = rules.hands_key
    other = "hands" if key == "deals" else "deals"
    if other in data:
        raise ScoringError(f"a {rules.title} sheet lists {key}, not {other}", field=other)
    raw_hands = data.get(key, [])
    if not isinstance(raw_hands, list):
        raise ScoringError(f"{key} is a list", field=key)
    if len(raw_hands) > MAX_SHEET_HANDS:
        raise ScoringError(
            f"a sheet holds at most {MAX_SHEET_HANDS} {key}; this one has {len(raw_hands)}",
            field=key,
        )
    closed = None
    if "closed" in data:
        if rules.partnership:
            raise ScoringError(
                "a partnership rubber ends when it is won, not when closed",
                field="closed",
                law=rules.rubber_law,
            )
        closed = check_bool(data["closed"], "closed")

    # Each hand is checked against the rubber as the hands before it left it, then scored;
    # nothing is returned until the last hand has passed.
    state = rules.start(options, players)
    results = []
    for i, raw in enumerate(raw_hands):
        hand = rules.validate_hand(state, raw, field_prefix=f"{key}[{i}]")
        state, result = rules.apply(state, hand)
        results.append(result)
    # A Call-Ace sheet is the record of a sitting that has ended unless it says otherwise.
    if closed is not False and not rules.partnership:
        state = rules.close(state)

    out: dict[str, Any] = {
        "ruleset": rules.key,
        "options": options,
        "players": players,
        "stake": str(stake) if stake is not None else None,
        key: [{"number": i, **r.as_dict()} for i, r in enumerate(results, 1)],
    }
    out.update(rules.summary(state))
    named = players is not None and not isinstance(players, int)
    if stake is not None and named and rules.is_complete(state):
        # A Call-Ace sitting ended before any deal was played settles nothing (ruling C5,
        # UNPLAYED_SITTING), as a stored one writes no settlement (scoring.services).
        ledger = rules.settle(state, stake, players) if results else {}
        out["ledger"] = {name: str(amount) for name, amount in ledger.items()}
    else:
        out["ledger"] = None
    return out
