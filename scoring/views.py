"""Public pages of a club's rubbers: one rubber's score sheet, laid out as a club's paper
sheet would have it.

`scoresheet_display` arranges what `scoring.selectors.rubber_scoresheet` returns into the
rows the partial `templates/scoring/_scoresheet.html` draws: each Euchre game's running
score from the lap it opens with (ruling E2), Bridge's points above and below the line,
Call-Ace's running totals. It only arranges stored figures; it never scores a hand.
"""

from datetime import datetime
from decimal import Decimal
from itertools import zip_longest

from django.db.models import Count, OuterRef, Subquery
from django.http import Http404
from django.shortcuts import render
from django.utils.text import capfirst

from club.confirmations import with_confirmations
from club.selectors import clubs_visible_to, rubber_places, rubbers_hidden_from
from club.templatetags.words import winners
from config.ratelimit import public_render, public_render_throttled
from scoring.models import Rubber
from scoring.rules import GAMES
from scoring.rules.base import SIDES, side_name
from scoring.rules.bridge import TRUMP_NAMES
from scoring.selectors import REFEREE, rubber_scoresheet, rubbers_of


@public_render_throttled
def rubber_detail(request, slug: str, pk: int):
    """One rubber's (Call-Ace: one sitting's) score sheet, for anyone who may see its club.

    A private club's rubbers answer 404 to all but its secretaries and staff, and so does
    a rubber asked for under another club's address, and a rubber of a progressive whose
    standings are not public to all but the club's secretaries, directors and staff.
    Rendered afresh for every reader (a tenth of a second for a rubber of a hundred hands),
    so each is counted per client address (THROTTLE_PUBLIC).
    """
    club = clubs_visible_to(user=request.user).filter(slug=slug).first()
    if club is None:
        raise Http404("No such club.")
    hidden = rubbers_hidden_from(club=club, user=request.user)
    # Its number at its table read with it (rubber_number), in the same query.
    rubber = rubbers_of(club=club, hidden=hidden).filter(pk=pk).annotate(**NUMBER).first()
    if rubber is None:
        raise Http404("No such rubber.")
    return public_render(request, rubber_page)(request, club, rubber)


def rubber_page(request, club, rubber, *, error=None, posted=None, status: int = 200):
    """The rubber's page; its secretary also sees the forms to correct or remove a hand
    (scoring/views_secretary.py), and a refused change is shown with what he typed."""
    from scoring.views_secretary import secretary_context

    sheet = rubber_sheet(rubber, club)
    context = {
        "club": club,
        "rubber": rubber,
        "number": rubber_number(rubber),
        "sheet": sheet,
        "error": error,
        "posted": posted,
    }
    place = rubber_places([rubber]).get(rubber.pk)  # a progressive's round table
    context["place"] = place
    # A progressive's round table's rubber is headed by its round and table ("Round 3,
    # table 1"), as its tournament's pages name it, never by its database number.
    context["heading"] = (
        capfirst(place.at) if place is not None else f"{sheet['label']} {context['number']}"
    )
    context.update(secretary_context(request, club, rubber, posted=posted, error=error))
    return render(request, "scoring/rubber_detail.html", context, status=status)


