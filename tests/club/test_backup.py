"""Backing up a club and restoring it: a rich club built through the real services is
exported, imported under a new slug (or into a database without it), and compared row by
row with primary keys replaced by what they point to; the evenings' logs still replay.
The clubs are tests/club/backup_world.py's."""

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from club import evening_log, evenings, recording
from club.backup import DERIVED, LABELS, MODELS, BackupError, club_export, club_import
from club.models import Club, Member, Table
from scoring.models import SEAT_TOTALS, HandScore, Rubber, RubberPlayer, Settlement
from tests.club.backup_world import (
    BRIDGE,
    MARCH,
    THREE,
    build_worlds,
    committing,
    counts,
    refused_when_spoiled,
    roundtrip_json,
    rows,
)
from tests.conftest import rows_for_the_module
from tests.factories import ClubFactory
from tests.worlds import call_ace_jack_drawn
from tournaments.models import StandingsVersion, Tournament
from tournaments.selectors import standings_published

REPLAYED = ("present", "candidates", "tables", "pending_cuts", "rubbers", "ledger")


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    return committing(django_capture_on_commit_callbacks)


# Built once for the module's tests; each test's changes are undone (a savepoint).
_worlds = rows_for_the_module(build_worlds)


@pytest.fixture
def club(db):
    """A club of the test's own (tests/conftest.py's, but for its slug: the module's rich
    club, alive through the module's tests, holds "somerset")."""
    return ClubFactory(name="Somerset Club", slug="somerset-own")


@pytest.fixture
def rich(db, _worlds):
    return Club.objects.get(pk=_worlds["rich"])


@pytest.fixture
def played(db, _worlds):
    return Club.objects.get(pk=_worlds["played"])


def canonical(club: Club, *, tokens: bool = True) -> dict:
    """Every row the club owns, with each primary key replaced by the row's place among
    its model's rows (the import keeps their order), users by username, and standings'
    member ids by the member's place."""
    rows = {
        model: list(model.objects.filter(**{lookup: club}).order_by("pk"))
        for model, lookup in MODELS
    }
    place = {
        model: {obj.pk: index for index, obj in enumerate(objs)} for model, objs in rows.items()
    }
    out = {
        "club": {
            "name": club.name,
            "currency": club.currency,
            "is_public": club.is_public,
            "created_at": club.created_at,
            "secretaries": sorted(club.secretaries.values_list("username", flat=True)),
        }
    }
    for model, objs in rows.items():
        described = []
        for obj in objs:
            fields = {}
            for field in obj._meta.concrete_fields:
                value = getattr(obj, field.attname)
                if field.primary_key or (field.name == "token" and not tokens):
                    continue
                if field.is_relation and value is not None:
                    if field.related_model is Club:
                        value = "the club"
                    elif field.related_model in place:
                        value = place[field.related_model][value]
                    else:  # a user
                        value = field.related_model.objects.get(pk=value).username
                fields[field.name] = value
            for field in obj._meta.many_to_many:
                target = place[field.related_model]
                fields[field.name] = sorted(
                    target[pk] for pk in getattr(obj, field.name).values_list("pk", flat=True)
                )
            described.append(fields)
        out[model._meta.label_lower] = described
    return out


def without_ids(summary: dict) -> dict:
    """An evening's summary without the database ids an import renumbers (the evening's,
    its rubbers')."""
    summary["evening"].pop("id")
    for rubber in summary["rubbers"]:
        rubber.pop("id")
    return summary


def summaries(club: Club) -> list[dict]:
    """Each evening's summary (without its ids) and ledger."""
    result = []
    for evening in club.evenings.order_by("pk"):
        summary = without_ids(evenings.evening_summary(evening=evening))
        result.append({**summary, "ledger_rows": evenings.evening_ledger(evening=evening)})
    return result


def replayed(club: Club) -> list[dict]:
    """Each evening's exported log replayed into a scratch club: its summary."""
    scratch = ClubFactory(slug=f"scratch-{club.slug}")
    out = []
    for evening in club.evenings.order_by("pk"):
        again = evening_log.evening_replay(
            log=evening_log.evening_export(evening=evening), club=scratch
        )
        summary = without_ids(evenings.evening_summary(evening=again))
        out.append({key: summary[key] for key in REPLAYED})
    return out


