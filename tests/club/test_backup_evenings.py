"""A backup's evenings restored by the laws of forming tables (club/backup_evenings.py): an
evening's state and version are derived again from its log, and a log the laws or the
log's own form refuse is refused, naming the row, its old id, the field and the law. The
rich club is tests/club/backup_world.py's, as test_backup.py's, built once for this
module."""

import pytest

from club import evening_log, evenings
from club.backup import BackupError, club_export, club_import
from club.models import Club, Evening
from core.errors import UserError
from tests.club.backup_world import (
    build_rich_world,
    counts,
    refused_when_spoiled,
    roundtrip_json,
    rows,
)
from tests.conftest import rows_for_the_module
from tests.factories import ClubFactory

# The rich club alone, built once for this module's tests; each test's changes are undone
# (a savepoint).
_worlds = rows_for_the_module(build_rich_world)


@pytest.fixture
def club(db):
    """A club of the test's own: the module's rich club holds the slug "somerset"."""
    return ClubFactory(name="Somerset Club", slug="somerset-own")


@pytest.fixture
def rich(db, _worlds):
    return Club.objects.get(pk=_worlds["rich"])


def events(data: dict, evening_index: int = 0) -> list[dict]:
    """The log's rows of the backup's `evening_index`-th evening, in the log's order."""
    evening = rows(data, "club.evening")[evening_index]["pk"]
    found = [r for r in rows(data, "club.eveningevent") if r["fields"]["evening"] == evening]
    return sorted(found, key=lambda r: r["fields"]["seq"])


def entry(data: dict, seq: int, evening_index: int = 0) -> dict:
    return next(r for r in events(data, evening_index) if r["fields"]["seq"] == seq)


def test_an_evenings_state_and_version_are_derived_from_its_log(rich):
    """A backup whose evening's state says other tables than its log formed, and whose
    version is not its log's length, restores the state the log makes and the log's
    length: the board shows the tables the laws formed, and a device's next action is
    not refused as stale (nor logged under a number already taken)."""
    data = roundtrip_json(club_export(club=rich))
    originals = list(Evening.objects.filter(club=rich).order_by("pk"))
    for row in rows(data, "club.evening"):
        row["fields"]["state"]["tables"] = []
        row["fields"]["state"]["present"] = ["Zed"]
        row["fields"]["version"] = 3
    copy = club_import(data=data, slug="copy")
    restored = list(Evening.objects.filter(club=copy).order_by("pk"))
    assert [e.state for e in restored] == [e.state for e in originals]
    assert [e.version for e in restored] == [e.version for e in originals]
    assert [e.version for e in restored] == [e.events.count() for e in restored]
    # The first evening is open and its version right: the board's next action, sent at
    # the version the board shows, is taken, logged as the next entry.
    first = restored[0]
    assert first.status == Evening.Status.OPEN
    evenings.evening_act(
        evening_id=first.pk, event={"type": "arrive", "player": "Grace"},
        expected_version=first.version,
    )  # fmt: skip
    first.refresh_from_db()
    assert first.events.order_by("-seq").first().seq == first.version == originals[0].version + 1


def _gap(data):
    events(data).remove(entry(data, 3))
    rows(data, "club.eveningevent").remove(entry(data, 3))


def _mistyped(data):
    entry(data, 2)["fields"]["data"]["type"] = "depart"


def _not_an_object(data):
    entry(data, 2)["fields"]["data"] = ["arrive", "Bob"]


def _undo_of_nothing(data):
    last = events(data)[-1]
    last["fields"]["type"] = "undo"
    last["fields"]["data"] = {"type": "undo", "undoes": 999, "action": "hand"}


def _arrived_twice(data):
    entry(data, 2)["fields"]["data"]["player"] = "Ann"


def _cut_at_no_table(data):
    cut = next(r for r in events(data) if r["fields"]["type"] == "cut")
    cut["fields"]["data"]["cards"] = {"Ann": "JS", "Zed": "AS"}


def _unknown_game(data):
    rows(data, "club.evening")[0]["fields"]["ruleset"] = "whist"


def _unknown_type(data):
    row = entry(data, 2)["fields"]
    row["type"] = row["data"]["type"] = "fly"


def _table_never_formed(data):
    first = rows(data, "club.evening")[0]["pk"]
    table = next(r for r in rows(data, "club.table") if r["fields"]["evening"] == first)
    table["fields"]["number"] = 7


def _by_another_evenings_table(data):
    evenings_ = [row["pk"] for row in rows(data, "club.evening")]
    other = next(r for r in rows(data, "club.table") if r["fields"]["evening"] == evenings_[1])
    at_phone = next(r for r in events(data) if r["fields"]["by_table"] is not None)
    at_phone["fields"]["by_table"] = other["pk"]


