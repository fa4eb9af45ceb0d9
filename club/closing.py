"""Closing an evening with rubbers still in play: each is finished as played or abandoned.

A rubber is never left in progress by a closed evening. The secretary says, for each rubber
still in play, what happened to it:

- ``finished``: it was played to its end. A Euchre or Bridge rubber is finished by its
  hands, so they are recorded first (the close is refused until they are); a Call-Ace
  sitting is ended and settled as played (ruling C5).
- ``abandoned``: play stopped before the rubber was won; its hands stand as they were
  scored and it settles nothing (as for a table that breaks up, law 21), with the
  secretary's reason, kept in the evening's log.

Rubbers are named as the log names them: the table's number and the rubber's place at that
table this evening (1, 2, ...).
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.text import capfirst

from core.errors import UserError
from core.text import clean_reason
from scoring import services as scoring
from scoring.models import Rubber

OUTCOMES = {
    "finished": "finished as played",
    "abandoned": "abandoned: its hands stand as scored and it settles nothing",
}


def players_text(players) -> str:
    """The players of a rubber as a sheet writes them: "Ann & Bob v Cat & Dan"."""
    if isinstance(players, dict):
        return f"{' & '.join(players.get('NS', []))} v {' & '.join(players.get('EW', []))}"
    return ", ".join(players or [])


def _ordinals(evening_id: int) -> dict[int, int]:
    """Each rubber's place at its table this evening (1, 2, ...), by primary key."""
    places: dict[int, int] = {}
    seen: dict[int | None, int] = {}
    for pk, table_id in (
        Rubber.objects.filter(evening_id=evening_id).order_by("pk").values_list("pk", "table_id")
    ):
        seen[table_id] = seen.get(table_id, 0) + 1
        places[pk] = seen[table_id]
    return places


def unfinished_rubbers(*, evening) -> list[dict]:
    """The evening's rubbers (Call-Ace: sittings) still in play, for the closing dialog:
    table, place at the table, players, hands so far, and whether it is a sitting."""
    ordinals = _ordinals(evening.pk)
    rubbers = (
        Rubber.objects.filter(evening=evening, status=Rubber.Status.IN_PROGRESS)
        .select_related("table")
        .order_by("table__number", "pk")
    )
    return [
        {
            "id": rubber.pk,
            "table": rubber.table.number if rubber.table_id else None,
            "rubber": ordinals[rubber.pk],
            "players": players_text(rubber.players),
            "hands": rubber.hand_count,
            "sitting": not rubber.rules.partnership,
        }
        for rubber in rubbers
    ]


def _named(rubber: dict) -> str:
    kind = "sitting" if rubber["sitting"] else "rubber"
    hands = rubber["hands"]
    table = "no table" if rubber["table"] is None else f"table {rubber['table']}"
    return (
        f"{table}'s {kind} {rubber['rubber']} ({rubber['players']}, "
        f"{hands} hand{'' if hands == 1 else 's'})"
    )


def _what_to_say(missing: list[dict]) -> str:
    """What the secretary says of rubbers left unanswered: a sitting is ended as played or
    abandoned (ruling C5); a rubber in play is not over by its hands, so it is abandoned,
    or its last hands are recorded first (they end it), never "finished" as it stands."""
    sittings = any(r["sitting"] for r in missing)
    rubbers = any(not r["sitting"] for r in missing)
    said = []
    if sittings:
        said.append("say of each sitting whether it ended as played or was abandoned")
    if rubbers:
        said.append(
            "record the hands that finished a rubber before closing, or say it was abandoned"
        )
    return capfirst("; ".join(said)) + " (with the reason)."


def _outcomes(given) -> dict[tuple[int, int], dict]:
    """The secretary's answers, checked: [{table, rubber, outcome, reason}, ...]."""
    if given is None:
        return {}
    if not isinstance(given, list):
        raise UserError(
            "'rubbers' lists, for each rubber in play, its table, its number at the table, "
            "the outcome (finished or abandoned) and, if abandoned, the reason.",
            field="rubbers",
        )
    answers: dict[tuple[int, int], dict] = {}
    for index, answer in enumerate(given):
        field = f"rubbers[{index}]"
        if not isinstance(answer, dict):
            raise UserError("Each answer is an object.", field=field)
        table, number = answer.get("table"), answer.get("rubber")
        # A rubber at no table (one the API started at the evening before it refused to)
        # is named with the table null, as the board's dialog sends it.
        numbers = (number,) if table is None else (table, number)
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
            raise UserError("Name the rubber by 'table' and 'rubber' (numbers).", field=field)
        outcome = answer.get("outcome")
        if not isinstance(outcome, str) or outcome not in OUTCOMES:
            raise UserError(
                "Say what happened: 'finished' (finished as played) or 'abandoned' (its "
                "hands stand as scored and it settles nothing).",
                field=f"{field}.outcome",
            )
        reason = clean_reason(answer.get("reason"), field=f"{field}.reason")
        if outcome == "abandoned" and not reason:
            raise UserError(
                "Say why the rubber was abandoned.", field=f"{field}.reason", law="law 21"
            )
        answers[(table, number)] = {
            "table": table,
            "rubber": number,
            "outcome": outcome,
            **({"reason": reason} if outcome == "abandoned" else {}),
        }
    return answers


