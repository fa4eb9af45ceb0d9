"""An independent reading of the standings, for the tests: each metric worked out again
from the stored hands (their data and the points the rule set gave each side or player),
the rubbers' games and results, and the seats, as issue #5, issue #16 and the house
rulings say, without the service's metric code (`scoring.rollup`, `tournaments.services`,
`tournaments.ranking`, `tournaments.metrics`) and without the hand scores' facts; then
ranked by a precedence list, ties kept as (rank, tied).
"""

from collections import defaultdict
from decimal import Decimal

from scoring.models import Rubber

EUCHRE, BRIDGE, CALL_ACE = "euchre-somerset-1888", "bridge-elwell-1907", "call-ace-foster-1905"
TRICK_VALUE = {"S": 2, "C": 4, "D": 6, "H": 8, "NT": 12}
LOWER_IS_BETTER = {"euchres"}
CENT = Decimal("0.01")


def _rubbers(tournament) -> list[Rubber]:
    """Issue #5: a ladder counts every rubber and sitting played in its evenings; a
    progressive, the rubbers of its rounds up to the round selected (all when none is)."""
    if tournament.kind == "ladder":
        rubbers = Rubber.objects.filter(evening__in=tournament.evenings.all())
    else:
        rubbers = Rubber.objects.filter(round_table__round__tournament=tournament)
        if tournament.standings_round:
            rubbers = rubbers.filter(round_table__round__number__lte=tournament.standings_round)
    return list(rubbers.prefetch_related("hands", "games", "seats__member"))


def _side_points(points) -> int:
    """A side's points on a hand: Euchre's number, Bridge's below and above the line."""
    return points["below"] + points["above"] if isinstance(points, dict) else points


def _euchre_revoke_points(data: dict) -> dict[str, int]:
    """Ruling E7: what the revokes gave each side (scored first, law 4)."""
    revokes = data.get("revokes") or []
    net = revokes.count("NS") - revokes.count("EW")
    per = 5 if data.get("alone") else 3
    given = {"NS": 0, "EW": 0}
    if net > 0:
        given["EW"] = per * net
    elif net < 0:
        given["NS"] = per * -net
    return given


def _euchre_hand(data: dict, points: dict, side: str) -> dict[str, int]:
    makers = data["makers"]
    ours = makers == side
    law50 = bool(data.get("law50"))
    made = data["tricks"] >= 3 or law50
    # The hand's own points, after the revoke penalties scored before it (law 4, ruling
    # E6): nothing when they were lost (E6, a game won first; E2, the last game's lap) or
    # forfeited (law 90, ruling E8).
    own = points[side] - _euchre_revoke_points(data)[side]
    return {
        "march": int(ours and data["tricks"] == 5),
        "lone": int(ours and bool(data.get("alone")) and made and own > 0),
        "euchred": int(ours and not made),
        "honours": 0,
    }


def _bridge_honours(data: dict, side: str) -> int:
    """Rulings B3, B4: the side's honours, chicane added when it held honours, otherwise
    deducted from the adversaries'."""
    trump = data["trump"]
    other = "EW" if side == "NS" else "NS"
    held = data.get("honours")
    value = 0
    if held and held["side"] == side:
        n, one = held["held"], held["in_one_hand"]
        if trump == "NT":
            value = 30 if n == 3 else (100 if one == 4 else 40)
        else:
            v = TRICK_VALUE[trump]
            value = {3: 2 * v, 4: (8 if one == 4 else 4) * v}.get(n) or (
                10 * v if one == 5 else (9 if one == 4 else 5) * v
            )
    chicane = data.get("chicane") or {}
    for void_side in ("NS", "EW"):
        voids = chicane.get(void_side, 0)
        if not voids:
            continue
        worth = (2 if voids == 1 else 4) * TRICK_VALUE[trump]
        holder = held["side"] if held else None
        if void_side == side and holder == side:
            value += worth
        elif void_side == other and holder != other:
            value -= worth
    return value


def _call_ace_hand(data: dict, points: dict, name: str) -> dict[str, int]:
    makers = {data.get("maker"), data.get("partner")} - {None}
    among = name in makers
    revoke, void = data.get("revoke"), data.get("void")
    played = not void and revoke is None
    alone = data.get("partner") is None and data.get("maker") is not None
    return {
        "march": int(among and played and data.get("tricks") == 5),
        "lone": int(name == data.get("maker") and alone and points[name] > 0),
        "euchred": int(among and played and (data.get("tricks") or 0) < 3),
        "honours": 0,
    }


def _fixed_deals(rubber: Rubber) -> tuple[bool, str | None, int]:
    """Issue #16, rulings P1, P2: (over, the side that won the table, NS's lead)."""
    ns = sum(_side_points(h.points["NS"]) for h in rubber.hands.all())
    ew = sum(_side_points(h.points["EW"]) for h in rubber.hands.all())
    complete = rubber.status == Rubber.Status.COMPLETE
    over = complete or (rubber.hand_count >= rubber.deal_limit and ns != ew)
    if not over:
        return False, None, ns - ew
    winner = "NS" if ns > ew else "EW" if ew > ns else rubber.winner
    return True, winner, ns - ew


