"""Raw hands as a table's phone would send them, for each game, and the occasional mistake."""

from __future__ import annotations

import random
from typing import Any

from scoring.rules import BRIDGE, RuleSet

# The service's own functions, so that a generated hand's rows are exactly the rows
# recording it through the API would write.
from .mix import SIDES

# --- raw hands, as a table's phone would send them --------------------------------------


def euchre_hand(rng: random.Random) -> dict:
    """A raw Euchre hand (docs/scoresheet.md): lone hands, marches, euchres, the odd revoke."""
    makers = SIDES[rng.random() < 0.5]
    alone = rng.random() < 0.08
    data: dict[str, Any] = {
        "makers": makers,
        "alone": alone,
        "tricks": rng.choice((0, 1, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5)),
    }
    r = rng.random()
    if r < 0.02:
        data["revokes"] = [SIDES[rng.random() < 0.5]]
    elif r < 0.023:
        data["law90"] = SIDES[rng.random() < 0.5]
    if alone:
        r = rng.random()
        if r < 0.01:
            data["law102"] = True
        elif r < 0.02:
            data["law50"] = True
    return data


_TRUMPS = ("S", "C", "D", "H", "NT")


def bridge_hand(rng: random.Random) -> dict:
    """A raw Bridge hand: declarer's tricks around seven and a half, honours always
    consistent with the trump, rare doubles, chicanes and revokes."""
    trump = rng.choices(_TRUMPS, weights=(22, 20, 20, 20, 18))[0]
    declarer = rng.randrange(2)
    taken = min(13, max(0, round(rng.gauss(7.6, 1.9))))
    ns = taken if declarer == 0 else 13 - taken
    data: dict[str, Any] = {
        "declarer": SIDES[declarer],
        "trump": trump,
        "doubles": rng.choices((0, 1, 2), weights=(85, 12, 3))[0],
        "tricks": {"NS": ns, "EW": 13 - ns},
        "honours": None,
    }
    held = rng.choice((0, 3, 3, 4) if trump == "NT" else (3, 3, 3, 4, 4, 5))
    if held:
        side = rng.randrange(2)
        data["honours"] = {
            "side": SIDES[side],
            "held": held,
            "in_one_hand": rng.randint((held + 1) // 2, held),
        }
        if trump != "NT" and rng.random() < 0.02:
            # A void on the side without the honours never contradicts them (ruling B4).
            data["chicane"] = {SIDES[1 - side]: 1, SIDES[side]: 0}
    if rng.random() < 0.01:
        data["revokes"] = {SIDES[rng.randrange(2)]: 1}
    return data


def call_ace_deal(rng: random.Random, names: list[str]) -> dict:
    """A raw Call-Ace deal for the named players: partners found or not, lone hands, the
    rare void deal, revoke (the hands abandoned, no tricks counted) and player who scores
    nothing (ruling C4)."""
    if rng.random() < 0.01:
        return {"void": True, "maker": None}
    maker = rng.choice(names)
    alone = rng.random() < 0.12
    partner = None
    if not alone and rng.random() < 0.9:
        partner = rng.choice([n for n in names if n != maker])
    data: dict[str, Any] = {"maker": maker, "partner": partner, "alone": alone}
    r = rng.random()
    if r < 0.01:
        data["revoke"] = "makers"
    elif r < 0.02:
        data["revoke"] = "adversaries"
    else:
        data["tricks"] = rng.choice((0, 1, 2, 3, 3, 3, 4, 4, 5, 5))
        if partner is not None and rng.random() < 0.01:
            data["no_score"] = [partner]
    return data


def mistaken(rules: RuleSet, data: dict, rng: random.Random) -> dict | None:
    """The hand as first (wrongly) recorded before a correction: a different trick count.
    None when the hand has no trick count to get wrong."""
    if rules is BRIDGE:
        ns = data["tricks"]["NS"]
        ns = ns + 1 if ns < 13 and (ns == 0 or rng.random() < 0.5) else ns - 1
        return {**data, "tricks": {"NS": ns, "EW": 13 - ns}}
    if data.get("tricks") is None:
        return None
    return {**data, "tricks": rng.choice([t for t in range(6) if t != data["tricks"]])}