# A rubber's place among its evening's table's rubbers, as an annotation (`number_at_table`).
NUMBER = {
    "number_at_table": Subquery(
        Rubber.objects.filter(
            evening_id=OuterRef("evening_id"), table_id=OuterRef("table_id"), pk__lte=OuterRef("pk")
        )
        .order_by()
        .values("table_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
}


def rubber_number(rubber) -> int:
    """The number a page heads a rubber (Call-Ace: a sitting) with: an evening's table's
    rubber is its place among that table's rubbers of the evening, as the board, the
    closing dialog and the log name it (rubber 2 at table 1); a rubber at no evening's
    table keeps its database number, the one its address and the API carry (a
    progressive's round table's page heads it by its round and table: `rubber_page`)."""
    if rubber.evening_id is None or rubber.table_id is None:
        return rubber.pk
    number = getattr(rubber, "number_at_table", None)
    if number is None:
        number = Rubber.objects.filter(
            evening_id=rubber.evening_id, table_id=rubber.table_id, pk__lte=rubber.pk
        ).count()
    return number


def rubber_sheet(rubber, club, *, scoresheet: dict | None = None) -> dict:
    """The rows of one rubber's sheet (`scoresheet_display`), each hand with the other
    side's word on it, for any page that shows the sheet; from its `scoresheet`
    (`rubber_scoresheet`) when the page has read it already."""
    if scoresheet is None:
        scoresheet = rubber_scoresheet(rubber=rubber)
    raw = with_confirmations(scoresheet, rubber=rubber, club=club)
    sheet = scoresheet_display(raw)  # a round of fixed deals: its verdict (rulings P1, P2)
    if sheet["ledger"] and sheet["no_stake"]:
        # Not played for money: at a progressive's round, ruling P2 says so.
        sheet["progressive_round"] = rubber.pk in rubber_places([rubber])
    return sheet


def scoresheet_display(sheet: dict) -> dict:
    """The rows of a paper score sheet for one rubber, from its scoresheet dict.

    Everything the partial needs is here, already in order and side by side (NS, EW; or
    the Call-Ace players in their seats), since a template cannot look a dict up by a
    variable key.
    """
    game = GAMES[sheet["ruleset"]]
    kind = game.kind
    display = {
        "id": sheet.get("id"),
        "kind": kind,
        # "Rubber", or "Sitting" at Call-Ace.
        "label": game.rubber_label.capitalize(),
        "title": sheet.get("title"),
        "stake": sheet.get("stake"),
        "complete": sheet["rubber"]["complete"],
        # "abandoned": play stopped before it was won (law 21, or the evening closed).
        "abandoned": sheet.get("status") == "abandoned",
        "winner": sheet["rubber"]["winner"],
        # The winners named ("Ann & Cora (N-S)"); "N-S" alone on a sheet without players.
        "winner_words": winners(sheet.get("players"), sheet["rubber"]["winner"]) or None,
        "value": sheet["rubber"]["value"],
        "ledger": _ledger(sheet),
        # Played for no stake (0): its ledger settles nothing, and the sheet says so in
        # words, not as "0.00" for each player (rulings M1, P2).
        "no_stake": _no_stake(sheet.get("stake")),
    }
    if kind == "call_ace":
        display.update(_call_ace(sheet))
    else:
        display["sides"] = [
            {"side": side, "players": (sheet.get("players") or {}).get(side) or []}
            for side in SIDES
        ]
        display.update(_euchre(sheet) if kind == "euchre" else _bridge(sheet))
        if sheet.get("round"):
            display["round"] = _fixed_deals(sheet)
            display["ledger"] = _ledger({**sheet, "ledger": sheet["round"]["money"]})
            if display["round"]["over"]:
                # A decided round has no next deal (ruling P1): the game its rubber opened
                # after the last deal ended one ("Game 2, No hand played yet, Score so
                # far 0 0") is never played, so the sheet, and the printed round sheets,
                # show none.
                display["games"] = [
                    g for g in display["games"] if g["hands"] or not g["in_progress"]
                ]
    return display


def _no_stake(stake) -> bool:
    """Whether a sheet's stake (its text, as the scoresheet has it) is none at all."""
    try:
        return Decimal(stake or 0) == 0
    except ArithmeticError:
        return False


def _fixed_deals(sheet: dict) -> dict:
    """A progressive's round of fixed deals (rulings P1, P2): the sides' points, who won
    the round, and why, in words. The rubber it is played in decides nothing of its own
    (its totals would read 0 0 while the deals run), so the sheet shows this instead."""
    fixed = sheet["round"]
    deals, played = fixed["deals"], fixed["played"]
    points = [fixed["points"].get(s, 0) for s in SIDES]
    players = sheet.get("players")
    rubber = sheet["rubber"]
    of_deals = "its one deal" if deals == 1 else f"its {deals} deals"
    if fixed["over"]:
        won, lost = sorted(points, reverse=True)
        score = (
            f"{_n(won, 'point')} to {lost}" if won != lost else f"level at {_n(won, 'point')} each"
        )
        if played < deals:
            # Its rubber was won before the deals ran out: no deal may follow (P1).
            why = (
                f"after {_n(played, 'deal')} of {deals}: its rubber was won by "
                f"{winners(players, rubber['winner'])}, so no deal may follow, and the round "
                "goes to the side ahead on points, or, level, to the rubber's winners"
            )
        elif played > deals:
            why = (
                f"after {_n(played, 'deal')}: {of_deals}, and "
                f"{_n(played - deals, 'more deal')} played because the sides were level"
            )
        else:
            why = f"after {of_deals}"
        verdict = f"Round to {winners(players, fixed['winner'])}, {score}, {why} (ruling P1)."
    elif sheet.get("status") == "abandoned":
        verdict = (
            f"Abandoned after {played} of {_n(deals, 'deal')}: its deals stand as scored and "
            "it settles nothing (law 21)."
        )
    elif played >= deals:
        verdict = (
            f"Level at {_n(points[0], 'point')} each after {_n(played, 'deal')}: the round goes on "
            "one deal at a time until one side is ahead (ruling P1)."
        )
    else:
        verdict = (
            f"{played} of {_n(deals, 'deal')} played so far; the side ahead after them wins "
            "the round (ruling P1)."
        )
    return {
        "deals": deals,
        "points": points,
        "over": fixed["over"],
        # Who won it, for the page's status: its rubber stays in play while the deals decide
        # the round (rulings P1, E1-E4), so the rubber's own status cannot say it is over.
        "winner_words": winners(players, fixed["winner"]) if fixed["over"] else None,
        "verdict": verdict,
        "difference": abs(points[0] - points[1]),
        # Ruling P2: a progressive without a stake settles nothing.
        "no_stake": _no_stake(sheet.get("stake")),
    }


# Euchre ------------------------------------------------------------------------------


def _euchre(sheet: dict) -> dict:
    """Each game's hands with both sides' running scores, from the lap it opens with."""
    games = []
    opening = dict.fromkeys(SIDES, 0)
    carried_from = None
    for spec in _game_specs(sheet):
        running = dict(opening)
        rows = []
        for hand in _hands_of_game(sheet["hands"], spec["number"]):
            for side in SIDES:
                running[side] += hand["points"][side]
            # Ruling E6: the winners stop at five; what is beyond is the lap (ruling E2).
            shown = spec["scores"] if hand["game_won"] else running
            rows.append(
                {
                    **_hand_common(hand, _euchre_play, "euchre"),
                    "cells": [
                        {"side": s, "points": hand["points"][s], "running": shown[s]} for s in SIDES
                    ],
                    "lap": spec.get("lap", 0) if hand["game_won"] else 0,
                    "lap_lost": bool(hand["game_won"] and spec.get("lap_lost")),
                }
            )
        value = spec.get("value")
        games.append(
            {
                **spec,
                "opening": [opening[s] for s in SIDES] if any(opening.values()) else None,
                "carried_from": carried_from,
                "scores_row": [spec["scores"][s] for s in SIDES],
                "hands": rows,
                "value_word": {1: "single", 2: "double"}.get(value),
                "fourth": spec["number"] == 4,
            }
        )
        opening = dict.fromkeys(SIDES, 0)
        carried_from = None
        if spec["winner"] and spec.get("lap") and not spec.get("lap_lost"):
            opening[spec["winner"]] = spec["lap"]
            carried_from = spec["number"]
    return {"games": games, "totals": _euchre_totals(sheet)}


def _euchre_totals(sheet: dict) -> list[dict]:
    """Ruling E4: each side's game values, and two for the rubber's winners."""
    rubber = sheet["rubber"]
    rows = []
    for side in SIDES:
        values = [g["value"] for g in sheet["games"] if g["winner"] == side]
        bonus = 2 if rubber["winner"] == side else 0
        rows.append(
            {"side": side, "values": values, "bonus": bonus, "total": rubber["totals"][side]}
        )
    return rows


def _euchre_play(data: dict) -> str:
    """A Euchre hand in a few words: "E-W alone, 5 tricks (march); revoke by N-S"."""
    makers, tricks = side_name(data["makers"]), data["tricks"]
    text = f"{makers} {'alone' if data.get('alone') else 'make'}, {_n(tricks, 'trick')}"
    if tricks == 5:
        text += " (march)"
    elif tricks < 3 and not data.get("law50"):
        text += " (euchred)"
    extras = [f"revoke by {side_name(side)}" for side in data.get("revokes") or []]
    if data.get("law90"):
        extras.append(f"law 90 against {side_name(data['law90'])}")
    if data.get("law102"):
        extras.append("law 102: partner exposed a card")
    if data.get("law50"):
        extras.append("law 50: an adversary abandoned their hand")
    return "; ".join([text, *extras])


# Bridge ------------------------------------------------------------------------------


def _bridge(sheet: dict) -> dict:
    """The hands game by game, and the classic sheet: above the line, the line, below it."""
    rubber = sheet["rubber"]
    games = []
    for spec in _game_specs(sheet):
        rows = [
            {
                **_hand_common(hand, _bridge_play, "bridge"),
                "cells": [
                    {
                        "side": s,
                        "below": hand["points"][s]["below"],
                        "above": hand["points"][s]["above"],
                    }
                    for s in SIDES
                ],
            }
            for hand in _hands_of_game(sheet["hands"], spec["number"])
        ]
        below = [
            [
                {"amount": h["points"][s]["below"], "hand": h["number"]}
                for h in _hands_of_game(sheet["hands"], spec["number"])
                if h["points"][s]["below"]
            ]
            for s in SIDES
        ]
        games.append(
            {
                **spec,
                "hands": rows,
                "scores_row": [spec["scores"][s] for s in SIDES],
                # Trick points written downwards from the line, in the order scored.
                "below_rows": list(zip_longest(*below)),
            }
        )
    above = [
        [
            {"amount": h["points"][s]["above"], "hand": h["number"], "what": _above_what(h, s)}
            for h in sheet["hands"]
            if h["points"][s]["above"]
        ]
        for s in SIDES
    ]
    if rubber["complete"] and rubber.get("bonus"):
        above[SIDES.index(rubber["winner"])].append(
            {"amount": rubber["bonus"], "hand": None, "what": "rubber"}
        )
    totals = [
        {
            "side": s,
            "below": rubber["below"][s],
            "above": rubber["above"][s],
            "bonus": rubber.get("bonus", 0) if rubber["winner"] == s and rubber["complete"] else 0,
            "total": rubber["totals"][s],
        }
        for s in SIDES
    ]
    return {
        "games": games,
        # Honours, chicane, slams and the rubber are written upwards from the line:
        # the first scored sits just above it.
        "above_rows": list(reversed(list(zip_longest(*above)))),
        "totals": totals,
    }


def _above_what(hand: dict, side: str) -> str:
    """What a side's points above the line on this hand were for."""
    facts = hand["facts"]
    chicane = facts.get("chicane") or {}
    other = SIDES[1 - SIDES.index(side)]
    what = []
    if (facts.get("honours") or {}).get(side):
        # Ruling B4: the adversaries' chicane is deducted from this side's honours.
        what.append("honours less chicane" if chicane.get(other) else "honours")
    if chicane.get(side):
        what.append("chicane")
    slam = facts.get("slam")
    if slam and slam["side"] == side:
        what.append("grand slam" if slam["tricks"] == 13 else "little slam")
    return ", ".join(what)


def _bridge_play(data: dict) -> str:
    """A Bridge hand in a few words: "N-S declare hearts, doubled; N-S 9 tricks, E-W 4; ..."."""
    doubles = data.get("doubles") or 0
    doubled = {0: "", 1: ", doubled", 2: ", redoubled"}.get(doubles, f", doubled {doubles} times")
    tricks = data["tricks"]
    parts = [
        f"{side_name(data['declarer'])} declare {TRUMP_NAMES[data['trump']]}{doubled}",
        f"N-S {_n(tricks['NS'], 'trick')}, E-W {tricks['EW']}",
    ]
    honours = data.get("honours")
    if honours:
        what = "aces" if data["trump"] == "NT" else "honours"
        parts.append(
            f"{side_name(honours['side'])} {honours['held']} {what} "
            f"({honours['in_one_hand']} in one hand)"
        )
    for side, voids in (data.get("chicane") or {}).items():
        if voids:
            parts.append(f"{'double ' if voids == 2 else ''}chicane {side_name(side)}")
    for side, count in (data.get("revokes") or {}).items():
        if count:
            parts.append(f"{_n(count, 'revoke')} by {side_name(side)}")
    return "; ".join(parts)


# Call-Ace ----------------------------------------------------------------------------


def _call_ace(sheet: dict) -> dict:
    """A column per player, a row per deal with running totals, and the settling up (C5)."""
    players = [str(p) for p in sheet["players"]]
    running = dict.fromkeys(players, 0)
    rows = []
    for deal in sheet["deals"]:
        cells = []
        for p in players:
            running[p] += deal["points"][p]
            cells.append({"player": p, "points": deal["points"][p], "running": running[p]})
        rows.append(
            {**_hand_common(deal, _call_ace_play, "call_ace", sheet.get("players")), "cells": cells}
        )
    settlement = sheet.get("settlement") or {}
    return {
        "players": players,
        "deals": rows,
        "player_totals": [sheet["totals"][p] for p in players],
        "settlement": [settlement.get(p) for p in players],
    }


def _call_ace_play(data: dict) -> str:
    """A Call-Ace deal in a few words: "Bob with Cy, 4 tricks", "Ann alone, 5 tricks"."""
    revoke = data.get("revoke")
    if data.get("void") and revoke != "both":
        return "Void deal"
    maker, partner = data["maker"], data.get("partner")
    if data.get("alone"):
        text = f"{maker} alone"
    elif partner is None:
        text = f"{maker}, no partner found (alone)"
    else:
        text = f"{maker} with {partner}"
    if revoke:
        text += {
            "makers": "; revoke by the makers",
            "adversaries": "; revoke by an adversary",
            "both": "; both sides revoked (void)",
        }[revoke]
    elif data.get("tricks") is not None:
        text += f", {_n(data['tricks'], 'trick')}"
    if data.get("no_score"):
        text += f"; no score: {', '.join(map(str, data['no_score']))}"
    if data.get("wrong_cards"):
        text += f"; wrong number of cards: {', '.join(map(str, data['wrong_cards']))}"
    return text


# Shared ------------------------------------------------------------------------------


def _game_specs(sheet: dict) -> list[dict]:
    """The finished games, then the game in progress (if any), in one shape; each game's
    winners in words for the page ("N-S"), as its explanation lines name them."""
    specs = [
        {**g, "winner_words": side_name(g["winner"]), "in_progress": False} for g in sheet["games"]
    ]
    current = sheet.get("current")
    if current:
        specs.append(
            {
                "number": current["number"],
                "winner": None,
                "scores": current["scores"],
                "in_progress": True,
            }
        )
    return specs


def _hands_of_game(hands: list[dict], number: int) -> list[dict]:
    return [h for h in hands if h["facts"]["game"] == number]


def _in_seat_order(points: dict, seats: list | None) -> dict:
    """Call-Ace points keyed by player, re-ordered by seat (stored JSON keeps no order)."""
    if not seats:
        return points
    return {name: points[name] for name in seats if name in points}


def describe_play(ruleset: str, data: dict) -> str:
    """A hand of any rule set in a few words, as its score sheet shows it."""
    kind = GAMES[ruleset].kind
    return {"euchre": _euchre_play, "bridge": _bridge_play}.get(kind, _call_ace_play)(data)


def _hand_common(hand: dict, describe, kind: str, seats: list | None = None) -> dict:
    """What every hand row shows: its number, what was played, why it scored, corrections."""
    return {
        "number": hand["number"],
        "play": describe(hand["hand"]) if "hand" in hand else "",
        "lines": hand["lines"],
        "game_won": hand.get("game_won"),
        "corrected": bool(hand.get("corrected")),
        # The other side's word, where the club asks for it (club/confirmations.py).
        "confirmation": (hand.get("confirmation") or {}).get("state"),
        "corrections": [
            {
                "original_play": describe(c["original"]),
                "original_points": _points_text(_in_seat_order(c["original_points"], seats), kind),
                "who": _corrected_by(c),
                "law": _correction_law(c),
                "reason": c["reason"],
                "at": datetime.fromisoformat(c["at"]),
            }
            for c in hand.get("corrections") or []
        ],
    }


def _corrected_by(correction: dict) -> str:
    """Ruling E9: the players before the next hand, or the club's referee (the secretary;
    at a tournament's table its director too; the site's staff), named by his full name
    where he has one; without one, by that role alone, true of every account that
    corrects (selectors.REFEREE), never by his login name."""
    name = correction.get("by") or ("the table's phone" if correction.get("at_table") else None)
    unnamed = name == REFEREE
    if unnamed:
        name = None  # his role, said once below
    if correction["kind"] == "referee":
        who = "the club's referee"
    elif unnamed:  # an account's, within the players' time
        who = "the club's referee, before the next hand"
    else:
        who = "the players, before the next hand"
    return f"{who} ({name})" if name else who


def _correction_law(correction: dict) -> str:
    """The law the correction was made under; the referee's, ruling E9, named with it."""
    law = correction["law"]
    if correction["kind"] == "referee" and "ruling E9" not in law:
        return f"{law}, ruling E9"
    return law


def _points_text(points: dict, kind: str) -> str:
    """A hand's points as a line of the sheet: "N-S 0, E-W 4"; Bridge below and above.

    Sides come NS first, and Call-Ace players in their seats' order as recorded: a
    JSON object's keys have no order of their own once stored (PostgreSQL's jsonb
    sorts them), so the order is imposed here.
    """
    if kind == "bridge":
        return "; ".join(
            f"{side_name(s)} {points[s]['below']} below, {points[s]['above']} above" for s in SIDES
        )
    order = SIDES if kind == "euchre" else list(points)
    return ", ".join(f"{side_name(who)} {points[who]}" for who in order)


def _ledger(sheet: dict) -> list[dict] | None:
    """The money (ruling M1, C5) in the players' seating order, or None until it is settled."""
    ledger = sheet.get("ledger")
    if not ledger:
        return None
    players = sheet.get("players")
    order = (
        [n for side in SIDES for n in players[side]] if isinstance(players, dict) else players
    ) or []
    names = [n for n in order if n in ledger] + [n for n in ledger if n not in order]
    rows = []
    for name in names:
        amount = Decimal(ledger[name])
        rows.append(
            {
                "name": name,
                "amount": amount,  # written by the one `money` filter (a loss: U+2212)
                "sign": (amount > 0) - (amount < 0),
            }
        )
    return rows


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"
