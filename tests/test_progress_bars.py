"""Long commands show a progress bar on a terminal, and none when their output is not one.

The bar goes to the command's error stream, through tqdm with `disable=None`: a stream
whose `isatty()` is false (a pipe, a log file, a test's StringIO) gets nothing from it.
Each command is run both ways, so that the "no bar" half cannot pass merely because
there is no bar at all.
"""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from club.backup import club_export
from club.models import Club
from core.progress import progress_bar
from tests.factories import ClubFactory, MemberFactory

ROOT = Path(__file__).resolve().parents[1]


class Terminal(io.StringIO):
    """A captured stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def bar_in(text: str) -> bool:
    return "%|" in text and "\r" in text


def test_the_bar_draws_on_a_terminal_and_nowhere_else():
    tty, pipe = Terminal(), io.StringIO()
    for stream in (tty, pipe):
        with progress_bar(total=3, unit="rows", desc="Restoring", file=stream) as bar:
            bar.update(3)
    assert bar_in(tty.getvalue()) and "3/3" in tty.getvalue() and "rows/s" in tty.getvalue()
    assert pipe.getvalue() == ""


@pytest.mark.django_db
def test_make_season_shows_a_bar_only_on_a_terminal():
    sizes = {"players": 12, "evenings": 2, "hands": 150, "seed": 3}
    out, err = io.StringIO(), io.StringIO()
    call_command("make_season", club="piped", stdout=out, stderr=err, **sizes)
    assert "150 hands" in out.getvalue()
    assert err.getvalue() == ""

    tty = Terminal()
    call_command("make_season", club="shown", stdout=io.StringIO(), stderr=tty, **sizes)
    shown = tty.getvalue()
    assert bar_in(shown) and "Playing the season" in shown
    assert "150/150" in shown  # every hand counted, none twice
    assert "\n" not in shown.rstrip("\n")  # redrawn in place, not a line per update


@pytest.mark.django_db
def test_import_club_shows_a_bar_only_on_a_terminal(tmp_path):
    club = ClubFactory(slug="barred")
    for _ in range(3):
        MemberFactory(club=club)
    path = tmp_path / "club.json"
    data = club_export(club=club)
    rows = sum(len(section["rows"]) for section in data["models"])
    path.write_text(json.dumps(data, default=str))

    err = io.StringIO()
    call_command("import_club", str(path), slug="piped", stdout=io.StringIO(), stderr=err)
    assert err.getvalue() == ""

    tty = Terminal()
    call_command("import_club", str(path), slug="shown", stdout=io.StringIO(), stderr=tty)
    assert bar_in(tty.getvalue()) and f"{rows}/{rows}" in tty.getvalue()
    assert Club.objects.filter(slug__in=["piped", "shown"]).count() == 2


def test_a_bar_on_a_pipe_prints_nothing():
    """The default stream, standard error, in a process of its own whose error stream is
    a pipe (as when bench/run.py runs its steps, or a command's output goes to a log)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", "import core.progress as p, sys; "
         "b = p.progress_bar(total=2, unit='rows', desc='Restoring'); b.update(2); b.close()"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" and done.stdout == ""