def test_the_rich_club_is_rich(rich):
    """The fixture really holds what the backup must carry (no test that cannot fail)."""
    data = club_export(club=rich)
    counts = {section["model"]: len(section["rows"]) for section in data["models"]}
    for label in (
        "club.member", "club.evening", "club.table", "club.eveningevent", "club.cut",
        "scoring.rubber", "scoring.rubberplayer", "scoring.game", "scoring.hand",
        "scoring.handcorrection", "scoring.removedhand", "scoring.handscore",
        "scoring.settlement", "tournaments.tournament", "tournaments.tournamentplayer",
        "tournaments.round", "tournaments.roundtable", "tournaments.tournamenttotal",
        "tournaments.standingsversion",
    ):  # fmt: skip
        assert counts[label] > 0, label
    assert data["format"] == "cardclub-club-backup" and data["version"] == 1
    assert data["club"]["secretaries"] == ["ghost", "secretary"]
    ladder = Tournament.objects.get(club=rich, slug="winter")
    assert StandingsVersion.objects.filter(tournament=ladder).exists()


def test_import_under_a_new_slug_reproduces_everything(rich):
    before = canonical(rich, tokens=False)
    before_summaries = summaries(rich)
    data = roundtrip_json(club_export(club=rich))

    report = []
    copy = club_import(data=data, slug="somerset-copy", report=report)
    assert copy.pk != rich.pk and copy.slug == "somerset-copy"
    assert copy.table_link_hours == 9
    renewed = Table.objects.filter(club=rich).count()  # every token was the original's
    assert report == [f"{renewed} table phone link(s) were in use and were renewed."]
    assert canonical(copy, tokens=False) == before
    assert summaries(copy) == before_summaries
    # The original is untouched, and no phone link is shared.
    assert canonical(rich, tokens=False) == before
    tokens = list(Table.objects.values_list("token", flat=True))
    assert len(tokens) == len(set(tokens))
    # The standings are the copy's own members, ranked as they were.
    for tournament in Tournament.objects.filter(club=copy):
        original = Tournament.objects.get(club=rich, slug=tournament.slug)
        rows = standings_published(tournament=tournament)["rows"]
        assert {r["member"] for r in rows} <= set(copy.members.values_list("pk", flat=True))
        assert [{**r, "member": 0} for r in rows] == [
            {**r, "member": 0} for r in standings_published(tournament=original)["rows"]
        ]
    # The imported evenings' logs replay to the evenings as they were.
    assert replayed(copy) == [{key: s[key] for key in REPLAYED} for s in before_summaries]


def test_a_backup_without_the_derived_columns_is_derived_again(rich):
    """A backup written before the seats' roll-up and the standings' places existed
    restores with them worked out again from the restored rows (club/backup.py)."""
    data = roundtrip_json(club_export(club=rich))
    for section in data["models"]:
        model = LABELS[section["model"]]
        for row in section["rows"]:
            for derived_model, name in DERIVED:
                if derived_model is model:
                    row["fields"].pop(name)
    copy = club_import(data=data, slug="somerset-old")
    # Each seat's totals, without ids (the evening's id is the copy's own).
    fields = ["member__name", "side", "position", *(f for f in SEAT_TOTALS if f != "evening")]

    def seats(club):
        return sorted(RubberPlayer.objects.filter(rubber__club=club).values_list(*fields))

    assert seats(copy) == seats(rich)
    assert any(seat[3] for seat in seats(copy))  # the points came back
    assert (
        not RubberPlayer.objects.filter(rubber__club=copy, evening=None)
        .exclude(rubber__evening=None)
        .exists()
    )
    for tournament in Tournament.objects.filter(club=copy):
        original = Tournament.objects.get(club=rich, slug=tournament.slug)
        rows = standings_published(tournament=tournament)["rows"]
        assert rows and [{**r, "member": 0} for r in rows] == [
            {**r, "member": 0} for r in standings_published(tournament=original)["rows"]
        ]


