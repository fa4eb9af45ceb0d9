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

The cores counted are the ones this process may use (`config.cores.usable_cores`), not the host's: a
container given two CPUs of a 64-core host runs four workers, not 128 (each holding its
own PostgreSQL connection).

Any of them may be changed without editing this file: `WEB_CONCURRENCY` sets the number
of workers, and `GUNICORN_CMD_ARGS` or the command line any setting (`--threads 4`).
"""

import os

from config.cores import usable_cores

worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY") or 2 * usable_cores())
threads = 2
