"""A backup's evenings checked by the laws of forming tables as they are restored
(club/backup.py).

An evening's log is its record (docs/evening-log.md): every action, in order, numbered
1, 2, 3 ... Its `state` (the tables, who waits, who plays, the cuts still to make) and its
`version` (how many entries the log holds, which the board and the phones send back so a
stale device is refused) are what the service makes of the log: they are derived again
here, as the rubbers are from their hands (club/backup_scoring.py), never read from the
backup. A backup restored them as written before: an evening whose state a hand-edited
file, or an older server, left at odds with its log showed the board tables the log never
formed, and one whose version was not its log's length refused every device's action as
stale, or took two entries under one number.

What cannot be derived is refused, naming the model, the row's place among its model's
rows, its old id and the field, in words, with the law or ruling (a BackupError; the
import is one transaction, so nothing is written):
- entries not numbered 1, 2, 3 ... in their evening;
- an entry whose data is not a JSON object of its own type, or whose type is none of the
  log's (said in words);
- an undo that names no earlier entry of the secretary's;
- an action the laws of forming tables would not have taken where it stands in the log
  (club.formation's engine, replayed as undoing an entry replays it: the secretary's
  actions, less those undone);
- an evening's tables (club.table rows) at odds with its log: a row of a table the log
  never formed, or a table standing in the state the log makes with no row (ruling T3);
- an entry made at a table's phone (`by_table`) naming a table of another evening.
"""

import contextlib
import re
from collections import defaultdict

from django.db.models import Count, F, Max, Min, Q
from django.db.models.fields.json import KeyTextTransform

from club.backup_scoring import BackupError
from club.evening_undo import undone_seqs
from club.evenings import SECRETARY_EVENTS
from club.formation import FormationError, engine
from club.formation.engine.wording import ACTION_TEXT, SERVICE_TEXT, not_an_action
from club.models import Evening, EveningEvent, Table

#: Every kind of entry an evening's log holds, in words (docs/evening-log.md): the
#: secretary's actions, the service's own entries, and an undo.
LOG_TEXT = {**ACTION_TEXT, **SERVICE_TEXT, "undo": "undoing the last action"}


def _where(section_rows: list[dict], model_label: str, old) -> str:
    """'club.eveningevent row 4 (id 17)': the row's place among its model's rows in the
    backup, found by its old id (only when a refusal names it)."""
    index = next((i for i, row in enumerate(section_rows) if row.get("pk") == old), "?")
    return f"{model_label} row {index} (id {old})"


class _Places:
    """The backup's rows named by their new primary keys, for a refusal."""

    def __init__(self, data: dict, new_pk: dict):
        self.sections = {s["model"]: s["rows"] for s in data["models"]}
        self.old = {
            model: {new: old for old, new in new_pk.get(model, {}).items()}
            for model in (Evening, EveningEvent, Table)
        }

    def table(self, pk: int) -> str:
        return _where(self.sections.get("club.table", []), "club.table", self.old[Table][pk])

    def evening(self, pk: int) -> str:
        return _where(self.sections.get("club.evening", []), "club.evening", self.old[Evening][pk])

    def event(self, event: EveningEvent) -> str:
        label = "club.eveningevent"
        row = _where(self.sections.get(label, []), label, self.old[EveningEvent][event.pk])
        evening = self.old[Evening][event.evening_id]
        return f"{row[:-1]}: entry {event.seq} of evening id {evening})"


def evenings_derived(club, data: dict, new_pk: dict) -> None:
    """Check each restored evening's log and derive its state and version from it (the
    module's docstring says what is refused)."""
    places = _Places(data, new_pk)
    evenings = {e.pk: e for e in Evening.objects.filter(club=club)}
    if not evenings:
        return
    counted = {
        row["evening"]: row
        for row in EveningEvent.objects.filter(evening__in=list(evenings))
        .values("evening")
        .annotate(n=Count("pk"), first=Min("seq"), last=Max("seq"))
    }
    for pk, row in counted.items():
        # (evening, seq) is unique: the first 1 and the last the count means 1, 2, 3 ...
        if row["first"] != 1 or row["last"] != row["n"]:
            raise BackupError(
                f"{places.evening(pk)}, its log (club.eveningevent): its {row['n']} entries "
                f"are numbered {row['first']} to {row['last']}; an evening's entries are "
                "numbered 1, 2, 3 ... in the order they were made."
            )
    mistyped = (
        EveningEvent.objects.filter(evening__in=list(evenings))
        .annotate(said=KeyTextTransform("type", "data"))
        .filter(Q(said__isnull=True) | ~Q(said=F("type")))
        .order_by("evening_id", "seq")
        .first()
    )
    if mistyped is not None:
        raise BackupError(
            f"{places.event(mistyped)}, field data: an entry's data is a JSON object whose "
            f"'type' is the entry's own ({mistyped.type!r})."
        )
    unknown = (
        EveningEvent.objects.filter(evening__in=list(evenings))
        .exclude(type__in=list(LOG_TEXT))
        .order_by("evening_id", "seq")
        .first()
    )
    if unknown is not None:
        said = not_an_action(unknown.type, what="an entry of an evening's log", known=LOG_TEXT)
        raise BackupError(f"{places.event(unknown)}, field type: {said}.")
    logs = defaultdict(list)
    for event in EveningEvent.objects.filter(
        evening__in=list(evenings), type__in=[*SECRETARY_EVENTS, "undo"]
    ).order_by("evening_id", "seq"):
        logs[event.evening_id].append(event)
    _check_by_table(evenings, places)
    for pk, evening in evenings.items():
        replayed, formed = _replayed(evening, logs.get(pk, []), places)
        _check_tables(evening, replayed, formed, places)
        if replayed.events_applied or evening.state:
            state = replayed.to_dict()
            state["decisions"] = _decisions(evening.state, state["decisions"])
            evening.state = state
        # else: an evening no action of the secretary's has touched keeps the service's
        # own form of it, no state at all (club.evenings.evening_state).
        evening.version = counted.get(pk, {}).get("n", 0)
        evening.save(update_fields=["state", "version"])


