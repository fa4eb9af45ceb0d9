"""WSGI entry point: `gunicorn config.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

from config import collector

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()


def _load_urlconf() -> None:
    """Import the URLconf, and with it every view, serializer and the API's schema, now,
    as the worker starts: Django does it on a worker's first request, which then waits
    about a tenth of a second (a hand sent from a table's phone, after each deploy or
    worker restart)."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018  (the property imports the modules)


_load_urlconf()
collector.settle()  # all of the above lives as long as the worker (config/collector.py)
