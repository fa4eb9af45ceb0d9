"""What each of a recorded hand's features costs, in process: the hand with it and without.

    python bench/ablate.py --plan PLAN.json [--hands 300] [--rounds 5]

bench/serial.py's tables (the load generator's requests through Django's test client,
against the benchmark's database, `DATABASE_URL`), recording `--hands` hands with every
feature, then as many with each feature left out in turn, and again for `--rounds`
rounds, interleaved, so that the machine's drift falls on every variant alike. Prints,
per variant, this process's CPU a hand (the request's Python, with the load generator's
few tenths of a millisecond) and its PostgreSQL backend's, averaged over the rounds, and
each round's figures: on a shared two-core machine one run of a few hundred hands moves
by a millisecond, so read the differences over several rounds.

The features, each what a hand pays for something an earlier issue asked for:
- the Idempotency-Key record (core.idempotency: a phone's retry is answered, not doubled);
- DRF's throttles (config.throttles: per table, per address);
- the triggers (core.audit's history of every change, and the foreign keys' checks,
  which `session_replication_role = replica` turns off together for this connection);
- the standings' outbox (tournaments.receivers: the recalculation's queue);
- the evening's log (club.evening_receivers: the board's version and event);
and all five left out together: what the hand's path costs without any of them.

Nothing is changed outside this process: the features are switched off in it (a
signal's receiver disconnected, a method replaced, a session setting) and on again
after each variant's hands, so the database is left as it was, its triggers included.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack, contextmanager, nullcontext
from pathlib import Path
from unittest import mock

if __name__ == "__main__":  # the repository, not bench/
    sys.path[0] = str(Path(__file__).resolve().parent.parent)


def variants() -> dict[str, Callable]:
    """Each variant's name and a context manager that leaves its feature out."""
    from django.db import connection
    from rest_framework.views import APIView

    from bench.serial import InProcess
    from club import evening_receivers
    from scoring import signals
    from tournaments import receivers

    def no_idempotency_key():
        send = InProcess.request

        def without(self, method, path, body=None, headers=None):
            kept = {k: v for k, v in (headers or {}).items() if k.lower() != "idempotency-key"}
            return send(self, method, path, body, kept)

        return mock.patch.object(InProcess, "request", without)

    @contextmanager
    def no_triggers():
        with connection.cursor() as cursor:
            cursor.execute("SET session_replication_role = replica")
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SET session_replication_role = DEFAULT")

    @contextmanager
    def disconnected(signal, receiver, uid: str):
        signal.disconnect(dispatch_uid=uid)
        try:
            yield
        finally:
            signal.connect(receiver, dispatch_uid=uid)

    def none_of_them():
        stack = ExitStack()
        for leave_out in left_out.values():
            stack.enter_context(leave_out())
        return stack

    left_out = {
        "no Idempotency-Key": no_idempotency_key,
        "no throttles": lambda: mock.patch.object(APIView, "get_throttles", lambda self: []),
        "no triggers (audit, foreign keys)": no_triggers,
        "no standings outbox": lambda: disconnected(
            signals.rubber_changed, receivers.note_rubber_changed, "standings-outbox"
        ),
        "no evening log": lambda: disconnected(
            signals.hand_recorded, evening_receivers.on_hand_recorded, "evening-hand"
        ),
    }
    return {"every feature": nullcontext, **left_out, "none of them": none_of_them}


def main(argv=None) -> dict[str, list[tuple[float, float]]]:
    from bench.serial import backend_cpu, table_arguments, warmed_tables

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    table_arguments(parser)
    parser.add_argument("--hands", type=int, default=300, help="hands a variant, a round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    play, pid = warmed_tables(args)
    figures: dict[str, list[tuple[float, float]]] = {}
    for _ in range(args.rounds):
        for name, leave_out in variants().items():
            with leave_out():
                play(args.tables)  # the variant's first hands at each table, uncounted
                pg0, cpu0 = backend_cpu(pid), time.process_time()
                play(args.hands)
                python, postgres = time.process_time() - cpu0, backend_cpu(pid) - pg0
            figures.setdefault(name, []).append(
                (1000 * python / args.hands, 1000 * postgres / args.hands)
            )
    print(f"{args.hands} hands a variant, {args.rounds} rounds, in process (ms a hand):")
    for name, runs in figures.items():
        python = sum(p for p, _ in runs) / len(runs)
        postgres = sum(g for _, g in runs) / len(runs)
        each = ", ".join(f"{p:.2f}+{g:.2f}" for p, g in runs)
        print(
            f"  {name:34s} Python {python:5.2f}, PostgreSQL {postgres:5.2f}, "
            f"together {python + postgres:5.2f}   (rounds: {each})"
        )
    return figures


if __name__ == "__main__":
    from bench.serial import script_environment

    script_environment()  # as bench/serial.py's
    main()
