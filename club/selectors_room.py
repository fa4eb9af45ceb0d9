"""Reads for the room display: an evening, or a tournament's round, as the room sees it on a
projector or a television (issue #15).

Everything here is put in words a player reads from across the room: names, not sides'
keys; "North-South", not "NS"; the score of the game being played, the waiting members
in the order they cut in, the rubbers finished, and the evening's money.
"""

from decimal import Decimal

from club import evenings
from club.models import Evening
from scoring.models import Hand, Rubber
from scoring.rules.games import GAMES

SIDE_WORDS = {"NS": "North-South", "EW": "East-West"}
SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}
LEADERS = 3  # the evening's leaders shown above its money


def money_words(amount: Decimal) -> str:
    """An amount won (+) or lost (with a true minus sign, U+2212), to two places: "+1.50"."""
    amount = Decimal(amount).quantize(Decimal("0.01"))
    if amount > 0:
        return f"+{amount}"
    if amount < 0:
        return f"\u2212{-amount}"
    return f"{amount}"


def _side_names(players, side: str) -> str:
    names = players.get(side, []) if isinstance(players, dict) else []
    return " & ".join(names)


def rubber_score(rubber: Rubber) -> dict:
    """The score of a rubber in play, in words: for a partnership rubber each side's names,
    its points in the game being played and its games won; for a Call-Ace sitting each
    player's points."""
    summary = rubber.summary or {}
    players = rubber.players
    if isinstance(players, dict):
        current = (summary.get("current") or {}).get("scores") or {}
        games = [game.get("winner") for game in summary.get("games", [])]
        won = rubber.status == Rubber.Status.COMPLETE and rubber.winner in SIDE_WORDS
        return {
            "partnership": True,
            "won_by": _side_names(players, rubber.winner) if won else None,
            "value": rubber.value if won else None,
            "game": (summary.get("current") or {}).get("number") or len(games) + 1,
            "sides": [
                {
                    "key": side,  # the board names it short, "N-S" (words.side_name)
                    "side": SIDE_WORDS[side],
                    "names": _side_names(players, side),
                    "points": None if won else current.get(side, 0),
                    "games": games.count(side),
                }
                for side in ("NS", "EW")
            ],
            "hands": rubber.hand_count,
            "deal_limit": rubber.deal_limit,
        }
    totals = summary.get("totals") or {}
    return {
        "partnership": False,
        "players": [{"name": name, "points": totals.get(name, 0)} for name in players or []],
        "hands": rubber.hand_count,
        "deal_limit": rubber.deal_limit,
    }


def _finished(rubber: Rubber) -> dict:
    """A finished rubber in words: who won, against whom, and its value."""
    players = rubber.players
    if isinstance(players, dict) and rubber.winner in SIDE_WORDS:
        loser = "EW" if rubber.winner == "NS" else "NS"
        return {
            "table": rubber.table.number if rubber.table_id else None,
            "winners": _side_names(players, rubber.winner),
            "losers": _side_names(players, loser),
            "value": rubber.value,
        }
    return {  # a Call-Ace sitting: each settles with every other (ruling C5)
        "table": rubber.table.number if rubber.table_id else None,
        "winners": None,
        "players": ", ".join(players or []),
        "value": None,
    }


CUTTING = {
    "partners-and-deal": "Cutting for partners and deal",
    "cut-out": "Cutting to decide who goes out",
    "break-up": "Breaking up: cutting for places",
    "first-jack": "Dealing round for the first jack",
}


def _ordinal(rubber: Rubber | None, rubbers: list[Rubber]) -> int | None:
    """A rubber's place among its table's rubbers of the evening (as the log numbers them):
    a Call-Ace sitting ended by a player leaving or joining (law 1, ruling C5) is counted,
    though the laws of forming tables count it no rubber played."""
    if rubber is None:
        return None
    return sum(1 for r in rubbers if r.table_id == rubber.table_id and r.pk <= rubber.pk)


def _hands_in_play(rubbers) -> dict[int, list[dict]]:
    """The hands of the rubbers in play, in order, by rubber (one query for the room)."""
    hands: dict[int, list[dict]] = {}
    rows = Hand.objects.filter(rubber__in=list(rubbers)).order_by("rubber_id", "number")
    for rubber_id, data in rows.values_list("rubber_id", "data"):
        hands.setdefault(rubber_id, []).append(data)
    return hands


