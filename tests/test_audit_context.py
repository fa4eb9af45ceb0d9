"""The audit context (core/audit.py): every audited write is filed under the context of
the request or service that made it, with the context set once a transaction rather
than before every statement (PostgreSQL, whose triggers keep the history).

These tests commit for real (`transaction=True`): the context's settings live and die
with transactions and savepoints, which a test wrapped in one transaction would hide.
"""

import pytest
from django.db import transaction

from club.models import Member, MemberHistory
from core import audit
from core.audit import add_to_audit_context, audit_context

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sets(monkeypatch):
    """How many times the context was set in the database (the real `_set`, counted)."""
    calls = []
    real = audit._set

    def counted(cursor, opened):
        calls.append(opened.id)
        return real(cursor, opened)

    monkeypatch.setattr(audit, "_set", counted)
    return calls


def filed(member_or_name) -> list[tuple[str, dict | None]]:
    """(change, the context's metadata or None) of each history row of a member."""
    name = getattr(member_or_name, "name", member_or_name)
    rows = MemberHistory.objects.filter(name=name).order_by("pgh_id")
    return [(row.pgh_label, row.pgh_context.metadata if row.pgh_context else None) for row in rows]


def test_every_write_of_a_transaction_is_filed_under_it_and_the_context_set_once(
    club, postgres, sets
):
    with audit_context(user="sec", reason="the evening's roster"), transaction.atomic():
        member = Member.objects.create(club=club, name="Ames")
        Member.objects.filter(pk=member.pk).update(is_guest=True)
        Member.objects.create(club=club, name="Brook")
    meta = {"user": "sec", "reason": "the evening's roster"}
    assert filed("Ames") == [("insert", meta), ("update", meta)]
    assert filed("Brook") == [("insert", meta)]
    assert len(sets) == 1  # three writes, one transaction: set once


def test_each_transaction_sets_it_again(club, postgres, sets):
    with audit_context(reason="two sittings"):
        with transaction.atomic():
            Member.objects.create(club=club, name="Ames")
        with transaction.atomic():
            Member.objects.create(club=club, name="Brook")
    assert filed("Ames") == [("insert", {"reason": "two sittings"})]
    assert filed("Brook") == [("insert", {"reason": "two sittings"})]
    assert len(sets) == 2


def test_a_write_outside_a_transaction_is_filed_too(club, postgres):
    with audit_context(reason="autocommit"):
        member = Member.objects.create(club=club, name="Ames")  # no atomic block
        member.is_guest = True
        member.save()
    assert filed("Ames") == [
        ("insert", {"reason": "autocommit"}),
        ("update", {"reason": "autocommit"}),
    ]


def test_metadata_added_mid_transaction_reaches_the_later_writes(club, postgres, sets):
    with audit_context(url="/t/abc/"), transaction.atomic():
        Member.objects.create(club=club, name="Ames")
        add_to_audit_context(user=None, table=3)  # as the API does once authenticated
        Member.objects.create(club=club, name="Brook")
        add_to_audit_context(table=3)  # nothing new: not set again
        Member.objects.create(club=club, name="Carr")
    # One context row, holding the metadata as it last was.
    assert filed("Carr") == [("insert", {"url": "/t/abc/", "user": None, "table": 3})]
    assert len(sets) == 2


def test_a_savepoint_rolled_back_does_not_take_the_context_with_it(club, postgres):
    """The context first set inside a savepoint that is rolled back is gone with it (SET
    LOCAL is undone): the next write outside that savepoint must set it again."""
    with audit_context(reason="kept"), transaction.atomic():
        try:
            with transaction.atomic():  # a savepoint
                Member.objects.create(club=club, name="Gone")
                raise RuntimeError("refused")
        except RuntimeError:
            pass
        Member.objects.create(club=club, name="Ames")
    assert filed("Gone") == []
    assert filed("Ames") == [("insert", {"reason": "kept"})]


def test_a_savepoint_released_with_other_metadata_is_not_mistaken_for_the_outer(club, postgres):
    with audit_context(reason="outer"), transaction.atomic():
        Member.objects.create(club=club, name="Ames")
        with transaction.atomic(), audit_context(reason="inner"):  # a savepoint; adds
            Member.objects.create(club=club, name="Brook")
        Member.objects.create(club=club, name="Carr")
    assert filed("Carr") == [("insert", {"reason": "inner"})]


def test_no_context_outside_one(club, postgres):
    Member.objects.create(club=club, name="Ames")
    assert filed("Ames") == [("insert", None)]


def test_a_lock_timeout_and_the_context_are_set_in_one_statement(club, postgres, sets):
    """core.db.row_locks sets the lock timeout with the context when the transaction has
    none yet (core.audit.set_local): the writes after it send no statement of their own
    for the context, and a second transaction gets both again."""
    from django.db import connection

    from core.db import LOCK_TIMEOUT_MS, row_locks

    for name in ("Ames", "Brook"):
        with audit_context(user="sec"), transaction.atomic(), row_locks(what="member"):
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT current_setting('lock_timeout'), "
                    "current_setting('pghistory.context_id', true)"
                )
                timeout, context_id = cursor.fetchone()
            Member.objects.create(club=club, name=name)
        assert timeout == f"{LOCK_TIMEOUT_MS}ms" or timeout == f"{LOCK_TIMEOUT_MS // 1000}s"
        assert context_id == str(MemberHistory.objects.get(name=name).pgh_context_id)
        assert filed(name) == [("insert", {"user": "sec"})]
    assert sets == []  # never set apart from the lock timeout


def test_a_context_changed_after_the_lock_is_set_again_before_the_write(club, postgres, sets):
    from core.db import row_locks

    with audit_context(user=None), transaction.atomic(), row_locks(what="member"):
        add_to_audit_context(user="sec")  # the caller known after the lock
        Member.objects.create(club=club, name="Ames")
    assert filed("Ames") == [("insert", {"user": "sec"})]
    assert len(sets) == 1