def totals(tournament) -> dict[str, dict]:
    """Each player's figures (by name)."""
    rows: dict[str, dict] = defaultdict(
        lambda: {
            "points": 0, "net_rubber_points": 0, "rubbers_won": 0, "rounds_won": 0,
            "games_won": 0, "marches": 0, "lone_hands": 0, "euchres": 0, "honours": 0,
            "stake_won": Decimal("0.00"), "hands": 0, "rubbers_played": 0,
        }
    )  # fmt: skip
    progressive = tournament.kind == "progressive"
    for rubber in _rubbers(tournament):
        complete = rubber.status == Rubber.Status.COMPLETE
        seats = list(rubber.seats.all())
        hands = sorted(rubber.hands.all(), key=lambda h: h.number)
        for seat in seats:
            name, side = seat.member.name, seat.side
            row = rows[name]
            for hand in hands:
                row["hands"] += 1
                if rubber.ruleset == CALL_ACE:
                    row["points"] += hand.points[name]
                    facts = _call_ace_hand(hand.data, hand.points, name)
                else:
                    row["points"] += _side_points(hand.points[side])
                    facts = (
                        _euchre_hand(hand.data, hand.points, side)
                        if rubber.ruleset == EUCHRE
                        else {"march": 0, "lone": 0, "euchred": 0,
                              "honours": _bridge_honours(hand.data, side)}
                    )  # fmt: skip
                row["marches"] += facts["march"]
                row["lone_hands"] += facts["lone"]
                row["euchres"] += facts["euchred"]
                row["honours"] += facts["honours"]
            row["games_won"] += sum(1 for g in rubber.games.all() if side and g.winner == side)
            if complete:
                row["rubbers_played"] += 1
            stake = rubber.stake
            if rubber.ruleset == CALL_ACE:
                if complete:  # ruling C5
                    scores = defaultdict(int)
                    for hand in hands:
                        for player, pts in hand.points.items():
                            scores[player] += pts
                    net = len(seats) * scores[name] - sum(scores.values())
                    row["stake_won"] += (net * stake).quantize(CENT)
                continue
            won = complete and side == rubber.winner
            if complete:
                row["rubbers_won"] += won
                row["net_rubber_points"] += rubber.value if won else -rubber.value
            if progressive and rubber.deal_limit:
                over, winner, lead = _fixed_deals(rubber)
                if over:
                    row["rounds_won"] += winner == side
                    row["stake_won"] += (lead if side == "NS" else -lead) * stake
            else:
                row["rounds_won"] += won
                if complete:  # ruling M1
                    row["stake_won"] += (rubber.value if won else -rubber.value) * stake
    return {name: row for name, row in rows.items() if row["hands"] or row["rubbers_played"]}


def head_to_head(tournament, group: list[str]) -> dict[str, int]:
    """Issue #5: among the tied, rubbers won less rubbers lost against each other (a
    finished rubber in which one of the others was against him, once). At a progressive
    of fixed deals a table is won by the round, not the rubber: a round that is over
    counts, won by the side ahead on points (ruling P1), its rubber finished or not."""
    score = dict.fromkeys(group, 0)
    for rubber in _rubbers(tournament):
        if rubber.ruleset == CALL_ACE:
            continue
        if tournament.kind == "progressive" and rubber.deal_limit:
            over, winner, _ = _fixed_deals(rubber)
        else:
            over, winner = rubber.status == Rubber.Status.COMPLETE, rubber.winner
        if not over:
            continue
        sides = {s.member.name: s.side for s in rubber.seats.all() if s.member.name in score}
        for name, side in sides.items():
            if any(other != side for other in sides.values()):
                score[name] += 1 if side == winner else -1
    return score


def ranked(tournament, precedence: list[str]) -> dict[str, tuple[str, dict]]:
    """Each player's place as shown ("=3" when tied) and his figures."""
    rows = totals(tournament)
    for row in rows.values():
        row["head_to_head"] = 0

    def key(name, upto):
        return tuple(
            rows[name][k] if k in LOWER_IS_BETTER else -rows[name][k] for k in precedence[:upto]
        )

    if "head_to_head" in precedence:
        at = precedence.index("head_to_head")
        groups = defaultdict(list)
        for name in rows:
            groups[key(name, at)].append(name)
        for group in groups.values():
            if len(group) > 1:
                for name, value in head_to_head(tournament, group).items():
                    rows[name]["head_to_head"] = value
    order = sorted(rows, key=lambda n: key(n, len(precedence)))
    places = {}
    for name in order:
        same = [n for n in order if key(n, len(precedence)) == key(name, len(precedence))]
        place = order.index(same[0]) + 1
        places[name] = (f"={place}" if len(same) > 1 else str(place), rows[name])
    return places
