"""A recorded hand's Python instructions, counted by valgrind's callgrind.

    python bench/instructions.py --plan PLAN.json [--hands 100] [--tables 10]

The CPU time of the same code moves by a quarter from run to run on a shared two-core
machine (BENCHMARKS.md: 5.25 to 7.26 ms a hand, four rounds of bench/serial.py); the
instructions a process runs do not, whatever else the machine does. So a change to a
hand's path is compared here: bench/serial.py runs under callgrind twice, counting
`BASE` hands and then `BASE + --hands`, and the difference over `--hands` is the hands'
own instructions, Django's start and the warming hands cancelling out. Hash seeds are
fixed so both runs hash alike. Only this process is counted (the request's whole Python
path), not PostgreSQL's backend. Callgrind runs some fifty times slower than the CPU:
a count of 100 hands takes two to three minutes. Needs valgrind (Debian's package) and
the benchmark's database as bench/serial.py does (`DATABASE_URL`, the recording step's
plan).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

BASE = 20  # hands counted in the first run
SERIAL = Path(__file__).resolve().parent / "serial.py"


def collected(output: str) -> int:
    """The instructions callgrind says it collected, from its summary on stderr
    (`==123== Collected : 5208672843`)."""
    found = re.findall(r"^==\d+== Collected : (\d+)\s*$", output, flags=re.MULTILINE)
    if not found:
        raise SystemExit(f"callgrind printed no count:\n{output[-2000:]}")
    return int(found[-1])


def per_hand(first: int, second: int, hands: int) -> int:
    """The instructions of `hands` hands, the first run's (`BASE` hands) taken away."""
    return (second - first) // hands


def count(plan: str, hands: int, tables: int) -> int:
    """The instructions of one run of bench/serial.py counting `hands` hands."""
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         str(SERIAL), "--plan", plan, "--hands", str(hands), "--tables", str(tables)],
        capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"},
        check=False,
    )  # fmt: skip
    if run.returncode != 0:
        raise SystemExit(f"bench/serial.py failed under callgrind:\n{run.stderr[-2000:]}")
    return collected(run.stderr)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plan", required=True, help="the recording step's plan-record.json")
    parser.add_argument("--hands", type=int, default=100, help="hands counted apart")
    parser.add_argument("--tables", type=int, default=10, help="the plan's first N tables")
    args = parser.parse_args(argv)
    first = count(args.plan, BASE, args.tables)
    second = count(args.plan, BASE + args.hands, args.tables)
    print(
        f"{per_hand(first, second, args.hands):,} Python instructions a recorded hand "
        f"(callgrind: {first:,} with {BASE} hands, {second:,} with {BASE + args.hands})"
    )


if __name__ == "__main__":
    main()
