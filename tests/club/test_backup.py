"""Backing up a club and restoring it: a rich club built through the real services is
exported, imported under a new slug (or into a database without it), and compared row by
row with primary keys replaced by what they point to; the evenings' logs still replay."""

import datetime
import io
import json
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from club import evening_log, evenings, recording
from club.backup import DERIVED, LABELS, MODELS, BackupError, club_export, club_import
from club.models import Club, Member, Table
from scoring.models import SEAT_TOTALS, RubberPlayer
from tests.factories import ClubFactory, UserFactory
from tournaments import rounds, services
from tournaments.models import StandingsVersion, Tournament
from tournaments.selectors import standings_published

SIX = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank"]
EIGHT = [*SIX, "Grace", "Hugh"]
MARCH, THREE = {"makers": "NS", "tricks": 5}, {"makers": "NS", "tricks": 3}
SWEEP = [MARCH, MARCH, THREE] * 3  # N-S win the rubber, worth 8 (rulings E1, E3, E4)
REPLAYED = ("present", "candidates", "tables", "pending_cuts", "rubbers", "ledger")


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """Run a write as if it had committed, so the standings are recalculated."""

    def run(function, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return function(**kwargs)

    return run


def seat_six(commit, evening, cards=("JS", "AS", "KS", "QS", "10S", "9S")):
    for name in SIX:
        commit(
            evenings.evening_act, evening_id=evening.pk, event={"type": "arrive", "player": name}
        )
    commit(evenings.evening_act, evening_id=evening.pk, event={"type": "form_table"})
    commit(
        evenings.evening_act,
        evening_id=evening.pk,
        event={"type": "cut", "cards": dict(zip(SIX, cards, strict=True))},
    )
    commit(
        evenings.evening_act,
        evening_id=evening.pk,
        event={"type": "cut", "cards": {"Ann": "JH", "Bob": "AH", "Cora": "KH", "Dan": "QH"}},
    )


def record(commit, evening, hands, **kwargs):
    for hand in hands:
        commit(
            recording.hand_record,
            evening_id=evening.pk,
            table_number=1,
            data=hand,
            **kwargs,
        )


@pytest.fixture
def rich(club, secretary, commit):
    """A club with two evenings (cuts, cut-outs, corrections, a closed evening), a ladder
    over them, and a progressive tournament with a removed hand; two secretaries."""
    ghost = UserFactory(username="ghost")
    club.secretaries.add(ghost)
    club.table_link_hours = 9  # the club's own settings travel with it
    club.save(update_fields=["table_link_hours"])
    first = evenings.evening_open(
        club=club, date=datetime.date(1888, 11, 21), ruleset="euchre-somerset-1888",
        stake=Decimal("0.25"), title="November",
    )  # fmt: skip
    second = evenings.evening_open(
        club=club, date=datetime.date(1888, 11, 28), ruleset="euchre-somerset-1888",
        stake=Decimal("0.50"),
    )  # fmt: skip
    commit(
        services.tournament_create,
        club=club, name="Winter ladder", slug="winter", kind="ladder",
        evening_ids=[first.pk, second.pk],
    )  # fmt: skip

    seat_six(commit, first)
    Member.objects.filter(club=club, name="Ann").update(user=secretary)
    record(commit, first, SWEEP, user=secretary)
    commit(
        evenings.evening_act,
        evening_id=first.pk,
        event={"type": "cut", "cards": {"Ann": "JC", "Bob": "AC", "Cora": "7C", "Dan": "8C"}},
    )
    commit(
        evenings.evening_act,
        evening_id=first.pk,
        event={"type": "cut", "cards": {"Ann": "JD", "Edith": "AD", "Bob": "KD", "Frank": "QD"}},
    )
    phone = Table.objects.get(evening=first, number=1)
    record(commit, first, [MARCH], table=phone)  # at the table's phone: logged by_table
    record(commit, first, [THREE])
    commit(
        recording.hand_correct,
        evening_id=first.pk, table_number=1, rubber_number=2, number=1,
        data={"makers": "EW", "tricks": 3}, reason="Wrong side written", user=secretary,
        is_secretary=True,
    )  # fmt: skip

    seat_six(commit, second, cards=("JS", "AS", "KS", "QS", "9S", "10S"))
    record(commit, second, [{"makers": "EW", "tricks": 5}] * 2)
    # Closing answers for the rubber in play (club.closing): abandoned, with a reason.
    abandoned = {"table": 1, "rubber": 1, "outcome": "abandoned", "reason": "closing time"}
    commit(evenings.evening_close, evening_id=second.pk, user=secretary, rubbers=[abandoned])

    tournament = commit(
        services.tournament_create,
        club=club, name="Progressive", slug="prog", kind="progressive",
        ruleset="euchre-somerset-1888", movement="rotation",
    )  # fmt: skip
    for name in EIGHT:
        rounds.tournament_enter(tournament=tournament, name=name)
    played = commit(rounds.round_seat_next, tournament_id=tournament.pk)
    for table in played.tables.all():
        for hand in SWEEP:
            commit(recording.hand_record, rubber_id=table.rubber_id, data=hand)
    played = commit(rounds.round_seat_next, tournament_id=tournament.pk)
    rubber_id = played.tables.get(number=1).rubber_id
    commit(recording.hand_record, rubber_id=rubber_id, data=MARCH)
    commit(recording.hand_record, rubber_id=rubber_id, data=THREE)
    commit(
        recording.hand_remove,
        rubber_id=rubber_id, number=2, reason="Entered twice", is_secretary=True,
    )  # fmt: skip
    club.refresh_from_db()
    return club


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


def roundtrip_json(data: dict) -> dict:
    return json.loads(json.dumps(data))


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
