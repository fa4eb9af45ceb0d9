"""As a web or Celery worker starts: the URLconf loaded, not on the first request; its
start-up objects frozen out of the garbage collector (config/collector.py)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _probe(code: str) -> str:
    """What `code` prints, run in a fresh interpreter (its errors in the failure)."""
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_importing_the_wsgi_application_loads_the_urlconf_and_its_views():
    probe = (
        "import sys; import config.wsgi; "
        "print(all(m in sys.modules for m in ('config.urls', 'scoring.api', 'club.views')))"
    )
    assert _probe(probe) == "True"


def test_a_started_web_worker_keeps_its_start_up_objects_out_of_the_collectors_walks():
    # config/collector.py: the modules, settings and URLconf frozen once the worker has
    # started, so no collection walks them (each walk held every thread of the worker).
    probe = (
        "import gc; before = gc.get_freeze_count(); import config.wsgi; "
        "print(before, gc.get_freeze_count() > 50_000)"
    )
    assert _probe(probe) == "0 True"


def test_each_celery_worker_process_settles_its_collector_when_it_starts():
    # Sent in each of the worker's processes after the fork (config/celery.py).
    probe = (
        "import gc, django; from config.celery import app; django.setup(); "
        "from celery import signals; before = gc.get_freeze_count(); "
        "signals.worker_process_init.send(sender=None); "
        "print(before, gc.get_freeze_count() > 50_000)"
    )
    assert _probe(probe) == "0 True"
