"""The standings' outbox under concurrent writers (PostgreSQL row locks).

A recalculation deletes the outbox rows it has read; a hand being recorded at the same
moment renews its players' rows. The delete used to wait for a row the hand held while
the hand waited for a row the delete held: PostgreSQL broke the deadlock after a second,
and under load the stalls piled up (bench/run.py's two-gunicorn step saw 16 s). Now the
delete skips a row being renewed (it keeps its new token, and so stays for the next
recalculation) and never waits.
"""

import threading
import uuid

import pytest
from django.db import connection, transaction

from tests.factories import EveningFactory, MemberFactory
from tournaments import services
from tournaments.models import StandingsDirty

pytestmark = pytest.mark.django_db(transaction=True)


def test_deleting_done_rows_skips_a_row_a_hand_is_renewing(club, postgres):
    ann, bob = MemberFactory(club=club, name="Ann"), MemberFactory(club=club, name="Bob")
    ladder = services.tournament_create(
        club=club, name="Ladder", slug="ladder", kind="ladder",
        evening_ids=[EveningFactory(club=club).pk],
    )  # fmt: skip
    for member in (ann, bob):
        StandingsDirty.objects.create(tournament=ladder, member=member)
    read = list(StandingsDirty.objects.values_list("pk", "member_id", "token"))  # as read

    renewing, release, failures = threading.Event(), threading.Event(), []

    def hand() -> None:
        """A hand's transaction: renews Ann's row, then (once let go) Bob's."""
        try:
            with transaction.atomic():
                StandingsDirty.objects.filter(member=ann).update(token=uuid.uuid4())
                renewing.set()
                release.wait(10)
                StandingsDirty.objects.bulk_create(
                    [StandingsDirty(tournament=ladder, member=bob)],
                    update_conflicts=True, unique_fields=["tournament", "member"],
                    update_fields=["token"],
                )  # fmt: skip
        except Exception as exc:  # reported below
            failures.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=hand)
    thread.start()
    assert renewing.wait(10)
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:  # waiting at all would be a failure here
                cursor.execute("SET LOCAL lock_timeout = '500ms'")
            services._delete_done(read)
    finally:
        release.set()
        thread.join(10)
    assert not failures, failures
    # Ann's row, renewed by the hand, stays for the next recalculation; Bob's was done and
    # deleted, and the hand's renewal after that wrote it afresh: nothing is lost.
    left = dict(StandingsDirty.objects.values_list("member_id", "token"))
    assert set(left) == {ann.pk, bob.pk}
    assert left[ann.pk] != {m: t for _, m, t in read}[ann.pk]
