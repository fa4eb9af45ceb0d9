"""The benchmark's long-running processes: gunicorn, the Celery worker, and the process
that runs the untimed phases one after another (`bench.phases serve`).

Each is started in a process group of its own (gunicorn's and the worker's children stop
with it) and stopped by that group's id, never by a name. Starting and waiting for it to
be ready are apart (`start`, `wait`), so that several boot side by side and are waited
for together; `stop_all` stops several the same way. Each server is given a port free
when it starts (`free_port`): other runs may be serving on the machine at the same time.
"""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterable
from contextlib import suppress
from pathlib import Path

BOOT_SECONDS = 60  # a server not ready by then failed to start
READY = "ready"  # what `bench.phases serve` prints once Django is set up


def free_port() -> int:
    """A port free on 127.0.0.1 now (several runs may be serving side by side)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_ok(url: str) -> bool:
    """The URL answers 200 (a server's readiness)."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            response.read()
            return response.status == 200
    except OSError:
        return False


class Server:
    """A long-running process, its output kept in `<out>/<name>.log`; `ready()` says when
    it has started (gunicorn answering, the worker's "ready." in its log)."""

    def __init__(self, name: str, argv: list[str], *, out: Path, cwd: Path, env: dict,
                 ready: Callable[[], bool], pipes: bool = False):  # fmt: skip
        self.name, self.argv, self.out, self.cwd, self.env = name, argv, out, cwd, env
        self.ready = ready
        self.pipes = pipes  # talked to on standard input and output; the log has the rest
        self.proc: subprocess.Popen | None = None
        self.started = False

    @property
    def pid(self) -> int:
        return self.proc.pid

    def start(self) -> Server:
        """Start the process (not waiting for it), unless it is running."""
        if self.proc is not None:
            return self
        self.log = (self.out / f"{self.name}.log").open("w")
        if self.pipes:
            streams = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "stderr": self.log}
        else:
            streams = {"stdout": self.log, "stderr": subprocess.STDOUT}
        self.proc = subprocess.Popen(
            self.argv, cwd=self.cwd, env=self.env, text=True, start_new_session=True, **streams
        )
        return self

    def wait(self) -> Server:
        """Wait until it is ready (started first if need be)."""
        if self.proc is None:
            self.start()
        deadline = time.monotonic() + BOOT_SECONDS
        while not self.started:
            if self.ready():
                self.started = True
                break
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{self.name} did not start; see {self.out / self.name}.log")
            time.sleep(0.1)
        return self

    def terminate(self, *, kill: bool = False) -> None:
        """Tell it to stop (SIGTERM to its process group; SIGKILL with `kill`, where its
        warm shutdown serves nothing), not waiting for it."""
        if self.proc is not None and self.proc.poll() is None:
            with suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL if kill else signal.SIGTERM)

    def join(self, timeout: float = 30) -> None:
        """Wait for it to end (after `terminate`); killed if it takes longer than `timeout`."""
        if self.proc is None:
            return
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.log):
            if stream is not None:
                stream.close()
        self.proc, self.started = None, False

    def stop(self) -> None:
        self.terminate()
        self.join()


def stop_all(servers: Iterable[Server]) -> None:
    """Stop several servers side by side: each is told to stop, then each waited for (a
    Celery worker's warm shutdown takes a second or two, gunicorn's as long)."""
    servers = list(servers)
    for server in servers:
        server.terminate()
    for server in servers:
        server.join()


class PhaseProcess(Server):
    """`python -m bench.phases serve`: the untimed phases (a load's plan, the check of its
    hands, the outbox's settling, the query plans) one after another in one process,
    instead of a process each that spent its second of CPU starting Django. Its
    standard error is its log; its answers come a line each on standard output."""

    def __init__(self, python: str, *, out: Path, cwd: Path, env: dict, name: str = "phases"):
        super().__init__(
            name, [python, "-m", "bench.phases", "serve"], out=out, cwd=cwd, env=env,
            ready=lambda: self._line(BOOT_SECONDS) == READY, pipes=True,
        )  # fmt: skip

    def _line(self, timeout: float) -> str:
        """The process's next line of output, waited for at most `timeout` seconds."""
        readable, _, _ = select.select([self.proc.stdout], [], [], timeout)
        line = self.proc.stdout.readline() if readable else None
        if not line:
            why = (
                f"gave no answer in {timeout:.0f} s" if line is None
                else f"ended (exit code {self.proc.wait()})"
            )  # fmt: skip
            raise SystemExit(f"{self.name} {why}; see {self.out / self.name}.log")
        return line.strip()

    def call(self, argv: list[str], *, timeout: float) -> tuple[dict | None, str | None]:
        """A phase run in the process: (its figures, None) or (None, the traceback)."""
        self.wait()
        self.proc.stdin.write(json.dumps(argv) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self._line(timeout))
        return answer.get("ok"), answer.get("error")
