"""The evening's history, as the secretary's board shows it: every entry of the log in
words, who made it (a secretary, a table's phone, the service) and why (the reason
given for a correction, a hand taken off, a reopening or an undo), newest first, an
undone entry marked as such."""

from club.evening_undo import undone_seqs, why_not_undone
from club.models import Evening, EveningEvent
from scoring.models import Rubber
from scoring.rules.games import Game, get_game


def _names(names) -> str:
    names = [str(name) for name in names]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _cards(cards) -> str:
    if isinstance(cards, dict):
        return ", ".join(f"{player} {card}" for player, card in cards.items())
    if isinstance(cards, list):
        return ", ".join(" ".join(str(part) for part in throw) for throw in cards)
    return ""


def _hand_at(data: dict, game: Game | None) -> str:
    hand, rubber = _labels(game)
    return (
        f"{hand} {data.get('number')} of {rubber} {data.get('rubber')} at table {data.get('table')}"
    )


def _labels(game: Game | None) -> tuple[str, str]:
    """What the evening's game calls a hand and a rubber: at Call-Ace, a deal and a
    sitting (ruling C5)."""
    return (game.hand_label, game.rubber_label) if game else ("hand", "rubber")


def describe(data: dict, *, automatic: bool = False, game: Game | None = None) -> str:
    """One log entry in the secretary's words ("Ann arrives", "Table 2 breaks up"), a hand
    and a rubber named as the evening's `game` names them."""
    kind = data.get("type")
    player, table = data.get("player"), data.get("table")
    if kind == "arrive":
        return f"{player} arrives" + (" (a new player)" if data.get("new_player") else "")
    if kind == "depart":
        return f"{player} leaves the room"
    if kind == "form_table":
        return "A table is formed from the candidates"
    if kind == "cut":
        drawn = " (drawn by the service)" if data.get("drawn") else ""
        return f"Cards cut: {_cards(data.get('cards'))}{drawn}"
    if kind == "deal_jack":
        return f"Cards thrown for the first jack at table {table}: {_cards(data.get('cards'))}"
    if kind == "claim":
        if game is not None and not game.partnership:
            # Call-Ace admits at once (law 1), and a sitting is played by the same players
            # throughout: one in play ends, settled as it stood (ruling C5).
            return (
                f"{player} joins table {table}: any sitting in play there is closed and settled "
                f"as it stood, and a new one begins with {player} (ruling C5)"
            )
        return f"{player} claims admission at table {table}"
    if kind == "withdraw":
        return f"{player} withdraws a claim"
    if kind == "rubber_end":
        after = " after its last hand" if automatic else ""
        return f"The rubber at table {table} ends{after}"
    if kind == "substitute":
        return f"{data.get('substitute')} sits in for {player} at table {table}"
    if kind == "leave":
        if game is not None and not game.partnership:  # as a Call-Ace arrival's (C5)
            return (
                f"{player} leaves table {table}: any sitting in play there is closed and "
                "settled as it stood (ruling C5)"
            )
        return f"{player} leaves table {table}"
    if kind == "change_table":
        where = "makes up a fresh table" if table == "new" else f"cuts into table {table}"
        back = " and will return" if data.get("will_return") else ""
        return f"{player} {where}{back}"
    if kind == "announce":
        return f"{player} announces the desire to succeed at table {table} (ruling T13)"
    if kind == "dealer_choice":
        return f"The dealer at table {table} chooses a seat (ruling T12)"
    if kind == "break_up":
        return f"Table {table} breaks up"
    if kind == "hand":
        hand, rubber = _labels(game)
        return f"A {hand} is recorded at table {table} ({rubber} {data.get('rubber')})"
    if kind == "correction":
        return f"{_hand_at(data, game).capitalize()} is corrected"
    if kind == "hand_removed":
        return f"{_hand_at(data, game).capitalize()} is taken off"
    if kind == "close_sitting":
        if data.get("deals") == 0:  # logged since the count was; earlier entries have none
            return (
                f"The sitting at table {table} ends before any deal is played: it settles "
                "nothing (ruling C5)"
            )
        return f"The sitting at table {table} ends and is settled"
    if kind == "close":
        return "The evening is closed"
    if kind == "reopen":
        return "The evening is reopened"
    if kind == "undo":
        return f"Entry {data.get('undoes')} is undone"
    return str(kind)


def _who(event: EveningEvent) -> str:
    if event.by_user is not None:
        return event.by_user.get_full_name() or event.by_user.get_username()
    if event.by_table is not None:
        return f"table {event.by_table.number}'s phone"
    if event.automatic:
        return "the service"
    return "no name recorded"


