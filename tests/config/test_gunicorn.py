"""config/gunicorn.conf.py, as gunicorn itself reads it: the production settings the
benchmark measures (threaded workers, two a core, two threads each), each one open to
the environment without editing the file."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

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
    assert int(read["workers"]) == 2 * (os.cpu_count() or 1)
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
