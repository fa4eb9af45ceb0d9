"""core/compiled.py: the hot path's reads, compiled once, answer exactly as the ORM does,
for every row of a season (fields, the objects read with them, the annotations); its
writes store the rows the ORM would."""

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.models.signals import post_save, pre_save
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from club import rubber_locks
from club.models import Club, Member, Table
from club.selectors import _TABLE_BY_TOKEN
from core.compiled import Compiled, Writes, insert, update
from scoring import api as scoring_api
from scoring import services as scoring
from scoring.models import Hand, HandScore, Rubber
from tournaments.management.season import season_make
from tournaments.models import StandingsVersion


@pytest.fixture
def season(db):
    season_make(club_slug="compiled", players=24, evenings=3, hands=300, seed=11)
    return Club.objects.get(slug="compiled")


def state(obj, *related: str, annotations: tuple[str, ...] = ()) -> dict:
    """Everything an object was read with: its loaded fields, the related objects read
    with it (their fields), its annotations."""
    if obj is None:
        return {}
    loaded = {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields
              if f.attname in obj.__dict__}  # fmt: skip
    for name in related:
        other = getattr(obj, name)
        loaded[name] = state(other) if other is not None else None
    for name in annotations:
        loaded[name] = getattr(obj, name, "(not read)")  # SQLite: no seat ids
    loaded["deferred"] = sorted(obj.get_deferred_fields())
    return loaded


def test_a_tables_link_is_read_as_the_orm_reads_it(season):
    tokens = [*Table.objects.values_list("token", flat=True), "no-such-token"]
    for token in tokens:
        orm = Table.objects.select_related("evening", "club").filter(token=token).first()
        assert state(_TABLE_BY_TOKEN.first(token), "evening", "club") == state(
            orm, "evening", "club"
        )


def test_the_rubber_locked_on_the_hands_path_is_read_as_the_orm_reads_it(season):
    placed = ("ordinal", "later", scoring.SEAT_MEMBER_IDS)
    ids = [*Rubber.objects.values_list("pk", flat=True), 0]
    with transaction.atomic():
        for pk in ids:
            orm = rubber_locks.lock_first(rubber_locks.placed(Rubber.objects.filter(pk=pk)))
            got = rubber_locks.lock_placed(pk)
            related = ("evening", "table", "club") if orm and orm.evening_id else ("club",)
            assert state(got, *related, annotations=placed if orm else ()) == state(
                orm, *related, annotations=placed if orm else ()
            )
    tables = Rubber.objects.exclude(table=None).values_list("evening_id", "table__number")
    with transaction.atomic():
        for evening_id, number in set(tables):
            rubbers = rubber_locks.at_table(evening_id, number).filter(status="in_progress")
            orm = rubber_locks.lock_first(rubbers.order_by("-created_at", "-id"))
            got = rubber_locks.lock_in_progress(evening_id, number)
            assert state(got, annotations=placed if orm else ()) == state(
                orm, annotations=placed if orm else ()
            )


def test_a_rubbers_hands_and_what_a_write_needs_are_read_as_the_orm_reads_them(season):
    for rubber in Rubber.objects.all():
        orm = list(rubber.hands.order_by("number"))
        got = scoring._hands_of(rubber)
        assert [state(h) for h in got] == [state(h) for h in orm]
        assert all(h.rubber is rubber for h in got)
        # What recording a hand replays: each earlier hand's data, in order, decoded.
        assert scoring._HAND_DATA_OF.rows(rubber.pk) == [(h.data,) for h in orm]
        fields = ("id", "club_id", "table_id")
        orm = Rubber.objects.filter(club_id=rubber.club_id, pk=rubber.pk).only(*fields).first()
        assert state(scoring_api._TO_WRITE.first(rubber.club_id, rubber.pk)) == state(orm)


def test_a_value_the_orm_would_change_is_refused_when_compiled(season):
    by_name = Compiled(lambda name: Member.objects.filter(name__icontains=name), str)
    with pytest.raises(ValueError, match="does not reach the SQL as given"):
        by_name.all("ames")
    with pytest.raises(TypeError, match="1 values wanted, 2 given"):
        by_name.all("a", "b")


@pytest.mark.django_db(transaction=True)
def test_a_locking_read_outside_a_transaction_is_refused(season):
    rubber = Rubber.objects.first()
    with transaction.atomic():
        assert rubber_locks.lock_placed(rubber.pk).pk == rubber.pk  # compiled inside
    with pytest.raises(TransactionManagementError):
        rubber_locks.lock_placed(rubber.pk)


def test_hands_come_back_with_their_json_converted(season):
    hand = Hand.objects.order_by("pk").first()
    (got,) = [h for h in scoring._hands_of(hand.rubber) if h.pk == hand.pk]
    assert isinstance(got.data, dict) and got.data == hand.data