EVENT = r"^club\.eveningevent row \d+ \(id \d+: entry {seq} of evening id \d+\), field "


@pytest.mark.parametrize(
    ("spoil", "refusal"),
    [
        (_gap, r"^club\.evening row 0 \(id \d+\), its log \(club\.eveningevent\): its 23 "
         r"entries are numbered 1 to 24; an evening's entries are numbered 1, 2, 3 \.\.\."),
        (_mistyped, EVENT.format(seq=2) + r"data: an entry's data is a JSON object whose "
         r"'type' is the entry's own \('arrive'\)\.$"),
        (_not_an_object, EVENT.format(seq=2) + r"data: an entry's data is a JSON object"),
        (_undo_of_nothing, EVENT.format(seq=24) + r"data\.undoes: 999 is no earlier action "
         r"of the evening's log; an undo names the entry it reversed\.$"),
        (_arrived_twice, EVENT.format(seq=2) + r"data\.player: .*Ann"),
        (_cut_at_no_table, EVENT.format(seq=8) + r"data\.cards\.Bob: .*(ruling|law).*; Zed "
         r"does not cut to form a table"),
        (_unknown_game, r"^club\.evening row 0 \(id \d+\), field ruleset: .*whist"),
        (_unknown_type, EVENT.format(seq=2) + r"type: 'fly' is not an entry of an evening's "
         r"log: an entry of the log is an arrival, a departure from the room, forming a "
         r"table, .*, closing the evening, reopening it or undoing the last action "
         r"\(docs/evening-log\.md\)\.$"),
        (_table_never_formed, r"^club\.table row \d+ \(id \d+\), field number: evening id "
         r"\d+'s log never formed a table 7: it formed table 1; an evening's tables are the "
         r"ones its log formed \(ruling T3\)\.$"),
        (_by_another_evenings_table, r"^club\.eveningevent row \d+ \(id \d+: entry \d+ of "
         r"evening id \d+\), field by_table: club\.table id \d+ is table 1 of evening id \d+, "
         r"another evening; an entry made at a table's phone names a table of its own "
         r"evening\.$"),
    ],
)  # fmt: skip
def test_a_log_the_laws_or_its_form_refuse_is_refused_naming_the_row(rich, spoil, refusal):
    """Guards club.backup_evenings: entries not numbered 1, 2, 3 ..., an entry's data of
    another type or none, an undo of no action, an action the laws of forming tables
    refuse where it stands (a player arriving twice, ruling T2; a cut by someone not
    cutting), an evening of no game: refused, naming the model, the row's place and old
    id, the entry, the field and the law, and nothing is written."""
    refused_when_spoiled(rich, spoil, refusal)


def test_a_table_the_log_forms_with_no_row_is_refused(club, evening):
    """Guards club.backup_evenings: an evening's log forms table 1 (no cut yet, so no
    rubber names it) and the backup has no club.table row for it: restored, the board
    showed a table with no phone link and the cut for partners started no rubber (a
    500). Refused naming the evening's row and the table (ruling T3), nothing written."""
    for name in ("Ann", "Bob", "Cora", "Dan"):
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    data = roundtrip_json(club_export(club=club))
    rows(data, "club.table").clear()
    before = counts()
    with pytest.raises(BackupError) as refused:
        club_import(data=data, slug="copy")
    assert refused.value.args[0] == (
        f"club.evening row 0 (id {evening.pk}), its tables (club.table): its log forms table "
        "1, which still stands, but the backup has no club.table row for it; an evening's "
        "tables are the ones its log formed (ruling T3)."
    )
    assert counts() == before


def test_a_replayed_log_names_an_entry_of_no_known_action_in_words(club, evening):
    """`replay_evening` names the entry of the file at fault and says what an action is in
    words: it listed the log's keys ("use one of announce, arrive, break_up ...")."""
    evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": "Ann"})
    log = evening_log.evening_export(evening=evening)
    log["events"].append({"type": "fly", "player": "Bob"})
    scratch = ClubFactory(slug="scratch")
    with pytest.raises(UserError) as refused:
        evening_log.evening_replay(log=log, club=scratch)
    assert refused.value.field == "events[1].type"
    assert refused.value.message == (
        "Entry 2 of the log: 'fly' is not an action of the evening: one is an arrival, a "
        "departure from the room, forming a table, a cut, throwing a card round for the first "
        "jack, a claim of admission, withdrawing a claim, the end of a rubber, appointing a "
        "substitute, leaving a table, changing tables, breaking up a table, the dealer's "
        "choice of seat or an announcement (docs/evening-log.md)."
    )