def settle_unfinished(*, evening, answers, hold: Callable[[Rubber], Rubber]) -> list[dict]:
    """Finish or abandon every rubber still in play at the (locked) evening, as the
    secretary answered; refuse the close, changing nothing, while any is unanswered or a
    rubber said to be finished still lacks the hands that finished it. ``hold`` locks a
    rubber (the caller's lock order). Returns the answers, for the log."""
    answered = _outcomes(answers)
    unfinished = unfinished_rubbers(evening=evening)
    known = {(r["table"], r["rubber"]) for r in unfinished}
    for key in answered:
        if key not in known:
            raise UserError(
                f"Table {key[0]} has no rubber {key[1]} in play this evening.", field="rubbers"
            )
    missing = [r for r in unfinished if (r["table"], r["rubber"]) not in answered]
    if missing:
        raise UserError(
            # Named as the game names them: at Call-Ace a sitting (ruling C5), not a rubber.
            "Still in play, with no answer given: "
            + "; ".join(_named(r) for r in missing)
            + ". "
            + _what_to_say(missing),
            field="rubbers",
            code="unfinished_rubbers",
            details={"rubbers": missing},
        )
    by_key = {(r["table"], r["rubber"]): r for r in unfinished}
    settled = []
    for key, rubber in by_key.items():
        answer = answered[key]
        row = hold(Rubber.objects.get(pk=rubber["id"]))
        if answer["outcome"] == "finished":
            if not rubber["sitting"]:
                # capfirst, not str.capitalize: the players' names as written ("Gus", not "gus").
                raise UserError(
                    f"{capfirst(_named(rubber))} is not over by its hands: record the hands "
                    "that finished it before closing, or say it was abandoned.",
                    field="rubbers",
                    law=row.rules.rubber_law,
                )
            scoring.rubber_close(rubber=row)  # ruling C5: settled as played
        else:
            scoring.rubber_abandon(rubber=row)
        settled.append(answer)
    return settled


def abandoned_at_last_close(*, evening) -> list[Rubber]:
    """The rubbers the evening's last close abandoned and that are still abandoned: a
    reopened evening plays them on."""
    last = evening.events.filter(type="close").order_by("-seq").first()
    if last is None:
        return []
    named = {
        (answer["table"], answer["rubber"])
        for answer in last.data.get("rubbers", []) or []
        if answer.get("outcome") == "abandoned"
    }
    if not named:
        return []
    ordinals = _ordinals(evening.pk)
    rubbers = Rubber.objects.filter(evening=evening, status=Rubber.Status.ABANDONED)
    return [
        rubber
        for rubber in rubbers.select_related("table").order_by("pk")
        if (rubber.table.number if rubber.table_id else None, ordinals[rubber.pk]) in named
    ]


def abandon_reasons(*, evening, events=None) -> dict[int, str]:
    """Rubber id -> the reason the secretary gave, when closing, for abandoning it.
    `events`: the evening's log entries already read, in order, its `close` among them."""
    reasons: dict[tuple[int, int], str] = {}
    if events is None:
        closes = evening.events.filter(type="close").order_by("seq").values_list("data", flat=True)
    else:
        closes = [event.data for event in events if event.type == "close"]
    for data in closes:
        for answer in data.get("rubbers", []) or []:
            if answer.get("outcome") == "abandoned":
                reasons[(answer["table"], answer["rubber"])] = answer.get("reason", "")
    if not reasons:
        return {}
    ordinals = _ordinals(evening.pk)
    rows = Rubber.objects.filter(evening=evening).values_list("pk", "table__number")
    return {
        pk: reasons[(number, ordinals[pk])]
        for pk, number in rows
        if (number, ordinals[pk]) in reasons
    }


def check_rubber_end(*, evening, event: dict) -> None:
    """A rubber ends with the hand that wins it, and the service logs that end itself. One
    sent by a caller (the API, the board, a replayed log) is refused while the table's
    rubber is in play: with no hands, or with hands that have not won it."""
    number = event.get("table")
    in_play = Rubber.objects.filter(status=Rubber.Status.IN_PROGRESS, evening=evening)
    rubber = (
        in_play.filter(table__number=number).order_by("-pk").first()
        if isinstance(number, int)
        else None
    )
    if rubber is None:
        return  # the engine answers for a table with no rubber in play
    law = rubber.rules.rubber_law
    if rubber.hand_count == 0:
        raise UserError(
            f"The rubber at table {number} has no hands: a rubber ends with the hand that wins "
            "it, which the service records with its end.",
            field="table",
            law=law,
            code="rubber_without_hands",
        )
    raise UserError(
        f"The rubber at table {number} is not over by its hands: it ends with the hand that "
        "wins it, which the service records with its end. Break up the table, or close the "
        "evening, to abandon it.",
        field="table",
        law=law,
    )
