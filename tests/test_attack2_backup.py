"""Attacks on the backup import (`manage.py import_club`, club/backup.py): a hostile
backup must be refused with a message naming its row and field, and write nothing.

Every door of the service cleans what people type by core/text.py's rules; the import
checked a row's text for its length alone. A backup's member named with terminal escapes
(ESC, BEL), a right-to-left override ("Trojan Source"), an evening titled with zero-width
characters, a club's name likewise, were restored as they were; so was a name in
full-width letters beside the same name in plain ones ("Ann" twice), two members every
door takes for one person. A value outside its column's choices (a rubber's status) was
written as it came; and two rows of a model with one id had the later silently take the
earlier's place, its refusal then saying a row "is not in the backup".
"""

import json

import pytest

from club.backup import BackupError, club_export, club_import
from club.models import Club, Member
from tests.worlds import club_in_play


def _section(data: dict, model: str) -> list[dict]:
    return next(s for s in data["models"] if s["model"] == model)["rows"]


def _spoil(data: dict, spoiling: str) -> None:
    members = _section(data, "club.member")
    if spoiling == "escape in a name":
        members[0]["fields"]["name"] = "Ann\x1b[2J\x07"
    elif spoiling == "override in a name":
        members[0]["fields"]["name"] = "Ann\u202eexe.gnp"
    elif spoiling == "zero-width in a title":
        _section(data, "club.evening")[0]["fields"]["title"] = "Tuesday\u200b"
    elif spoiling == "override in the club's name":
        data["club"]["name"] = "Somerset\u202e"
    elif spoiling == "a name in full-width letters":
        members[1]["fields"]["name"] = "\uff21nn"  # beside "Ann"
    elif spoiling == "a status there is not":
        _section(data, "scoring.rubber")[0]["fields"]["status"] = "bribed"
    elif spoiling == "two rows of one id":
        members[1]["pk"] = members[0]["pk"]


REFUSALS = {
    "escape in a name": r"club\.member row 0 \(id \d+\) is refused: .*control character .*001B",
    "override in a name": r"club\.member row 0 .*reverses or isolates the direction .*U\+202E",
    "zero-width in a title": r"club\.evening row 0 .*title holds an invisible zero-width",
    "override in the club's name": r"club cannot be written: .*U\+202E",
    "a name in full-width letters": r"club\.member row 1 .*not written as the service keeps a name",
    "a status there is not": r"scoring\.rubber row 0 .*'bribed' is none the service knows",
    "two rows of one id": r"club\.member row 1 is malformed: its id \d+ is an earlier row's too",
}


@pytest.mark.parametrize("spoiling", list(REFUSALS))
def test_a_hostile_backup_is_refused_naming_its_row_and_nothing_is_written(
    db, django_capture_on_commit_callbacks, spoiling
):
    world = club_in_play(django_capture_on_commit_callbacks)
    data = json.loads(json.dumps(club_export(club=world.club)))
    _spoil(data, spoiling)
    clubs, members = Club.objects.count(), Member.objects.count()
    with pytest.raises(BackupError, match=REFUSALS[spoiling]):
        club_import(data=data, slug="copy")
    assert (Club.objects.count(), Member.objects.count()) == (clubs, members)
    assert not Club.objects.filter(slug="copy").exists()
    # The backup as written restores: it is the spoiling that is refused.
    copy = club_import(data=json.loads(json.dumps(club_export(club=world.club))), slug="copy")
    assert sorted(copy.members.values_list("name", flat=True)) == ["Ann", "Bob", "Cora", "Dan"]