def changes_since(*, evening: Evening, version: int, you=None) -> list[tuple[str, bool]]:
    """Each entry of the evening's log after `version` (what a device that saw that version
    has not seen), oldest first, in words with who made it ("Ann arrives, by Silas Wegg"),
    and whether it was `you`'s, the user asking: his own are said "by you" (his own first
    tap of a form, or his other device), never by his name as if another's."""
    rows = evening.events.select_related("by_user", "by_table").filter(seq__gt=version)
    game = get_game(evening.ruleset)
    changes = []
    for event in rows.order_by("seq"):
        yours = you is not None and event.by_user_id is not None and event.by_user_id == you.pk
        who = "you" if yours else _who(event)
        changes.append(
            (f"{describe(event.data, automatic=event.automatic, game=game)}, by {who}", yours)
        )
    return changes


def evening_history(*, evening: Evening, limit: int = 60) -> dict:
    """The last `limit` entries of the evening's log in words, newest first, and what an
    undo would do: {"entries": [{seq, at, who, what, why, undone, decisions}], "total",
    "undo": {"seq", "what"} or None, "cannot_undo": the reason or None}."""
    undone = undone_seqs(evening.events.filter(type="undo").only("type", "data"))
    game = get_game(evening.ruleset)
    rows = list(evening.events.select_related("by_user", "by_table").order_by("-seq")[:limit])
    reversed_by = {
        event.seq: event
        for event in evening.events.filter(
            seq__in=[e.data.get("undoes") for e in rows if e.type == "undo"]
        )
    }

    def what(event: EveningEvent) -> str:
        if event.type == "undo" and event.data.get("undoes") in reversed_by:
            target = reversed_by[event.data["undoes"]]
            return f"Undone: {describe(target.data, automatic=target.automatic, game=game)}"
        return describe(event.data, automatic=event.automatic, game=game)

    entries = [
        {
            "seq": event.seq,
            "at": event.created_at,
            "who": _who(event),
            "what": what(event),
            "why": event.data.get("reason", "") if isinstance(event.data, dict) else "",
            "undone": event.seq in undone,
            "decisions": [d.get("text", "") for d in event.decisions or []],
        }
        for event in rows
    ]
    last = rows[0] if rows else None
    refusal = why_not_undone(evening, last)
    return {
        "entries": entries,
        "total": evening.events.count(),
        "undo": None if refusal else {"seq": last.seq, "what": describe(last.data, game=game)},
        "cannot_undo": refusal if last is not None else None,
    }


#: The log entries `substitutions` reads (with `close`, what abandon_reasons reads).
SUBSTITUTION_ENTRIES = ("substitute", "undo")


def substitutions(*, evening: Evening, events=None) -> dict[int, list[str]]:
    """Who sat in for whom in each rubber of the evening, from its log (law 18, ruling T6):
    rubber id -> ["Kit for Ann"], for the sheets that book a rubber to its players. The
    rubber booked to the absent player (T6) was played by the substitute: the club's book
    names him. A substitution undone is none. A substitute sits in for the rubber in play
    at his table when he is appointed: the last begun there before it. `events`: the
    evening's log entries already read, in order, those of SUBSTITUTION_ENTRIES among them."""
    if events is None:
        events = evening.events.filter(type__in=SUBSTITUTION_ENTRIES).order_by("seq")
    entries = [event for event in events if event.type in SUBSTITUTION_ENTRIES]
    undone = undone_seqs(entries)
    made = [e for e in entries if e.type == "substitute" and e.seq not in undone]
    if not made:
        return {}
    rubbers = list(
        Rubber.objects.filter(evening=evening, table__isnull=False)
        .order_by("created_at", "pk")
        .values_list("pk", "table__number", "created_at")
    )
    found: dict[int, list[str]] = {}
    for event in made:
        data = event.data
        begun = [pk for pk, number, at in rubbers
                 if number == data.get("table") and at <= event.created_at]  # fmt: skip
        if begun:
            found.setdefault(begun[-1], []).append(f"{data['substitute']} for {data['player']}")
    return found


def with_substitutes(players: str, sat_in: list[str] | None) -> str:
    """A rubber's players as a sheet writes them, and who sat in for whom (law 18): "Ann &
    Bob v Cat & Dan (Kit for Ann, law 18)"."""
    return f"{players} ({', '.join(sat_in)}, law 18)" if sat_in else players
