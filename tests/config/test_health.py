"""/healthz reports the database, the broker and the worker."""

import pytest


def test_healthz_reports_database_and_broker(db, client, settings):
    body = client.get("/healthz").json()
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is True
    assert body["status"] == "ok"


def test_healthz_says_when_the_broker_is_down(db, client, settings):
    # A port nothing listens on: the broker is unreachable, recording still works.
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["broker"]["ok"] is False
    assert body["status"] == "degraded"


@pytest.mark.django_db
def test_heartbeat_task_is_reported(client):
    from club.tasks import worker_heartbeat

    worker_heartbeat.delay()
    assert client.get("/healthz").json()["worker"]["last_heartbeat"] is not None


def test_what_a_failure_says_is_for_staff_only(db, client, settings, secretary):
    """Anyone may ask /healthz: a failure's error text (it names hosts and users) and the
    worker's host name are shown to staff only; the public sees what is up."""
    from club.tasks import worker_heartbeat

    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    worker_heartbeat.delay()
    public = client.get("/healthz").json()
    assert public["broker"] == {"ok": False, "mode": "redis"}
    assert set(public["worker"]) == {"last_heartbeat"}
    secretary.is_staff = True
    secretary.save()
    client.force_login(secretary)
    staff = client.get("/healthz").json()
    assert staff["broker"]["error"]  # why it is down
    assert staff["worker"]["worker"]
