"""Python's garbage collector in the service's long-lived processes (gunicorn's workers,
Celery's), settled once each has started.

A process that has started holds a few hundred thousand objects it will keep until it
exits: Django's settings, every module, the URLconf, the API's schema. Python's
collector walks all of them in each collection of its oldest generation, which the
garbage of requests sets off every so often; the walk holds the interpreter's lock for
tens of milliseconds, so each request of that worker, and the other requests its
threads hold, waits behind it. Freezing what start-up made (`gc.freeze`) takes those
objects out of every collection: the collector walks only what the requests made.

Measured by `bench/run.py`'s page step on one machine (wrk, 16 connections, 30 s;
three runs before and three after, BENCHMARKS.md, 26 November): the 99th percentile of
the trivial view 39-70 ms to 12-19 ms, of the cached standings page 24-114 ms to 13-19
ms, the throughput unchanged. Raising the youngest generation's threshold as well (700 to
50,000) saved 0.2 ms of Python a hand in process but nothing under the load, and was
not kept.
"""

import gc


def settle() -> None:
    """Take what the process has made so far out of the collector's generations: call
    once its start-up imports are done (config/wsgi.py, config/celery.py)."""
    gc.collect()  # what start-up left as garbage is freed, not frozen with the rest
    gc.freeze()
