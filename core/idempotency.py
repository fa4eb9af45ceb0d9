"""Idempotent writes: the Idempotency-Key header (IETF draft) on every write.

A write (POST, PUT, PATCH, DELETE) to the API or to a table's phone page (an evening's
table's, `/t/`; a progressive tournament's table's, `/p/`), or to a progressive's table
scored by its director (`/secretary/tournaments/`, sent by the same queue) that carries an
`Idempotency-Key` header is done at most once per key for the same caller:

- a retry with the same key, the same body and the same query string gets the stored
  answer again (`Idempotent-Replayed: true`, and `Cache-Control: no-store`);
- the same key with a different body or query string gets 422;
- a retry while the first request is still running gets 409 (retry later);
- an answer of 5xx, or one that says to retry later (`Retry-After`: a row lock not
  granted in time, core/db.py), is not stored, so the request may be tried again;
- nor is a refusal made before anything was done (`NOT_LET_IN`: not let in, no such
  address or method; a redirect to log in): a retry gets the same answer from the view,
  and otherwise anyone, logged in or not, could have a row stored for a day per request
  (the throttles run in the views such requests never reach);
- a write past its rate claims no record at all: its throttles are asked first
  (settings IDEMPOTENCY_RATE_CHECK), and the view answers its 429;
- nor is a login (`SECRET_PATHS`) or a request that stores nothing (`NOTHING_KEPT_PATHS`:
  a scoresheet scored), which is simply done again;
- a stored refusal (4xx), which did nothing, is kept only `REFUSALS_KEPT_FOR` (ten
  minutes), for a retry whose answer was lost; an answer that did something (2xx, a
  redirect) a day (`KEEP_FOR`): `purge_expired`.

The record is written before the request runs, in its own committed statement, so two
requests racing with one key cannot both run: the unique constraint lets one in. Its
two writes do not wait for the disk (see `_CLAIMED`, below).
"""

import functools
import hashlib
import json
from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.db.models import Q
from django.http import HttpResponse
from django.shortcuts import resolve_url
from django.utils import timezone

from core import compiled
from core.text import too_long

HEADER = "HTTP_IDEMPOTENCY_KEY"
WRITES = {"POST", "PUT", "PATCH", "DELETE"}
# The API, the tables' phones (an evening's, a progressive's) and the progressive's
# tables scored by its director, whose page sends its deals through the phone's queue
# (templates/tournaments/table.html); a request without the header is never recorded.
PREFIXES = ("/api/", "/t/", "/p/", "/secretary/tournaments/")
# Never stored: a login's answer holds the caller's token, and its body the password (the
# record would keep both, the password's digest unsalted, for a day). A login is safe to
# send again: it answers the same token.
SECRET_PATHS = ("/api/v1/auth/",)
# Never stored: a write that stores nothing (a scoresheet scored, not kept) is done again
# when sent again, with the same answer; and anyone may send it, so its answers (160 kB for
# a sitting of 500 deals) kept a day a key were gigabytes a day an address could have
# written (tests/test_attack3_idempotency.py).
NOTHING_KEPT_PATHS = ("/api/v1/scoresheets/",)
# Answers to a request refused before anything was done: not kept (see above).
NOT_LET_IN = {401, 403, 404, 405}
STALE_AFTER = timedelta(minutes=2)  # a request that died mid-way frees its key after this
KEEP_FOR = timedelta(hours=24)
# A refusal's answer (4xx: nothing was done) is kept this long only. Sent again, the view
# refuses it again, so its record buys nothing but the retry of a phone whose answer was
# lost on the way (its queue's next try a few seconds on, a phone back in reach a few
# minutes on: static/js/phone-queue.js), which it answers with the words the table saw
# first. Kept a day, each refusal's page (some 11 kB) for every key a table's link sent,
# up to THROTTLE_ANON a minute, was some 9 GB a day from one link. A retry later than
# this is judged afresh on the table as it then is: a refusal changed nothing, so nothing
# is done twice (a hand's expected number refuses a second recording).
REFUSALS_KEPT_FOR = timedelta(minutes=10)


def _to_log_in(response) -> bool:
    """Whether `response` sends its caller to log in (login_required's redirect): a refusal
    made before anything was done, as a 401 is. The secretary's pages that take a key
    (`/secretary/tournaments/`) count only a logged-in caller's posts, and this answer to
    anyone's post was kept a day, a row a key (tests/test_attack3_idempotency.py)."""
    if response.status_code not in (301, 302, 303, 307, 308):
        return False
    return response.get("Location", "").startswith(resolve_url(settings.LOGIN_URL))


