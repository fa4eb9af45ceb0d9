"""bench/recalc.py, the worker's recalculation measured in process: it runs against a
season, prints its figures, and leaves the standings as a full recalculation has them."""

import os
import subprocess
import sys
from pathlib import Path

from bench import recalc
from bench.serial import SCRIPT_ENVIRONMENT
from tournaments.management.season import season_make
from tournaments.models import StandingsDirty, Tournament
from tournaments.services import compute_totals

ROOT = Path(__file__).resolve().parents[2]


def test_it_recalculates_changed_players_and_prints_the_cost(db, postgres, capsys):
    season_make(club_slug="measured", players=24, evenings=3, hands=300, seed=5)
    recalc.main(["--club", "measured", "--players", "6", "--rounds", "2"])
    printed = capsys.readouterr().out
    tournaments = list(Tournament.objects.filter(club__slug="measured"))
    assert f"{2 * len(tournaments)} recalculations of 6 changed players" in printed
    assert "PostgreSQL backend" in printed
    assert not StandingsDirty.objects.filter(tournament__in=tournaments).exists()
    for tournament in tournaments:  # and the standings still agree with a full recalculation
        stored = {t.member_id: t.points for t in tournament.totals.all()}
        assert stored == {m: v["points"] for m, v in compute_totals(tournament).items()}


def test_importing_the_in_process_benchmarks_leaves_the_environment_alone():
    # They set their defaults (another cache prefix, the bench settings) when run as
    # scripts; imported by a test they once handed them to the Celery workers the test
    # run started later, which then never saw the test's cache keys.
    probe = (
        "import os, sys; before = dict(os.environ); path = list(sys.path); "
        "import bench.serial, bench.recalc; "
        "assert dict(os.environ) == before, set(os.environ.items()) ^ set(before.items()); "
        "assert sys.path == path, sys.path"
    )
    # A clean environment: this test process imported them already.
    env = {k: v for k, v in os.environ.items() if k not in SCRIPT_ENVIRONMENT}
    subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, check=True)