def _table_words(
    table: dict, rubber: Rubber | None, cut: str | None, hands: dict[int, list[dict]]
) -> dict:
    seats = table["seats"]
    substitutes = table.get("substitutes") or {}

    def seated(name: str) -> str:
        sub = substitutes.get(name)
        return f"{sub} (for {name})" if sub else name

    if cut is not None:
        doing = CUTTING.get(cut, "Cutting")
    elif rubber is not None:
        # "Rubber 2", or "Sitting 2" at Call-Ace, which plays sittings (ruling C5): its place
        # among the table's rubbers, as the board and the log number it.
        doing = f"{GAMES[rubber.ruleset].rubber_label.capitalize()} {table['ordinal']}"
    else:
        doing = "Waiting to begin"
    return {
        "number": table["number"],
        "doing": doing,
        "seats": (
            [{"seat": SEAT_WORDS[s], "name": seated(seats[s])} for s in ("N", "E", "S", "W")]
            if seats
            else None
        ),
        "partners": (
            [
                {"side": "North-South", "names": f"{seated(seats['N'])} & {seated(seats['S'])}"},
                {"side": "East-West", "names": f"{seated(seats['E'])} & {seated(seats['W'])}"},
            ]
            if seats
            else None
        ),
        "playing": [seated(name) for name in table["playing"]],
        # Who deals the next hand: the deal passes to the left after each hand (as the
        # phone says it), from the first dealer the cut chose.
        "dealer": seated(dealer) if (dealer := _dealing(table, rubber, hands)) else None,
        "waiting": list(table["waiting"]),
        "claims": list(table["claims"]),
        "rubbers_played": table["rubbers_played"],
        "score": rubber_score(rubber) if rubber is not None else None,
    }


def _dealing(table: dict, rubber: Rubber | None, hands: dict[int, list[dict]]) -> str | None:
    """Who deals the table's next hand: the first dealer until a hand is played."""
    first = table["dealer"]
    if rubber is None or not first:
        return first
    first = rubber.first_dealer or first  # a Call-Ace sitting's, passed on (law 3)
    return rubber.rules.dealer(list(table["playing"]), first, hands.get(rubber.pk, [])) or first


def evening_room(*, evening: Evening) -> dict:
    """The evening as the room display shows it: each table with its players, dealer and
    the score of the game in play; who waits to cut in, in order (ruling T5), and who is
    in the room at no table yet (in order of arrival, ruling T2); the rubbers finished;
    the evening's leaders and each player's money at the stake (ruling M1)."""
    state = evenings.evening_state(evening)
    data = state.to_dict()
    rubbers = list(
        Rubber.objects.filter(evening=evening).select_related("table").order_by("created_at", "pk")
    )
    in_play = {
        r.table.number: r for r in rubbers if r.status == Rubber.Status.IN_PROGRESS and r.table_id
    }
    hands = _hands_in_play(in_play.values())
    ledger = evenings.evening_ledger(evening=evening)
    money = sorted(ledger.items(), key=lambda item: (-item[1], item[0].lower()))
    won = {}
    for rubber in rubbers:
        if rubber.status == Rubber.Status.COMPLETE and isinstance(rubber.players, dict):
            for name in rubber.players.get(rubber.winner, []):
                won[name] = won.get(name, 0) + 1
    cuts = {cut["table"]: cut["purpose"] for cut in data["pending_cuts"] if cut["table"]}
    # A Call-Ace sitting ended before any deal was played settles nothing and is no sitting
    # finished (ruling C5, UNPLAYED_SITTING): the room said it "settled".
    finished = [r for r in rubbers if r.status == Rubber.Status.COMPLETE and r.hand_count]
    # A closed evening has no table playing and nobody in the room waiting for one: its
    # state still lists those who came, and the room called them "in the room, at no table".
    closed = evening.status == Evening.Status.CLOSED
    return {
        "closed": closed,
        "tables": []
        if closed
        else [
            _table_words(
                {**t, "ordinal": _ordinal(in_play.get(t["number"]), rubbers)},
                in_play.get(t["number"]),
                cuts.get(t["number"]),
                hands,
            )
            for t in data["tables"]
        ],
        "forming": not closed
        and any(cut["purpose"] == "form-table" for cut in data["pending_cuts"]),
        "candidates": [] if closed else data["candidates"],
        "prior_right": [] if closed else data.get("prior_right", []),
        "finished": [_finished(r) for r in finished][::-1],
        "rubbers_finished": len(finished),
        # What the evening's game plays: "rubber", or "sitting" at Call-Ace (ruling C5).
        "unit": GAMES[evening.ruleset].rubber_label,
        "leaders": [
            {
                "name": name,
                "amount": amount,
                "shown": money_words(amount),
                "rubbers_won": won.get(name, 0),
            }
            for name, amount in money[:LEADERS]
            if amount > Decimal(0)
        ],
        "money": [
            {"name": name, "amount": amount, "shown": money_words(amount)} for name, amount in money
        ],
    }