def _problem(status: int, code: str, message: str) -> HttpResponse:
    body = {"error": {"code": code, "message": message, "field": "Idempotency-Key", "law": None,
                      "details": {}}}  # fmt: skip
    return HttpResponse(json.dumps(body), status=status, content_type="application/json")


def purge_expired() -> int:
    """Forget answers older than a day (KEEP_FOR), and refusals (4xx) older than
    REFUSALS_KEPT_FOR: run by Celery beat every few minutes (settings' `idempotency-purge`),
    not on every write. Both by the records' index on when they were made."""
    from core.models import IdempotencyRecord

    now = timezone.now()
    expired = Q(created_at__lt=now - KEEP_FOR) | Q(
        created_at__lt=now - REFUSALS_KEPT_FOR, status__gte=400
    )
    deleted, _ = IdempotencyRecord.objects.filter(expired).delete()
    return deleted


def _recordable(path: str) -> bool:
    """Whether a record can hold the request's path: as long as its column and without NUL
    (`/api/%00/` or a path of thousands of characters, which name no row)."""
    from core.models import IdempotencyRecord

    return len(path) <= IdempotencyRecord._meta.get_field("path").max_length and "\x00" not in path


def _fingerprint(request) -> str:
    """A hash of what the request asks beyond its scope: its body, and its query string
    when it has one (a rubber's `hands/` still reads a deprecated `?expected_number=`, so
    another query string is another request). Kept out of the scope, so the same key
    with another query string finds the first record and is refused, never run anew; a
    request without one hashes its body alone, as records stored before did."""
    digest = hashlib.sha256(request.body)
    query = request.META.get("QUERY_STRING", "")
    if query:
        digest.update(b"\0?" + query.encode())
    return digest.hexdigest()


def _principal(request) -> str:
    """A hash of who asks: the `Authorization` header and the session cookie, both. The
    API reads a header only in its own schemes (Token, Table) and knows a caller by his
    session otherwise, so a header in another (`Bearer`, `Basic`: a client library's
    default, the same for everyone sending it) named no one: taken alone, it let another
    caller sending it with the same key be answered with the first one's stored answer
    (tests/test_attack_idempotency.py). Either alone hashes as it did before."""
    from django.conf import settings

    header = request.META.get("HTTP_AUTHORIZATION") or ""
    session = request.COOKIES.get(settings.SESSION_COOKIE_NAME) or ""
    who = f"{header}\0{session}" if header and session else header or session or "anon"
    return hashlib.sha256(who.encode()).hexdigest()


# The record's two writes commit without waiting for the disk on PostgreSQL
# (`synchronous_commit` off for their own transaction, set in the statement's RETURNING,
# so only for a row written: core.compiled's NO_WAIT): PostgreSQL flushes its log in
# order, so a request whose own writes are on disk has its claim there too, and a claim
# or answer lost in a crash belongs to a request that wrote nothing durable after it,
# or its answer is lost as when a process dies between its commit and the answer (a
# retry then finds the record running, and after STALE_AFTER runs again: a hand's
# expected number refuses it twice). Each saves a wait for the disk and its CPU
# (BENCHMARKS.md).
_CLAIMED = ("key", "principal", "method", "path", "fingerprint", "state", "content_type", "body",
            "created_at")  # fmt: skip


@functools.cache
def _claim_sql(vendor: str) -> str:
    """The claim: insert the running record, or nothing when the key's record exists,
    built once a database vendor. `INSERT ... ON CONFLICT DO NOTHING RETURNING` works on
    PostgreSQL and SQLite alike."""
    from core.models import IdempotencyRecord

    meta = IdempotencyRecord._meta
    quote = connection.ops.quote_name
    no_wait = f", {compiled.NO_WAIT}" if vendor == "postgresql" else ""
    return (
        f"INSERT INTO {quote(meta.db_table)} "
        f"({', '.join(quote(meta.get_field(f).column) for f in _CLAIMED)}) "
        f"VALUES ({', '.join(['%s'] * len(_CLAIMED))}) ON CONFLICT DO NOTHING "
        f"RETURNING {quote(meta.pk.column)}{no_wait}"
    )


