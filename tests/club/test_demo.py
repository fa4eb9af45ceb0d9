"""The README's first command loads a demo club a newcomer can look around in."""

import io
import logging

from django.core.management import call_command
from django.urls import reverse

from club.models import Evening
from scoring.models import Rubber
from tournaments.models import Tournament


def test_quickstart_sets_up_a_working_evening_and_is_safe_to_run_twice(
    db, client, django_capture_on_commit_callbacks, caplog
):
    out = io.StringIO()
    with django_capture_on_commit_callbacks(execute=True):  # the standings recalculation
        call_command("quickstart", "--no-serve", stdout=out)
    call_command("quickstart", "--no-serve", stdout=io.StringIO())
    evening = Evening.objects.get(title="Demo evening")
    assert evening.tables.count() == 2
    finished = Rubber.objects.get(evening=evening, status="complete")
    assert (finished.winner, finished.value) == ("NS", 4)  # worked in load_demo (ruling E4)
    assert Rubber.objects.filter(evening=evening, status="in_progress").count() == 2
    assert Tournament.objects.get(slug="winter").standings_version >= 1
    assert f"/secretary/evenings/{evening.pk}/" in out.getvalue()
    progressive = Tournament.objects.get(slug="thanksgiving")
    assert f"/secretary/tournaments/{progressive.pk}/" in out.getvalue()
    # --no-serve leaves nothing running: no "Stop with Ctrl-C" (README, "The two commands").
    assert "Ctrl-C" not in out.getvalue()
    assert client.get("/clubs/somerset/tournaments/winter/").status_code == 200
    # Through the login form (django-axes needs the request a bare client.login lacks).
    caplog.set_level(logging.INFO)
    client.post(reverse("login"), {"username": "secretary", "password": "cut-for-partners"})
    # The terminal shows the secretary only what he needs (README): not django-axes' lines
    # on every login.
    assert not [r.getMessage() for r in caplog.records if r.name.startswith("axes")]
    board = client.get(f"/secretary/evenings/{evening.pk}/").content.decode()
    assert "Table 2" in board and "Rubber 2" in board
    # The progressive: round 1 seated, table 1's four deals played (decided), table 2 under
    # way; its director's page links each table's sheet.
    assert progressive.rounds.count() == 1  # run twice, seated once
    director = client.get(f"/secretary/tournaments/{progressive.pk}/").content.decode()
    tables = f"/secretary/tournaments/{progressive.pk}/rounds/1/tables/"
    assert f'href="{tables}2/"' in director
    assert "Hand <span data-next-label>2</span>" in client.get(f"{tables}2/").content.decode()
    assert client.get(f"{tables}1/").content.decode().count("Won by") == 1


def test_quickstart_forgets_the_idempotency_records_a_laptop_has_outgrown(db):
    """A laptop runs no Celery beat (README: quickstart), so the records of the phones'
    Idempotency-Keys are never purged every few minutes as in production (settings'
    `idempotency-purge`): each quickstart purges them before serving (a club that runs
    its evenings on a laptop starts it each evening), keeping those still within a day."""
    import datetime

    from django.utils import timezone

    from core.idempotency import KEEP_FOR
    from core.models import IdempotencyRecord

    def record(key: str, age: datetime.timedelta) -> None:
        made = IdempotencyRecord.objects.create(
            key=key, principal="table:1", method="POST", path="/t/x/hand/", fingerprint="f",
            state=IdempotencyRecord.State.DONE, status=200, content_type="text/html", body=b"",
        )  # fmt: skip
        IdempotencyRecord.objects.filter(pk=made.pk).update(created_at=timezone.now() - age)

    record("last-week", KEEP_FOR * 7)
    record("this-evening", datetime.timedelta(hours=2))
    call_command("quickstart", "--no-serve", stdout=io.StringIO())
    assert set(IdempotencyRecord.objects.values_list("key", flat=True)) == {"this-evening"}
