"""The benchmark's CPU per recorded hand (bench/report.py): the hands' requests and the
PostgreSQL backends serving them are charged, the reader's requests and statements not
(issue 17: the recording's CPU printed apart from the standings reader's)."""

import pytest

from bench.report import BY_PROCESS, recorded_hand_cpu, request_cpu

# bench/wsgi.py's Redis hash after a load: seconds of gunicorn's and of the request's
# PostgreSQL backend's CPU, and the requests, by kind (as redis-py returns it: bytes).
RAW = {
    b"record:cpu": b"5.0", b"record:pg": b"2.5", b"record:n": b"1000",
    b"start:cpu": b"0.5", b"start:pg": b"0.25", b"start:n": b"50",
    b"read:cpu": b"4.0", b"read:pg": b"0.4", b"read:n": b"4000",
}  # fmt: skip


def test_each_kind_of_request_has_its_cpu_and_its_backends():
    kinds = request_cpu(RAW)
    assert kinds["record"] == {"n": 1000, "ms": pytest.approx(5.0), "pg_ms": pytest.approx(2.5)}
    assert kinds["start"]["pg_ms"] == pytest.approx(5.0)
    assert kinds["read"] == {"n": 4000, "ms": pytest.approx(1.0), "pg_ms": pytest.approx(0.1)}


def test_a_hand_is_charged_its_own_statements_and_the_workers_not_the_readers():
    used = {"gunicorn": 9.9, "celery": 1.0, "postgres:gunicorn": 3.15, "postgres:celery": 1.5}
    figures = recorded_hand_cpu(request_cpu(RAW), used, hands=1000)
    assert figures["gunicorn"] == pytest.approx(5.5)  # (5.0 + 0.5) s over 1,000 hands
    assert figures["celery"] == pytest.approx(1.0)
    # The hands' and the starts' backends (2.75 s) and the worker's (1.5 s), not the
    # reader's 0.4 s that gunicorn's backends also spent.
    assert figures["postgres"] == pytest.approx(4.25)
    assert figures["total"] == pytest.approx(10.75)
    assert figures[BY_PROCESS] == {"celery": pytest.approx(1.5), "gunicorn": pytest.approx(3.15)}


def test_no_hands_no_figure():
    assert recorded_hand_cpu(request_cpu(RAW), {"celery": 1.0}, hands=0) == {}


def test_the_figures_are_read_once_every_request_the_load_made_is_counted(redis, settings):
    """bench/wsgi.py's processes add their figures to the hash every 0.2 s, later on a loaded
    machine: the load's figures are read once they count its requests (a fixed wait once
    read them before the recorded hands' were in), and no later than the limit."""
    import threading

    import redis as redis_py

    from bench.report import settled_hash

    cache = redis_py.Redis.from_url(settings.REDIS_URL)
    key = "test-bench-cpu"
    cache.delete(key)
    cache.hset(key, mapping={"start:n": 50, "start:cpu": 0.5})

    def late_flush():
        cache.hset(key, mapping={"record:n": 1000, "record:cpu": 5.0, "record:pg": 2.5})

    threading.Timer(0.6, late_flush).start()
    raw = settled_hash(cache, key, at_least={"record": 1000, "start": 50}, most=10)
    assert request_cpu(raw)["record"]["n"] == 1000
    assert request_cpu(raw)["record"]["ms"] == pytest.approx(5.0)
    # A kind that never comes in: the figures as they are, at the limit.
    raw = settled_hash(cache, key, at_least={"read": 1}, most=0.3)
    assert "read" not in request_cpu(raw)
    cache.delete(key)