def _insert_running(scope: dict, fingerprint: str, now) -> int | None:
    """The running record's id, inserted in one statement of its own (committed at once,
    so a second request with the key sees it); None when the key's record exists."""
    from core.models import IdempotencyRecord

    values = {**scope, "fingerprint": fingerprint, "state": IdempotencyRecord.State.RUNNING.value,
              "content_type": "", "body": b"", "created_at": now}  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(_claim_sql(connection.vendor), [values[f] for f in _CLAIMED])
        row = cursor.fetchone()
    return None if row is None else row[0]


def _answer(pk: int, response) -> None:
    """Store the answer on the request's record (a record purged meanwhile is simply not
    written: the answer stands)."""
    from core.models import IdempotencyRecord

    record = IdempotencyRecord(
        pk=pk, state=IdempotencyRecord.State.DONE, status=response.status_code,
        content_type=response.get("Content-Type", ""), body=response.content,
    )  # fmt: skip
    fields = ["state", "status", "content_type", "body"]
    compiled.update(record, fields, missing_ok=True, wait_for_disk=False)


@functools.cache
def _rate_check():
    from django.conf import settings
    from django.utils.module_loading import import_string

    path = getattr(settings, "IDEMPOTENCY_RATE_CHECK", "")
    return import_string(path) if path else None


def _past_its_rate(request) -> bool:
    """Whether the request's throttles refuse it (settings IDEMPOTENCY_RATE_CHECK, which
    counts it once, before the claim): a throttled write claims no record."""
    check = _rate_check()
    return bool(check and check(request))


class IdempotencyMiddleware:
    """Replays stored answers for repeated Idempotency-Keys (see the module's docstring)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        key = request.META.get(HEADER)
        if (
            not key
            or request.method not in WRITES
            or not request.path.startswith(PREFIXES)
            or request.path.startswith(SECRET_PATHS)
            or request.path.startswith(NOTHING_KEPT_PATHS)
        ):
            return self.get_response(request)
        from core.models import IdempotencyRecord

        if len(key) > 255:
            words = too_long("The Idempotency-Key header", 255, len(key))
            return _problem(400, "too_long", words)
        if not key.isprintable():
            # A NUL in it, which PostgreSQL's text cannot hold, was a 500.
            return _problem(
                400, "invalid", "An Idempotency-Key is printable text, without control characters."
            )
        if not _recordable(request.path):
            # No row has such an address (the view answers 404): nothing to record, and
            # the record could not hold it (a 500 on PostgreSQL).
            return self.get_response(request)
        if _past_its_rate(request):  # refused by the view in its words: nothing to keep
            return self.get_response(request)
        scope = {
            "key": key,
            "principal": _principal(request),
            "method": request.method,
            "path": request.path,
        }
        fingerprint = _fingerprint(request)
        record = self._claim(IdempotencyRecord, scope, fingerprint)
        if isinstance(record, HttpResponse):
            return record
        response = self.get_response(request)
        if (
            response.status_code >= 500
            or response.status_code in NOT_LET_IN
            or _to_log_in(response)
            or response.has_header("Retry-After")
            or getattr(response, "streaming", False)
        ):
            IdempotencyRecord.objects.filter(pk=record).delete()
            return response
        if hasattr(response, "render") and not getattr(response, "is_rendered", True):
            response.render()
        _answer(record, response)
        return response

    def _claim(self, model, scope: dict, fingerprint: str) -> int | HttpResponse:
        """Insert the running record (its id), or answer from the one already there."""
        now = timezone.now()
        record = _insert_running(scope, fingerprint, now)
        if record is not None:
            return record
        existing = model.objects.filter(**scope).first()
        if existing is None:  # it was deleted (a 5xx) between our insert and this read
            return model.objects.create(**scope, fingerprint=fingerprint).pk
        if existing.fingerprint != fingerprint:
            return _problem(
                422, "idempotency_key_reused",
                "This Idempotency-Key was used with a different request (another body or "
                "query string).",
            )  # fmt: skip
        if existing.state == model.State.RUNNING:
            if existing.created_at < now - STALE_AFTER:
                existing.created_at = now
                existing.save(update_fields=["created_at"])
                return existing.pk
            response = _problem(
                409, "idempotency_key_in_use",
                "A request with this Idempotency-Key is still being processed; retry shortly.",
            )  # fmt: skip
            response["Retry-After"] = "1"
            return response
        response = HttpResponse(
            bytes(existing.body), status=existing.status, content_type=existing.content_type
        )
        response["Idempotent-Replayed"] = "true"
        # The answer's own headers are not kept, and one may hold a bearer secret (a
        # table's fresh link, sent `no-store`): a replay is kept in no cache at all.
        response["Cache-Control"] = "no-store, private"
        return response