def _row(obj) -> dict:
    values = {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}
    values.pop("id")
    return values


def test_the_hands_rows_are_written_as_the_orm_writes_them(season):
    rubber = Rubber.objects.filter(status="in_progress").first()
    last = rubber.hands.order_by("number").last()
    like = {f: getattr(last, f) for f in ("data", "tricks", "points", "lines", "facts")}
    made = [Hand(rubber=rubber, number=1000 + n, **like) for n in range(3)]
    insert(made[:2])
    made[2].save()
    stored = {h.number: h for h in Hand.objects.filter(rubber=rubber, number__gte=1000)}
    assert [h.pk for h in made] == [stored[1000 + n].pk for n in range(3)]
    assert made[0].recorded_at is not None  # auto_now_add, as save() gives
    fresh = [_row(h) for h in Hand.objects.filter(pk__in=[h.pk for h in made]).order_by("number")]
    assert fresh[0] | {"number": 0, "recorded_at": 0} == fresh[2] | {"number": 0, "recorded_at": 0}
    assert fresh[:2] == [_row(h) for h in made[:2]]
    scores = [HandScore(hand=made[0], rubber=rubber, member_id=m, side="NS", points=1)
              for m in rubber.seats.values_list("member_id", flat=True)]  # fmt: skip
    insert(scores)
    # By player: dict views compare as sets, so sorting them kept the order they came in.
    stored = HandScore.objects.filter(hand=made[0]).order_by("member_id")
    assert sorted((_row(s) for s in scores), key=lambda row: row["member_id"]) == [
        _row(s) for s in stored
    ]


def test_the_rubbers_summary_is_written_as_save_writes_it(season):
    rubber = Rubber.objects.filter(status="in_progress").first()
    before = _row(Rubber.objects.get(pk=rubber.pk))
    rubber.summary = {"changed": True}
    rubber.hand_count = 99
    rubber.stake = 123  # not among the fields written
    update(rubber, ["summary", "hand_count"])
    after = _row(Rubber.objects.get(pk=rubber.pk))
    assert after == before | {"summary": {"changed": True}, "hand_count": 99}
    rubber.pk = 0
    with pytest.raises(DatabaseError, match="no row to update"):
        update(rubber, ["summary"])
    update(rubber, ["summary"], missing_ok=True)  # the idempotency record's way


def _queued(rubber: Rubber, like: Hand, numbers: range) -> tuple[list, list, Writes]:
    """New hands like `like`, each with its players' scores, and the rubber's summary
    changed: queued in a Writes, in that order (as scoring's `_write_from` queues them)."""
    hands = [
        Hand(rubber=rubber, number=n, **{f: getattr(like, f) for f in ("data", "points")})
        for n in numbers
    ]
    members = list(rubber.seats.values_list("member_id", flat=True))
    scores = [
        HandScore(hand=hand, rubber=rubber, member_id=m, side="NS", points=n)
        for n, hand in enumerate(hands)
        for m in members
    ]
    writes = Writes()
    writes.insert(hands)
    writes.insert(scores)
    rubber.summary = {"queued": True}
    writes.update(rubber, ["summary"])
    return hands, scores, writes


@pytest.mark.parametrize("count", [1, 2])
def test_writes_sent_together_store_what_the_orm_would(season, count):
    """Hands, their scores (each referring to a hand inserted in the same statement) and
    the rubber's summary: one statement on PostgreSQL, and the rows and keys as the ORM
    stores and reads them back."""
    rubber = Rubber.objects.filter(status="in_progress").first()
    like = rubber.hands.order_by("number").last()
    hands, scores, writes = _queued(rubber, like, range(1000, 1000 + count))
    with CaptureQueriesContext(connection) as queries:
        writes.send()
    assert len(queries) == (1 if connection.vendor == "postgresql" else 2 + 1)
    stored = {h.number: h for h in Hand.objects.filter(rubber=rubber, number__gte=1000)}
    assert [h.pk for h in hands] == [stored[h.number].pk for h in hands]
    assert [_row(h) for h in hands] == [_row(stored[h.number]) for h in hands]
    assert all(s.hand_id == s.hand.pk for s in scores)
    by_key = {s.pk: _row(s) for s in HandScore.objects.filter(hand__in=hands)}
    assert by_key == {s.pk: _row(s) for s in scores}
    assert {s.hand_id: s.points for s in scores} == {h.pk: n for n, h in enumerate(hands)}
    assert Rubber.objects.get(pk=rubber.pk).summary == {"queued": True}


def test_writes_with_a_row_missing_write_nothing(season):
    """An update that finds no row raises, as `update` does; the statement's inserts
    are rolled back with the transaction (on PostgreSQL, never half-written)."""
    rubber = Rubber.objects.filter(status="in_progress").first()
    like = rubber.hands.order_by("number").last()
    _, _, writes = _queued(rubber, like, range(1000, 1001))
    gone = Rubber(pk=0, summary={})
    writes.update(gone, ["summary"])
    with pytest.raises(DatabaseError, match="Rubber 0: no row to update"), transaction.atomic():
        writes.send()
    assert not Hand.objects.filter(rubber=rubber, number=1000).exists()


