"""gunicorn's settings for the service, the ones `bench/run.py` measures:

    gunicorn -c config/gunicorn.conf.py config.wsgi --bind 0.0.0.0:8000

Threaded workers (`gthread`): a phone on a club's wifi that is slow to send its hand, or
a board polling with keep-alive, holds a thread, not a whole process, and a worker's
threads share its memory. Two workers a core, two threads each: on two cores that is
four workers x two threads, the benchmark's figures (BENCHMARKS.md). Measured beside
it on two cores (BENCHMARKS.md, 26 November, fourth session): two workers x four
threads cost about 1.5 ms less CPU a recorded hand but held fewer tables under the
capacity step (70 against 90; more threads in one process wait longer for its
interpreter lock).

The cores counted are the ones this process may use (`usable_cores`), not the host's: a
container given two CPUs of a 64-core host runs four workers, not 128 (each holding its
own PostgreSQL connection).

Any of them may be changed without editing this file: `WEB_CONCURRENCY` sets the number
of workers, and `GUNICORN_CMD_ARGS` or the command line any setting (`--threads 4`).
"""

import math
import os
from pathlib import Path


def usable_cores(cgroup: Path = Path("/sys/fs/cgroup")) -> int:
    """The cores this process may run on: the CPUs it is pinned to (a cpuset), fewer when
    its control group's CPU quota allows less (a container's `--cpus`, cgroup v2's
    `cpu.max` or v1's `cpu.cfs_quota_us`), rounded up; at least one."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    quota = _cpu_quota(cgroup)
    if quota is not None:
        cores = min(cores, math.ceil(quota))
    return max(cores, 1)


def _cpu_quota(cgroup: Path) -> float | None:
    """The control group's CPU quota in CPUs, or None where there is none (or none to read)."""
    try:
        quota, period = (cgroup / "cpu.max").read_text().split()[:2]  # v2: "max 100000"
    except (OSError, ValueError):
        try:  # v1: -1 for none
            quota = (cgroup / "cpu" / "cpu.cfs_quota_us").read_text().strip()
            period = (cgroup / "cpu" / "cpu.cfs_period_us").read_text().strip()
        except OSError:
            return None
    try:
        quota_us, period_us = int(quota), int(period)
    except ValueError:  # "max": no quota
        return None
    return quota_us / period_us if quota_us > 0 and period_us > 0 else None


worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY") or 2 * usable_cores())
threads = 2
