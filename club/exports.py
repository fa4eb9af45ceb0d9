"""What an evening's exports hold, row by row: the hands, the ledger, the printable sheet.

Rows are lists of plain text and numbers a spreadsheet reads as they are: one column per
figure (never a Python dict in a cell), players by name (never a database id), the
law-cited explanation as text. The views write the rows with the project's CSV writer.
"""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Count, Sum

from club.closing import abandon_reasons, players_text
from club.history import substitutions, with_substitutes
from club.models import Evening
from club.selectors_public import PLAYED
from scoring.hand_input import hand_input
from scoring.models import Hand, Rubber, Settlement
from scoring.rules import get_ruleset
from scoring.rules.base import SIDE_NAMES
from scoring.rules.call_ace import UNPLAYED_SITTING
from scoring.rules.games import GAMES

SIDE_WORDS = SIDE_NAMES  # the score sheet's words for the sides (scoring.rules.base)


def _cell(value) -> str | int:
    """One figure as a spreadsheet reads it: numbers stay numbers, yes/no for flags."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return value
    if isinstance(value, list | tuple):
        return ", ".join(SIDE_WORDS.get(str(v), str(v)) for v in value)
    text = str(value)
    return SIDE_WORDS.get(text, text)


def _flatten(
    value, path: str, into: dict, words: dict[str, str], choices: dict[str, dict[str, str]]
) -> None:
    """A nested figure ({"tricks": {"NS": 9}}) as one column each, named as the phone's
    form names its field (`words`, scoring.hand_input: "tricks taken by N-S", "lone
    player's partner exposed a card" where the data says `law102`), else by its path in
    words ("points N-S"); a choice in the words the form's list offers it (`choices`:
    Bridge's "No trumps" where the data says `NT`)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            _flatten(inner, f"{path}.{key}" if path else str(key), into, words, choices)
        return
    if value is None and any(key.startswith(f"{path}.") for key in words):
        # A group of figures not held (Bridge's honours when no side counts them, ruling
        # B3): its own columns are left empty, not a column of the group's, always empty.
        return
    named = words.get(path)
    if named is not None:
        column = named.removeprefix("the ")
    else:
        column = " ".join(SIDE_WORDS.get(part, part) for part in path.split("."))
    shown = choices.get(path, {})
    into[column] = shown[value] if isinstance(value, str) and value in shown else _cell(value)


def _ordinals(evening: Evening) -> dict[int, int]:
    seen: dict[int | None, int] = {}
    places = {}
    for pk, table_id in evening.rubbers.order_by("pk").values_list("pk", "table_id"):
        seen[table_id] = seen.get(table_id, 0) + 1
        places[pk] = seen[table_id]
    return places


def hands_rows(*, evening: Evening) -> list[list]:
    """Every hand of the evening: table, rubber (its number at the table), the players,
    the hand's number, one column per recorded figure, one per side's (Call-Ace: player's)
    points, the explanation citing the laws, and how often it was corrected."""
    ordinals = _ordinals(evening)
    sat_in = substitutions(evening=evening)
    game = GAMES[evening.ruleset]
    form = hand_input(evening.ruleset)
    words, choices = form.words, form.choices
    partnership = get_ruleset(evening.ruleset).partnership
    hands = (
        Hand.objects.filter(rubber__evening=evening)
        .select_related("rubber__table")
        .order_by("rubber__table__number", "rubber_id", "number")
    )
    records: list[dict] = []
    for hand in hands:
        rubber = hand.rubber
        row: dict = {
            "table": rubber.table.number if rubber.table_id else "",
            game.rubber_label: ordinals[rubber.pk],
            "players": with_substitutes(players_text(rubber.players), sat_in.get(rubber.pk)),
            game.hand_label: hand.number,
        }
        _flatten({k: v for k, v in hand.data.items() if k != "number"}, "", row, words, choices)
        _flatten(hand.points, "points", row, words, choices)
        if partnership:  # a Call-Ace sitting has no games (its deals' points settle it)
            row["game won by"] = _cell(hand.game_won) if hand.game_won else ""
        row["explanation"] = "; ".join(hand.lines)
        row["times corrected"] = hand.correction_count
        records.append(row)
    last = [*(["game won by"] if partnership else []), "explanation", "times corrected"]
    columns: list[str] = ["table", game.rubber_label, "players", game.hand_label]
    for row in records:  # the figures' columns in the order they first appear
        for key in row:
            if key not in columns and key not in last:
                columns.append(key)
    columns += last
    return [columns] + [[row.get(column, "") for column in columns] for row in records]


def ledger_rows(*, evening: Evening) -> list[list]:
    """The evening's ledger for a treasurer (ruling M1): one row a player, the evening's
    date and name on each so several evenings paste into one sheet, the rubbers (Call-Ace:
    sittings) settled, and the amount as a plain number in the club's currency, winnings
    positive, losses negative; the amounts add to zero."""
    rows = (
        Settlement.objects.filter(rubber__evening=evening)
        .values("member__name")
        .annotate(total=Sum("amount"), settled=Count("rubber", distinct=True, filter=PLAYED))
        .order_by("member__name")
    )
    currency = evening.club.currency
    settled = f"{GAMES[evening.ruleset].rubber_label}s settled"  # Call-Ace: sittings
    header = ["date", "evening", "player", settled, f"amount ({currency})"]
    body = [
        [
            evening.date.isoformat(),
            str(evening),
            row["member__name"],
            row["settled"],
            # A number, not text, so the spreadsheet adds the column up (config.csvexport).
            Decimal(row["total"]).quantize(Decimal("0.01")),
        ]
        for row in rows
    ]
    return [header, *body]


def _result(rubber: Rubber, reasons: dict[int, str], evening: Evening) -> str:
    kind = "sitting" if not rubber.rules.partnership else "rubber"
    if rubber.status == Rubber.Status.ABANDONED:
        reason = reasons.get(rubber.pk)
        if reason:
            return f"abandoned when the evening closed: {reason}"
        # The evening's own law for a table breaking up (Euchre's law 21 is Call-Ace's law
        # on calling for a partner).
        law = GAMES[rubber.ruleset].tables.cite("break_up")
        return f"abandoned when its table broke up ({law})"
    if rubber.status == Rubber.Status.IN_PROGRESS:
        return "in play" if evening.status == Evening.Status.OPEN else "left unfinished"
    if not rubber.rules.partnership:
        return f"{kind} settled (ruling C5)" if rubber.hand_count else f"{kind} {UNPLAYED_SITTING}"
    side = rubber.winner
    names = " & ".join((rubber.players or {}).get(side, []))
    return f"won by {names} ({SIDE_WORDS.get(side, side)}), worth {rubber.value}"


def sheet_rubbers(*, evening: Evening) -> list[dict]:
    """Each rubber of the evening for the printable sheet, labelled: table, its number at
    the table, players and result ("won by Ann & Bob (N-S), worth 6", "abandoned: ...")."""
    from scoring.selectors import rubber_scoresheet
    from scoring.views import scoresheet_display

    ordinals = _ordinals(evening)
    reasons = abandon_reasons(evening=evening)
    sat_in = substitutions(evening=evening)
    rubbers = evening.rubbers.select_related("table").order_by("pk")
    labelled = []
    for rubber in rubbers:
        kind = "Rubber" if rubber.rules.partnership else "Sitting"
        table = f"Table {rubber.table.number}" if rubber.table_id else "No table"
        labelled.append(
            {
                "label": f"{table}, {kind.lower()} {ordinals[rubber.pk]}",
                "players": with_substitutes(players_text(rubber.players), sat_in.get(rubber.pk)),
                "result": _result(rubber, reasons, evening),
                "sheet": scoresheet_display(rubber_scoresheet(rubber=rubber)),
            }
        )
    return labelled
