"""The WSGI application loads the URLconf as the worker starts, not on its first request."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_importing_the_wsgi_application_loads_the_urlconf_and_its_views():
    probe = (
        "import sys; import config.wsgi; "
        "print(all(m in sys.modules for m in ('config.urls', 'scoring.api', 'club.views')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert result.stdout.strip() == "True", result.stderr
