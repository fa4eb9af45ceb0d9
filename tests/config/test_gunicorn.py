"""config/gunicorn.conf.py, as gunicorn itself reads it: the production settings the
benchmark measures (threaded workers, two a core, two threads each), each one open to
the environment without editing the file; and the cores counted (config/cores.py), the
ones the process may use, for the web and the Celery worker alike."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from config.cores import usable_cores

CONFIG = Path(__file__).resolve().parents[2] / "config" / "gunicorn.conf.py"


def settings_read(**environment: str) -> dict[str, str]:
    """The settings gunicorn would run with (`--print-config`), under this environment."""
    env = {k: v for k, v in os.environ.items() if k not in ("WEB_CONCURRENCY", "GUNICORN_CMD_ARGS")}
    printed = subprocess.run(
        [sys.executable, "-m", "gunicorn", "--config", str(CONFIG), "--print-config",
         "config.wsgi"],
        env={**env, **environment}, capture_output=True, text=True, check=True, timeout=60,
    ).stdout  # fmt: skip
    return {
        name.strip(): value.strip()
        for name, _, value in (line.partition("=") for line in printed.splitlines())
        if value
    }


def test_threaded_workers_two_a_core_two_threads_each():
    read = settings_read()
    assert read["worker_class"] == "gthread"
    assert int(read["workers"]) == 2 * len(os.sched_getaffinity(0))
    assert read["threads"] == "2"


@pytest.mark.parametrize(
    ("environment", "setting", "value"),
    [
        ({"WEB_CONCURRENCY": "3"}, "workers", "3"),
        ({"GUNICORN_CMD_ARGS": "--threads 4"}, "threads", "4"),
    ],
)
def test_the_environment_changes_a_setting(environment, setting, value):
    assert settings_read(**environment)[setting] == value


def cgroup(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


@pytest.mark.parametrize(
    ("files", "most"),
    [
        # cgroup v2: a container run with --cpus 1.5 gets two workers' cores, rounded up
        ({"cpu.max": "150000 100000\n"}, 2),
        ({"cpu.max": "100000 100000\n"}, 1),
        # cgroup v1
        ({"cpu/cpu.cfs_quota_us": "50000\n", "cpu/cpu.cfs_period_us": "100000\n"}, 1),
    ],
)
def test_a_containers_cpu_quota_bounds_the_cores_counted(tmp_path, files, most):
    """Not the host's cores: a container given a CPU or two of a large host must not start
    two workers for each of the host's cores (each one a PostgreSQL connection)."""
    assert usable_cores(cgroup(tmp_path, files)) == min(most, len(os.sched_getaffinity(0)))


@pytest.mark.parametrize(
    "files",
    [
        {},  # nothing to read: not on Linux, or no control group mounted
        {"cpu.max": "max 100000\n"},
        {"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"},
        {"cpu.max": "garbage\n"},
    ],
)
def test_no_quota_counts_the_cores_the_process_may_run_on(tmp_path, files):
    assert usable_cores(cgroup(tmp_path, files)) == len(os.sched_getaffinity(0))


def test_the_cpus_a_process_is_pinned_to_are_counted(tmp_path):
    """A cpuset (taskset, a container's --cpuset-cpus): the CPUs it may use, not the host's."""
    allowed = os.sched_getaffinity(0)
    try:
        os.sched_setaffinity(0, {min(allowed)})
        assert usable_cores(cgroup(tmp_path, {})) == 1
    finally:
        os.sched_setaffinity(0, allowed)


def test_the_celery_worker_runs_a_process_a_usable_core():
    """Celery's own default is a process for each of the host's cores."""
    from config.celery import app

    assert app.conf.worker_concurrency == usable_cores()
