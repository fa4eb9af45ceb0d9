"""Profiles of the service under the benchmark's load, by py-spy (a sampling profiler
that reads a running Python process from outside: nothing in the service changes).

`bench/run.py --profile` records gunicorn (its workers) and the Celery worker during the
recording step, as py-spy's collapsed stacks (`profile-<name>.txt`, the format
flamegraph.pl and https://www.speedscope.app draw as a flame graph), from which
`top_entries` prints the functions that cost the most, in the run's output and in
`results.json`. One py-spy process each: a second one, for an SVG, costs the two cores
enough to change what is measured.

    python -m bench.profile artifacts/bench/<run>/profile-gunicorn.txt   # the top entries again
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

RATE = 100  # samples a second
SERVICE = ("club/", "scoring/", "core/", "tournaments/", "config/")
FRAME = re.compile(r"^(?P<function>.*?) \((?P<file>[^()]*?)(?::\d+)?\)$")


def _where(frame: str) -> str:
    """ "function (path/to/file.py:12)" as "file.py:function", the path cut to its package."""
    match = FRAME.match(frame.strip())
    if not match:
        return frame.strip()
    path = match["file"]
    for marker in ("site-packages/", "/lib/python3", "/work/", "/main/"):
        if marker in path:
            path = path.split(marker, 1)[1]
    path = re.sub(r"^\d+(\.\d+)?/", "", path)  # /lib/python3.11/...: the version left over
    return f"{path}:{match['function']}"


def top_entries(samples: Path, count: int = 15) -> dict:
    """The functions most often on the CPU (self: the frame running; inclusive: anywhere in
    the stack), as shares of all samples, from py-spy's collapsed stacks."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0
    for line in samples.read_text().splitlines():
        stack, _, number = line.rpartition(" ")
        if not stack or not number.isdigit():
            continue
        n = int(number)
        frames = [
            _where(f) for f in stack.split(";") if f and not f.startswith(("process ", "thread "))
        ]
        if not frames:
            continue
        total += n
        own[frames[-1]] += n
        for where in set(frames):
            inclusive[where] += n
    share = lambda counter: [  # noqa: E731
        {"where": where, "share": n / total} for where, n in counter.most_common(count)
    ]
    # The service's own functions: where its time goes, below the frameworks' frames
    # that every request passes through.
    service = Counter({w: n for w, n in inclusive.items() if w.startswith(SERVICE)})
    return {
        "samples": total,
        "self": share(own),
        "inclusive": share(inclusive),
        "service": share(service),
    }


def format_entries(name: str, entries: dict) -> str:
    lines = [f"{name}: {entries['samples']:,} samples"]
    for kind in ("service", "inclusive", "self"):
        lines.append(f"  {kind}:")
        lines += [f"    {e['share'] * 100:5.1f}%  {e['where']}" for e in entries[kind]]
    return "\n".join(lines)


@contextmanager
def recording(out: Path, processes: dict[str, int], seconds: float):
    """py-spy records each process (and its children) for `seconds` while the block runs;
    yields a dict filled at the end with each one's top entries. py-spy missing or not
    allowed to read the processes: said, and the block runs unprofiled."""
    found: dict[str, dict] = {}
    py_spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(py_spy).exists():
        print("profile: py-spy is not installed (pip install py-spy); not profiled", flush=True)
        yield found
        return
    running = []
    for name, pid in processes.items():
        # --gil: only the thread holding the interpreter's lock is sampled, so a thread
        # waiting (for PostgreSQL, for the lock, for a core on a busy machine) is not
        # counted as working. --nonblocking: the processes are not paused to be read.
        argv = [
            py_spy, "record", "--pid", str(pid), "--subprocesses", "--gil", "--nonblocking",
            "--rate", str(RATE), "--duration", str(int(seconds)), "--format", "raw",
            "--output", str(out / f"profile-{name}.txt"),
        ]  # fmt: skip
        log = (out / f"profile-{name}.log").open("w")
        running.append((name, subprocess.Popen(argv, stdout=log, stderr=log)))
    try:
        yield found
    finally:
        for name, proc in running:
            try:
                proc.wait(timeout=seconds + 60)
            except subprocess.TimeoutExpired:
                proc.kill()
            samples = out / f"profile-{name}.txt"
            if samples.exists():
                found[name] = top_entries(samples)
            else:
                print(f"profile: no samples of {name}; see profile-{name}.log", flush=True)


if __name__ == "__main__":
    for path in sys.argv[1:]:
        print(format_entries(Path(path).stem, top_entries(Path(path), 25)))
