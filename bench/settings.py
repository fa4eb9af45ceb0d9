"""Settings for the benchmark's gunicorn and Celery worker: the service's own settings,
with a URLconf that adds one trivial view to compare the public pages against."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
