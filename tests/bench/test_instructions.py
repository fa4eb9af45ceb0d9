"""bench/instructions.py: a hand's Python instructions, read from callgrind's own summary."""

import subprocess

from bench.instructions import collected, per_hand
from tests.conftest import needs_program


def test_the_count_is_read_from_callgrinds_summary_as_valgrind_prints_it():
    valgrind = needs_program("valgrind")
    run = subprocess.run(
        [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", "/bin/true"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert collected(run.stderr) > 10_000  # /bin/true and the loader: a few hundred thousand


def test_the_first_runs_hands_are_taken_away():
    assert per_hand(5_000_000, 6_500_000, 100) == 15_000
