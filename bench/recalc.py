"""The worker's incremental recalculation in process: what one costs when nothing else runs.

    python bench/recalc.py [--players 40] [--rounds 30] [--profile OUT.prof]

Against the benchmark's database (`DATABASE_URL`, as bench/run.py leaves it, its season
settled), for each of the season club's tournaments in turn: `--players` of its players,
drawn at random, are marked changed in its outbox, as that many players' hands would
(under the recording step's load, a recalculation finds about forty), and
`standings_recalculate` runs as the Celery task runs it. Prints this process's CPU (the
worker's Python: the ORM, psycopg) and its PostgreSQL backend's (read from /proc: the
server must be on this machine) per recalculation. The first round is not counted. With
`--profile`, cProfile's figures for the same calls go to OUT.prof.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

if __name__ == "__main__":  # the repository, not bench/
    sys.path[0] = str(Path(__file__).resolve().parent.parent)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--club", default="season-club")
    parser.add_argument("--players", type=int, default=40, help="players changed each time")
    parser.add_argument("--rounds", type=int, default=30, help="recalculations a tournament")
    parser.add_argument("--seed", type=int, default=1888)
    parser.add_argument("--profile", help="write cProfile's figures to this file")
    args = parser.parse_args(argv)

    import django

    django.setup()
    import cProfile

    from django.db import connection

    from bench.serial import backend_cpu
    from tournaments.models import StandingsDirty, Tournament, TournamentTotal
    from tournaments.services import standings_recalculate

    rng = random.Random(args.seed)
    tournaments = list(Tournament.objects.filter(club__slug=args.club).order_by("pk"))
    if not tournaments:
        raise SystemExit(f"no tournament of {args.club!r}: run bench/run.py first")
    players = {
        t.pk: list(TournamentTotal.objects.filter(tournament=t).values_list("member_id", flat=True))
        for t in tournaments
    }

    def change(tournament) -> None:
        drawn = rng.sample(players[tournament.pk], min(args.players, len(players[tournament.pk])))
        StandingsDirty.objects.bulk_create(
            [StandingsDirty(tournament=tournament, member_id=m) for m in drawn],
            ignore_conflicts=True,
        )

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    for tournament in tournaments:  # warm: the connection's caches, the compiled reads
        change(tournament)
        standings_recalculate(tournament_id=tournament.pk)
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    python = postgres = 0.0
    runs = 0
    for _ in range(args.rounds):
        for tournament in tournaments:
            change(tournament)
            cpu0, pg0 = time.process_time(), backend_cpu(pid)
            if profiler:
                profiler.enable()
            standings_recalculate(tournament_id=tournament.pk)
            if profiler:
                profiler.disable()
            python += time.process_time() - cpu0
            postgres += backend_cpu(pid) - pg0
            runs += 1
    if profiler:
        profiler.dump_stats(args.profile)
    print(
        f"{runs} recalculations of {args.players} changed players: Python "
        f"{1000 * python / runs:.2f} ms each, PostgreSQL backend {1000 * postgres / runs:.2f} ms"
        + (" (cProfile on: Python's figure is inflated)" if profiler else "")
    )


if __name__ == "__main__":
    from bench.serial import script_environment

    script_environment()  # as bench/serial.py's
    main()