def _decisions(backup_state, replayed: list[dict]) -> list[dict]:
    """The decisions of the evening's state: the backup's, word for word, where they are
    the replay's but for the order of the words (a cut's cards are a JSON object, whose
    keys PostgreSQL's jsonb gives back in its own order, so a replay names the cutters in
    another order than they were named in, as evening_undo keeps them); else the replay's."""
    given = backup_state.get("decisions") if isinstance(backup_state, dict) else None

    def words(decision) -> tuple:
        if not isinstance(decision, dict) or not isinstance(decision.get("text"), str):
            return ()
        said = sorted(re.findall(r"\w+", decision["text"]))
        return decision.get("law"), decision.get("event"), said

    if (
        isinstance(given, list)
        and len(given) == len(replayed)
        and all(words(a) == words(b) for a, b in zip(given, replayed, strict=True))
    ):
        return given
    return replayed


def _replayed(evening: Evening, events: list[EveningEvent], places: _Places):
    """The engine's state after the evening's log: its secretary's actions, less those
    undone, as evening_undo replays them."""
    actions = {e.seq for e in events if e.type in SECRETARY_EVENTS}
    for undo in (e for e in events if e.type == "undo"):
        undoes = undo.data.get("undoes")
        if undoes not in actions or undoes >= undo.seq:
            raise BackupError(
                f"{places.event(undo)}, field data.undoes: {undoes!r} is no earlier action of "
                "the evening's log; an undo names the entry it reversed."
            )
    undone = undone_seqs(events)
    try:
        state = engine.new_evening(evening.ruleset)
    except FormationError as exc:
        raise BackupError(f"{places.evening(evening.pk)}, field ruleset: {exc.message}") from exc
    formed: set[int] = set()
    for event in events:
        if event.type not in SECRETARY_EVENTS:
            continue
        if event.seq in undone:
            # Only the last entry is undone (club.evening_undo): it was made on the state
            # as it stands here, and a table it formed may keep its row (one with rubbers).
            with contextlib.suppress(FormationError):  # refused: it formed nothing
                formed.update(table.number for table in engine.apply(state, event.data)[0].tables)
            continue
        try:
            state, _ = engine.apply(state, event.data)
        except FormationError as exc:
            field = f"data.{exc.field}" if exc.field else "data"
            raise BackupError(f"{places.event(event)}, field {field}: {exc.message}") from exc
        formed.update(table.number for table in state.tables)
    return state, formed


def _numbers(numbers) -> str:
    numbers = sorted(numbers)
    if not numbers:
        return "formed no table"
    if len(numbers) == 1:
        return f"formed table {numbers[0]}"
    return f"formed tables {', '.join(str(n) for n in numbers[:-1])} and {numbers[-1]}"


def _check_tables(evening: Evening, state, formed: set[int], places: _Places) -> None:
    """An evening's tables (club.table rows) are the ones its log formed (ruling T3): a row
    of a table the log never formed is refused, and so is a table standing in the state the
    log makes with no row (its phone, its rubbers and the board need one)."""
    rows = {table.number: table for table in Table.objects.filter(evening=evening)}
    stray = sorted(set(rows) - formed)
    if stray:
        number = stray[0]
        raise BackupError(
            f"{places.table(rows[number].pk)}, field number: evening id "
            f"{places.old[Evening][evening.pk]}'s log never formed a table {number}: it "
            f"{_numbers(formed)}; an evening's tables are the ones its log formed (ruling T3)."
        )
    for table in state.tables:
        if table.number not in rows:
            raise BackupError(
                f"{places.evening(evening.pk)}, its tables (club.table): its log forms table "
                f"{table.number}, which still stands, but the backup has no club.table row for "
                "it; an evening's tables are the ones its log formed (ruling T3)."
            )


def _check_by_table(evenings: dict, places: _Places) -> None:
    """An entry made at a table's phone (its `by_table`) names a table of its own evening."""
    astray = (
        EveningEvent.objects.filter(evening__in=list(evenings), by_table__isnull=False)
        .exclude(by_table__evening=F("evening"))
        .select_related("by_table")
        .order_by("evening_id", "seq")
        .first()
    )
    if astray is not None:
        table = astray.by_table
        raise BackupError(
            f"{places.event(astray)}, field by_table: club.table id "
            f"{places.old[Table][table.pk]} is table {table.number} of evening id "
            f"{places.old[Evening].get(table.evening_id, table.evening_id)}, another evening; "
            "an entry made at a table's phone names a table of its own evening."
        )
