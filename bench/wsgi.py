"""The benchmark's gunicorn application: the service's own, with each request's CPU
counted by kind, so that the recording's CPU is printed apart from the reader's.

    gunicorn bench.wsgi:application      (bench/run.py starts it so)

The CPU of a request is its thread's (`time.thread_time`) from the call into Django to
the response's last byte: what that request cost gunicorn's process, not the other
threads' work. Its PostgreSQL CPU is what the backend of its thread's connection used
since the thread's request before (read from /proc: the server must be on this machine):
each thread holds a connection of its own (Django's connections are per thread) and its
backend works only while the thread's request waits on it, so the recording's statements
are counted apart from the reader's (a backend first seen counts from its start: its
connection was opened by the request). Each process adds the figures up in memory, and a
thread of its own adds them to a Redis hash (`BENCH_CPU_KEY`, fields `<kind>:cpu` and
`<kind>:pg` in seconds and `<kind>:n`) five times a second: a Redis call per request
would cost the cheap requests (the cached page, the trivial view) more than the counting
is worth. `bench/run.py` empties the hash before each load and reads it after, once it
counts every request the load made (`bench.report.settled_hash`).
"""

import os
import re
import threading
import time
from collections import Counter

import redis
from django.db import connection

from bench.report import BENCH_CPU_KEY
from bench.serial import backend_cpu
from config.wsgi import application as django_application

FLUSH_SECONDS = 0.2

KINDS = (
    ("record", "POST", re.compile(r"/hands/$")),
    ("start", "POST", re.compile(r"/rubbers/$")),
    ("read", "GET", re.compile(r"/standings/$|/tournaments/[^/]+/$")),
)


def kind_of(method: str, path: str) -> str:
    """The kind of request a method and path are: record, start, read or other."""
    for kind, wanted, pattern in KINDS:
        if method == wanted and pattern.search(path):
            return kind
    return "other"


_redis = redis.Redis.from_url(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/14"))
_counted: Counter = Counter()
_lock = threading.Lock()


def _flush_forever() -> None:
    while True:
        time.sleep(FLUSH_SECONDS)
        with _lock:
            figures = dict(_counted)
            _counted.clear()
        if not figures:
            continue
        try:
            pipe = _redis.pipeline(transaction=False)
            for field, value in figures.items():
                pipe.hincrbyfloat(BENCH_CPU_KEY, field, value)
            pipe.execute()
        except redis.RedisError:  # kept for the next round: a failed call must not end
            with _lock:  # the thread, or the process's figures would stop there
                _counted.update(figures)


_flusher: threading.Thread | None = None
_backends = threading.local()  # the thread's backend: (its pid, its CPU when last read)


def backend_cpu_since() -> float:
    """Seconds of CPU the backend of this thread's connection used since this was last
    called on the thread (all of it, for a backend not seen before); 0 with no connection
    open or a server elsewhere."""
    raw = connection.connection
    if raw is None or connection.vendor != "postgresql":
        return 0.0
    pid = raw.info.backend_pid
    try:
        now = backend_cpu(pid)
    except OSError:  # the server is not on this machine
        return 0.0
    last_pid, last = getattr(_backends, "seen", (None, 0.0))
    _backends.seen = (pid, now)
    return now - (last if pid == last_pid else 0.0)


def _start_flusher() -> None:
    """One flushing thread a process, started by its first request (after gunicorn's fork)."""
    global _flusher
    if _flusher is None:
        with _lock:
            if _flusher is None:
                _flusher = threading.Thread(target=_flush_forever, daemon=True)
                _flusher.start()


class _Counted:
    """The response's body, passed through; its closing counts the request's CPU."""

    def __init__(self, body, kind: str, started: float):
        self.body, self.kind, self.started = body, kind, started

    def __iter__(self):
        return iter(self.body)

    def close(self) -> None:
        # PostgreSQL's CPU read before the body's close, whose signal may close the
        # connection (CONN_MAX_AGE); the reading itself not counted in the thread's CPU.
        reading = time.thread_time()
        postgres = backend_cpu_since()
        self.started += time.thread_time() - reading
        try:
            if hasattr(self.body, "close"):
                self.body.close()
        finally:
            used = time.thread_time() - self.started
            with _lock:
                _counted[f"{self.kind}:cpu"] += used
                _counted[f"{self.kind}:pg"] += postgres
                _counted[f"{self.kind}:n"] += 1


def application(environ, start_response):
    _start_flusher()
    kind = kind_of(environ.get("REQUEST_METHOD", ""), environ.get("PATH_INFO", ""))
    started = time.thread_time()
    wall = time.perf_counter()

    def timed_start_response(status, headers, exc_info=None):
        took = (time.perf_counter() - wall) * 1000
        return start_response(status, [*headers, ("X-Bench-Ms", f"{took:.2f}")], exc_info)

    return _Counted(django_application(environ, timed_start_response), kind, started)