def test_nothing_listens_for_the_signals_these_writes_do_not_send():
    for model in (Hand, HandScore, Rubber, StandingsVersion):
        assert not pre_save.has_listeners(model) and not post_save.has_listeners(model)


def test_a_list_of_ids_is_one_value_and_the_rows_are_the_orms(season):
    from django.db import connection

    from scoring.models import RubberPlayer

    ids = list(Member.objects.order_by("pk").values_list("pk", flat=True))
    seats = Compiled(
        lambda rubber, members: RubberPlayer.objects.filter(
            rubber_id=rubber, member_id__any=members
        ).values_list("member_id", "side"),
        int,
        list,
    )
    sent = []

    def note(execute, sql, params, many, context):
        sent.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(note):
        for rubber in Rubber.objects.all()[:10]:
            for members in ([], ids[:1], ids[:5], ids, [*ids, 0]):
                orm = RubberPlayer.objects.filter(rubber=rubber, member_id__in=members)
                assert sorted(seats.rows(rubber.pk, members)) == sorted(
                    orm.values_list("member_id", "side")
                )
    if connection.vendor == "postgresql":  # one statement's text for any number of ids
        assert len({sql for sql in sent if "= ANY(" in sql}) == 1


def test_rows_answer_values_lists_and_all_answers_objects(season):
    with pytest.raises(TypeError, match="ValuesListIterable wanted"):
        Compiled(lambda pk: Member.objects.filter(pk=pk), int).rows(1)
    with pytest.raises(TypeError, match="ModelIterable wanted"):
        Compiled(lambda pk: Member.objects.filter(pk=pk).values_list("pk"), int).all(1)


def test_a_compiled_read_works_out_its_converters_once(season, monkeypatch):
    """The columns' converters (and the objects' populators) are worked out when the read
    is compiled, not again for every run as the ORM does (about 90 µs a recorded hand,
    BENCHMARKS.md). The answers stay the ORM's (the tests above)."""
    from django.db.models.sql.compiler import SQLCompiler

    ids = list(Rubber.objects.values_list("pk", flat=True)[:5])
    worked_out = []
    original = SQLCompiler.get_converters

    def counting(self, expressions):
        worked_out.append(self)
        return original(self, expressions)

    monkeypatch.setattr(SQLCompiler, "get_converters", counting)
    read = Compiled(
        lambda pk: Rubber.objects.select_related("club").filter(pk=pk).order_by("pk")[:1], int
    )
    for pk in ids:
        assert state(read.first(pk), "club") == state(
            Rubber.objects.select_related("club").get(pk=pk), "club"
        )
    orm_reads = len(ids)  # the ORM's own reads above work them out each time
    assert len(worked_out) == orm_reads + 1


def test_no_statement_of_a_recorded_hand_is_converted_anew(
    db, postgres, django_capture_on_commit_callbacks, monkeypatch
):
    """psycopg remembers how it turned a statement's `%s` into `$1, $2, ...` only for
    texts of few parameters: a recorded hand's `Writes` (51 at Euchre, more at Call-Ace)
    was converted again on every hand, a tenth of the request's Python. At each game's
    table, the second hand's statements are all remembered from the first's."""
    from psycopg import _queries

    from club import recording
    from tests.worlds import bridge_and_call_ace_in_play, club_in_play

    world = club_in_play(django_capture_on_commit_callbacks)
    others = bridge_and_call_ace_in_play(world.club)
    hands = [
        (world.table, [{"makers": "EW", "tricks": 3}, {"makers": "NS", "tricks": 4}]),
        # Hands 2 and 3: E-W's deal, then N-S's (the dealer's side declares).
        (
            others.bridge,
            [
                {"declarer": side, "trump": "NT", "tricks": {"NS": 5, "EW": 8}}
                for side in ("EW", "NS")
            ],
        ),
        (others.call_ace, [{"maker": name, "tricks": 3} for name in others.call_ace_order[1:3]]),
    ]
    converted = []
    anew = _queries._query2pg_nocache  # what psycopg calls for a text it does not remember

    def counted(query, encoding):
        converted.append(query)
        return anew(query, encoding)

    monkeypatch.setattr(_queries, "_query2pg_nocache", counted)
    for table, (first, second) in hands:
        recording.hand_record(evening_id=table.evening_id, table_number=table.number, data=first)
        converted.clear()
        recording.hand_record(evening_id=table.evening_id, table_number=table.number, data=second)
        assert converted == [], f"{table.evening.ruleset}: {[q[:60] for q in converted]}"