def test_import_into_a_database_without_the_club_keeps_slug_and_tokens(rich, tmp_path):
    before = canonical(rich)
    before_summaries = summaries(rich)
    data = roundtrip_json(club_export(club=rich))
    _delete_club(rich)
    assert not Club.objects.filter(slug="somerset").exists()

    out, err = io.StringIO(), io.StringIO()
    path = tmp_path / "club.json"
    path.write_text(json.dumps(data))
    call_command("import_club", str(path), stdout=out, stderr=err)
    assert "as 'somerset'" in out.getvalue()
    assert err.getvalue() == ""  # every user found, every token free
    restored = Club.objects.get(slug="somerset")
    assert canonical(restored) == before  # phone links kept
    assert summaries(restored) == before_summaries


def test_missing_secretaries_are_named(rich):
    data = roundtrip_json(club_export(club=rich))
    _delete_club(rich)
    from django.contrib.auth import get_user_model

    get_user_model().objects.filter(username="ghost").delete()
    report = []
    restored = club_import(data=data, report=report)
    assert list(restored.secretaries.values_list("username", flat=True)) == ["secretary"]
    assert report == ["No user named ghost: not linked."]


def test_the_commands_round_trip_and_refuse_an_existing_slug(rich, tmp_path):
    out = io.StringIO()
    call_command("export_club", "somerset", stdout=out)
    path = tmp_path / "club.json"
    path.write_text(out.getvalue())
    with pytest.raises(CommandError, match="slug 'somerset' exists already"):
        call_command("import_club", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    call_command(
        "import_club", str(path), "--slug", "again", stdout=io.StringIO(), stderr=io.StringIO()
    )
    assert canonical(Club.objects.get(slug="again"), tokens=False) == canonical(rich, tokens=False)
    with pytest.raises(CommandError, match="No club has the slug"):
        call_command("export_club", "nowhere", stdout=io.StringIO())


def test_a_malformed_file_is_refused_and_nothing_is_written(rich, tmp_path):
    clubs = Club.objects.count()
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(CommandError, match="is not JSON"):
        call_command("import_club", str(bad))
    bad.write_text(json.dumps({"format": "cardclub-evening-log/1"}))
    with pytest.raises(CommandError, match="Not a club backup"):
        call_command("import_club", str(bad))
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_club", str(tmp_path / "missing.json"))
    data = roundtrip_json(club_export(club=rich))
    data["version"] = 99
    with pytest.raises(BackupError, match="version 99"):
        club_import(data=data, slug="v99")
    # A row pointing to a row that is not in the file: refused after other rows were
    # written, and the whole import is undone.
    data = roundtrip_json(club_export(club=rich))
    hands = next(s for s in data["models"] if s["model"] == "scoring.hand")
    hands["rows"][-1]["fields"]["rubber"] = 10**9
    with pytest.raises(BackupError, match=r"scoring\.hand\.rubber refers to scoring\.rubber"):
        club_import(data=data, slug="broken")
    assert Club.objects.count() == clubs
    assert not Club.objects.filter(slug="broken").exists()


@pytest.mark.parametrize(
    ("where", "value", "words"),
    [
        ("slug", "a b", "slug"),
        ("slug", "x" * 61, "slug"),
        ("name", "N" * 121, "name"),
        ("currency", "DOLLARS", "currency"),
        ("tournaments.tournament.slug", "a b", r"tournaments\.tournament row 0 is malformed"),
        ("club.member.name", "M" * 81, r"club\.member row 0 is malformed"),
    ],
)
def test_a_hostile_backup_is_refused_and_nothing_is_written(rich, client, where, value, words):
    """Guards club.backup.club_import: the club's fields and every row's texts are checked
    by their own rules before anything is written. A club slugged "a b" was imported and
    broke the site's front page for everyone (its link cannot be made: a 500); a text
    longer than its column was a DataError, not the backup's refusal."""
    clubs = Club.objects.count()
    data = roundtrip_json(club_export(club=rich))
    if "." in where:
        model, field = where.rsplit(".", 1)
        section = next(s for s in data["models"] if s["model"] == model)
        section["rows"][0]["fields"][field] = value
        slug = "copy"
    else:
        data["club"][where] = value
        slug = None if where == "slug" else "copy"
    with pytest.raises(BackupError, match=words):
        club_import(data=data, slug=slug)
    assert Club.objects.count() == clubs
    assert client.get("/").status_code == 200


@pytest.mark.parametrize(
    ("key", "value"),
    [("secretaries", [{"username": "secretary"}]), ("secretaries", "secretary"),
     ("directors", [1]), ("name", {"en": "Somerset"})],
)  # fmt: skip
def test_a_backup_whose_club_names_no_login_names_is_refused(rich, key, value):
    """Guards club.backup._check: a club's secretaries written as objects was a TypeError's
    traceback (hashing one, to look its user up); as one string, each of its letters was
    looked up as a login name; a name that is an object was written as its Python text."""
    clubs = Club.objects.count()
    data = roundtrip_json(club_export(club=rich))
    data["club"][key] = value
    with pytest.raises(BackupError, match=r"The backup's '?club"):
        club_import(data=data, slug="copy")
    assert Club.objects.count() == clubs


@pytest.mark.parametrize(
    ("model", "key", "value", "words"),
    [
        ("club.member", "pk", [1], r"club\.member row 0 is malformed: its id"),
        ("club.member", "pk", {"id": 1}, r"club\.member row 0 is malformed: its id"),
        ("club.evening", "version", 10**30, r"club\.evening row 0 is malformed"),
        ("tournaments.tournament", "rounds_planned", 10**30, r"tournaments\.tournament row 0"),
    ],
)
def test_a_backup_with_ids_or_numbers_no_row_can_hold_is_refused(rich, model, key, value, words):
    """Guards club.backup._Importer.write and build: a row's id that is a list or an object
    (a TypeError, hashing it), or a number past what its column holds (an OverflowError
    from the database's driver: 10**30 for an evening's version), ended the import in a
    traceback rather than its refusal naming the row. Nothing was written either way."""
    clubs = Club.objects.count()
    data = roundtrip_json(club_export(club=rich))
    row = next(s for s in data["models"] if s["model"] == model)["rows"][0]
    if key == "pk":
        row["pk"] = value
    else:
        row["fields"][key] = value
    with pytest.raises(BackupError, match=words):
        club_import(data=data, slug="copy")
    assert Club.objects.count() == clubs
    assert not Club.objects.filter(slug="copy").exists()


def _delete_club(club: Club) -> None:
    """Delete a club and everything it owns (some foreign keys protect, so in order)."""
    from scoring.models import HandScore, RubberPlayer, Settlement
    from tournaments.models import RoundTable, TournamentPlayer

    RoundTable.objects.filter(round__tournament__club=club).delete()
    TournamentPlayer.objects.filter(tournament__club=club).delete()
    HandScore.objects.filter(rubber__club=club).delete()
    Settlement.objects.filter(rubber__club=club).delete()
    RubberPlayer.objects.filter(rubber__club=club).delete()
    club.delete()


# --- The rubbers scored again as they are restored (club/backup_scoring.py) -------------


def hand_row(data: dict, rubber_index: int, number: int) -> dict:
    """The row of hand `number` of the club's `rubber_index`-th rubber (0: the first)."""
    rubber = rows(data, "scoring.rubber")[rubber_index]["pk"]
    return next(
        row
        for row in rows(data, "scoring.hand")
        if row["fields"]["rubber"] == rubber and row["fields"]["number"] == number
    )


def test_every_game_round_trips_scored_again_as_it_was(played, client):
    """Euchre, Bridge and Call-Ace, a correction, a removed hand, a settled rubber and a
    closed sitting: each rubber scored again by its laws as it is restored is what was
    exported, row for row, and the report finds no seat that differed."""
    before = canonical(played, tokens=False)
    report = []
    copy = club_import(data=roundtrip_json(club_export(club=played)), slug="copy", report=report)
    assert canonical(copy, tokens=False) == before
    assert report == []
    for rubber in copy.rubbers.all():
        assert client.get(f"/clubs/copy/rubbers/{rubber.pk}/").status_code == 200


def _bad_tricks(data):
    hand_row(data, 0, 2)["fields"]["data"]["tricks"] = 6


def _bridge_hand_in_euchre(data):
    hand_row(data, 0, 1)["fields"]["data"] = BRIDGE


def _bridge_rubber_of_euchre_hands(data):
    rows(data, "scoring.rubber")[0]["fields"]["ruleset"] = "bridge-elwell-1907"


def _unknown_game(data):
    rows(data, "scoring.rubber")[1]["fields"]["ruleset"] = "whist"


def _hand_after_the_rubber_was_won(data):
    ninth = hand_row(data, 1, 9)
    rows(data, "scoring.hand").append(
        {"pk": 10**6, "fields": {**ninth["fields"], "number": 10, "data": THREE}}
    )


def _hands_with_a_gap(data):
    rows(data, "scoring.hand").remove(hand_row(data, 1, 5))


def _two_hands_numbered_alike(data):
    hand_row(data, 1, 5)["fields"]["number"] = 4


def _three_a_side(data):
    rows(data, "scoring.rubber")[0]["fields"]["players"]["NS"].append("Bob")


def _a_seat_missing(data):
    bridge = rows(data, "scoring.rubber")[2]["pk"]
    seats = rows(data, "scoring.rubberplayer")
    seats.remove([seat for seat in seats if seat["fields"]["rubber"] == bridge][-1])


def _a_seat_of_no_place(data):
    rows(data, "scoring.rubberplayer")[0]["fields"]["position"] = 4


def _a_stranger_in_call_ace(data):
    hand_row(data, 3, 1)["fields"]["data"]["maker"] = "Zed"


def _a_corrections_original(data):
    rows(data, "scoring.handcorrection")[0]["fields"]["previous_data"]["tricks"] = 9


def _a_corrections_original_points(data):
    rows(data, "scoring.handcorrection")[0]["fields"]["previous_points"] = {"NS": "1", "EW": 0}


def _a_removed_hand(data):
    del rows(data, "scoring.removedhand")[0]["fields"]["data"]["tricks"]


HAND = r"scoring\.hand row {row} \(id \d+: hand {number} of {kind} id \d+, {game}\)"
EUCHRE = r"Euchre \(Somerset Club laws, 1888\)"


@pytest.mark.parametrize(
    ("spoil", "refusal"),
    [
        (_bad_tricks, HAND.format(row=1, number=2, kind="rubber", game=EUCHRE)
         + r", field data\.tricks: 6 is out of range: must be from 0 to 5 \(law 2\)\.$"),
        (_bridge_hand_in_euchre, HAND.format(row=0, number=1, kind="rubber", game=EUCHRE)
         + r", field data\.declarer: unknown key 'declarer': a hand of " + EUCHRE
         + r" takes makers, alone, tricks, revokes, law90, law102 and law50 \(no other key is "
         r"read\)\.$"),
        (_bridge_rubber_of_euchre_hands,
         HAND.format(row=0, number=1, kind="rubber", game=r"Bridge \(Elwell's laws, revised 1907\)")
         # The first key the rules do not know, in the order the database gives the hand's
         # keys back: PostgreSQL's jsonb sorts them (alone), SQLite keeps them (makers).
         + r", field data\.(?P<key>alone|makers): unknown key '(?P=key)': a hand of Bridge "
         r"\(Elwell's laws, revised 1907\) takes declarer, trump, doubles, tricks, honours, "
         r"chicane and revokes \(no other key is read\)\.$"),
        (_unknown_game, r"^scoring\.rubber row 1 \(id \d+\), field ruleset: unknown rule set "
         r"'whist'"),
        (_hand_after_the_rubber_was_won, HAND.format(row=13, number=10, kind="rubber", game=EUCHRE)
         + r", field data: the rubber is over: no further hand can be scored in it "
         r"\(ruling E1\)\.$"),
        (_hands_with_a_gap, r"^scoring\.hand row \d+ \(id \d+: hand 6 of rubber id \d+\), field "
         r"number: rubber id \d+ has a hand numbered 6 and no hand 5; its hands are numbered "
         r"1, 2, 3 \.\.\. in the order played\.$"),
        (_two_hands_numbered_alike, r"^scoring\.hand row \d+ \(id \d+: hand 4 of rubber id \d+\), "
         r"field number: rubber id \d+ has two hands numbered 4; its hands are numbered"),
        (_three_a_side, r"^scoring\.rubber row 0 \(id \d+\), field players\.NS: each side is a "
         r"list of two player names\.$"),
        (_a_seat_missing, r"^scoring\.rubber row 2 \(id \d+\), its seats "
         r"\(scoring\.rubberplayer\): no seat for Dan; a rubber has a seat for each"),
        (_a_seat_of_no_place, r"^scoring\.rubberplayer row 0 \(id \d+\), field position: 4 is "
         r"no seat of rubber \d+, whose 4 players sit at places 0 to 3\.$"),
        (_a_stranger_in_call_ace,
         HAND.format(row=12, number=1, kind="sitting", game=r"Call-Ace Euchre \(Foster, 1905\)")
         + r", field data\.maker: 'Zed' is not a player at this sitting\.$"),
        (_a_corrections_original, r"^scoring\.handcorrection row 0 \(id \d+\), field "
         r"previous_data\.tricks: 9 is out of range: must be from 0 to 5 \(law 2\)\.$"),
        (_a_corrections_original_points, r"^scoring\.handcorrection row 0 \(id \d+\), field "
         r"previous_points: \{'NS': '1', 'EW': 0\} are not the points of a hand of this game"),
        (_a_removed_hand, r"^scoring\.removedhand row 0 \(id \d+\), field data\.tricks: give the "
         r"tricks the makers took \(law 2\)\.$"),
    ],
)  # fmt: skip
def test_a_backup_the_laws_refuse_is_refused_naming_the_row_and_nothing_is_written(
    played, spoil, refusal
):
    """Guards club.backup_scoring: a hand the rules would not accept where it stands in its
    rubber's game, a rubber whose game or players they refuse, seats that are not one for
    each player, a version of a hand kept beside it that is no hand of the game: refused,
    naming the model, the row's place and old id, the field, what is wrong and the law."""
    refused_when_spoiled(played, spoil, refusal)


def test_a_deal_after_a_round_of_fixed_deals_was_decided_is_refused(club, commit):
    """Ruling P1: a round of two deals that one side leads after them is over; a third
    deal in the backup is refused as recording it would have been."""
    from scoring import services as scoring
    from tests.factories import MemberFactory

    for name in ["Ann", "Bob", "Cora", "Dan"]:
        MemberFactory(club=club, name=name)
    rubber = scoring.rubber_start(
        club=club, ruleset="euchre-somerset-1888", deal_limit=2,
        players={"NS": ["Ann", "Cora"], "EW": ["Bob", "Dan"]},
    )  # fmt: skip
    for hand in (MARCH, THREE):
        commit(recording.hand_record, rubber_id=rubber.pk, data=hand)
    data = roundtrip_json(club_export(club=club))
    second = hand_row(data, 0, 2)
    rows(data, "scoring.hand").append({"pk": 10**6, "fields": {**second["fields"], "number": 3}})
    before = counts()
    with pytest.raises(
        BackupError,
        match=HAND.format(row=2, number=3, kind="rubber", game=EUCHRE)
        + r", field data: the round is over: its 2 deals have been played and one side is ahead "
        r"\(a round that ends level goes on one deal at a time\) \(ruling P1\)\.$",
    ):
        club_import(data=data, slug="copy")
    assert counts() == before


def test_figures_that_disagree_with_the_hands_are_restored_as_the_laws_make_them(played, client):
    """A hand's points, explanation and game, a rubber's summary and result, a seat's
    side, the hand scores, games and money of a backup that disagree with its hands (as a
    backup taken before a fix of the scoring, or edited) are restored as replaying the
    hands makes them; the report counts the seats whose totals differed."""
    before = canonical(played, tokens=False)
    data = roundtrip_json(club_export(club=played))
    second = hand_row(data, 0, 2)["fields"]
    second.update(points={"NS": 0, "EW": 99}, lines=[{"not": "a line"}], game_won="NS")
    swept = rows(data, "scoring.rubber")[1]["fields"]
    swept.update(summary={}, winner="EW", value=10, status="in_progress", hand_count=3)
    rows(data, "scoring.rubberplayer")[0]["fields"]["side"] = "EW"
    for label, name, value in [
        ("scoring.handscore", "points", 42),
        ("scoring.game", "winner", "EW"),
        ("scoring.settlement", "amount", "999.00"),
    ]:
        for row in rows(data, label):
            row["fields"][name] = value
    del rows(data, "scoring.handscore")[:5]  # and some missing: all written from the hands
    # What the standings sum, the seats' totals: one of the swept rubber's differs.
    swept_id = rows(data, "scoring.rubber")[1]["pk"]
    ann = next(s for s in rows(data, "scoring.rubberplayer") if s["fields"]["rubber"] == swept_id)
    points = ann["fields"]["points"]
    ann["fields"].update(points=42, won=False)

    report = []
    copy = club_import(data=data, slug="copy", report=report)
    assert canonical(copy, tokens=False) == before
    assert report == [
        "Scored again by the laws: the totals of 1 seat(s) in 1 rubber(s) differed from the "
        "backup's, as in a backup taken before a fix of the scoring, and are restored as the "
        f"laws make them (the first: Ann in rubber id {swept_id}: points 42 in the backup, "
        f"{points} now, won False in the backup, True now)."
    ]
    for rubber in copy.rubbers.all():
        assert client.get(f"/clubs/copy/rubbers/{rubber.pk}/").status_code == 200


def test_a_backup_taken_before_the_lone_hand_fixes_restores_without_the_old_flags(played):
    """Scoring 0011 and 0012 (tournaments 0010 and 0012 behind them) mended the lone hands
    made in the database: a lone hand whose points were lost (ruling E6) and a Call-Ace
    lone maker whose side revoked (ruling C3) are none. A backup taken before them holds
    the old flags, on the hand's facts, its hand scores, the seats' totals and the
    standings; restored, each is derived again from the hands, and the report says so."""
    data = roundtrip_json(club_export(club=played))
    lone, sitting = (rows(data, "scoring.rubber")[i]["pk"] for i in (0, 3))
    lost = hand_row(data, 0, 1)
    lost["fields"]["facts"]["lone_made"] = True  # as the code before recorded them
    ann_in_sitting = Member.objects.get(club=played, name="Ann").pk
    for score in rows(data, "scoring.handscore"):
        fields = score["fields"]
        if fields["hand"] == lost["pk"] and fields["side"] == "NS":
            fields["lone_made"] = 1
        if fields["rubber"] == sitting and fields["member"] == ann_in_sitting:
            fields["lone_made"] = 1
    old_seats = 0
    for seat in rows(data, "scoring.rubberplayer"):
        fields = seat["fields"]
        if (fields["rubber"] == lone and fields["side"] == "NS") or (
            fields["rubber"] == sitting and fields["member"] == ann_in_sitting
        ):
            fields["lone_hands"] += 1
            old_seats += 1
    for total in rows(data, "tournaments.tournamenttotal"):
        total["fields"]["lone_hands"] = 1

    report = []
    copy = club_import(data=data, slug="copy", report=report)
    rubber = copy.rubbers.order_by("pk")[0]
    hand = rubber.hands.get(number=1)
    assert hand.facts["lone_made"] is False
    assert not HandScore.objects.filter(hand=hand, lone_made=1).exists()
    seats = dict(
        RubberPlayer.objects.filter(rubber=rubber).values_list("member__name", "lone_hands")
    )
    assert seats == {"Ann": 0, "Cora": 0, "Bob": 1, "Dan": 1}
    assert RubberPlayer.objects.get(rubber__club=copy, rubber__ruleset="call-ace-foster-1905",
                                    member__name="Ann").lone_hands == 0  # fmt: skip
    ladder = Tournament.objects.get(club=copy, slug="winter")
    standings = standings_published(tournament=ladder)["rows"]
    assert {row["name"]: row["metrics"]["lone_hands"] for row in standings} == seats
    assert old_seats == 3
    assert report == [
        "Scored again by the laws: the totals of 3 seat(s) in 2 rubber(s) differed from the "
        "backup's, as in a backup taken before a fix of the scoring, and are restored as the "
        f"laws make them (the first: Ann in rubber id {lone}: lone_hands 1 in the backup, 0 "
        "now)."
    ]


def test_a_sitting_ended_before_any_deal_is_restored_settling_nothing(club):
    """A Call-Ace sitting ended before any deal was played settles nothing (ruling C5):
    restored from a backup, it has no settlement either, where the import's scoring again
    wrote a row of 0.00 for each player."""
    call_ace_jack_drawn(club, unplayed=True)
    assert not Settlement.objects.filter(rubber__club=club).exists()
    copy = club_import(data=roundtrip_json(club_export(club=club)), slug="unplayed", report=[])
    sitting = Rubber.objects.get(club=copy)
    assert sitting.status == Rubber.Status.COMPLETE and sitting.hand_count == 0
    assert not Settlement.objects.filter(rubber__club=copy).exists()
