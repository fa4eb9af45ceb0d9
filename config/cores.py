"""The cores this process may use, for the web's and the worker's number of processes:
the CPUs it is pinned to, bounded by its control group's CPU quota (a container's
`--cpus`), not the host's count (`os.cpu_count()`), which a container on a large host
would take for its own."""

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
