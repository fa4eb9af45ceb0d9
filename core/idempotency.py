"""Idempotent writes: the Idempotency-Key header (IETF draft) on every write.

A write (POST, PUT, PATCH, DELETE) to the API or to a table's phone page that carries
an `Idempotency-Key` header is done at most once per key for the same caller:

- a retry with the same key and the same body gets the stored answer again
  (`Idempotent-Replayed: true`);
- the same key with a different body gets 422;
- a retry while the first request is still running gets 409 (retry later);
- an answer of 5xx, or one that says to retry later (`Retry-After`: a row lock not
  granted in time, core/db.py), is not stored, so the request may be tried again.

The record is written before the request runs, in its own committed statement, so two
requests racing with one key cannot both run: the unique constraint lets one in.
"""

import hashlib
import json
from datetime import timedelta

from django.db import connection
from django.http import HttpResponse
from django.utils import timezone

from core import compiled

HEADER = "HTTP_IDEMPOTENCY_KEY"
WRITES = {"POST", "PUT", "PATCH", "DELETE"}
PREFIXES = ("/api/", "/t/")
STALE_AFTER = timedelta(minutes=2)  # a request that died mid-way frees its key after this
KEEP_FOR = timedelta(hours=24)


def _problem(status: int, code: str, message: str) -> HttpResponse:
    body = {"error": {"code": code, "message": message, "field": "Idempotency-Key", "law": None,
                      "details": {}}}  # fmt: skip
    return HttpResponse(json.dumps(body), status=status, content_type="application/json")


def purge_expired() -> int:
    """Forget answers older than a day (run by Celery beat, not on every write)."""
    from core.models import IdempotencyRecord

    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=timezone.now() - KEEP_FOR).delete()
    return deleted


def _principal(request) -> str:
    who = request.META.get("HTTP_AUTHORIZATION") or request.COOKIES.get("sessionid") or "anon"
    return hashlib.sha256(who.encode()).hexdigest()


def _insert_running(model, scope: dict, fingerprint: str, now):
    """The running record, inserted in one statement of its own (committed at once, so a
    second request with the key sees it); None when the key's record exists already.
    `INSERT ... ON CONFLICT DO NOTHING RETURNING`: PostgreSQL and SQLite alike."""
    record = model(**scope, fingerprint=fingerprint, created_at=now)
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    values = [f.get_db_prep_save(getattr(record, f.attname), connection) for f in fields]
    sql = (
        f"INSERT INTO {quote(model._meta.db_table)} ({columns}) "
        f"VALUES ({', '.join(['%s'] * len(fields))}) ON CONFLICT DO NOTHING "
        f"RETURNING {quote(model._meta.pk.column)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        row = cursor.fetchone()
    if row is None:
        return None
    record.pk = row[0]
    record._state.adding = False
    return record


class IdempotencyMiddleware:
    """Replays stored answers for repeated Idempotency-Keys (see the module's docstring)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        key = request.META.get(HEADER)
        if not key or request.method not in WRITES or not request.path.startswith(PREFIXES):
            return self.get_response(request)
        from core.models import IdempotencyRecord

        if len(key) > 255:
            return _problem(400, "invalid", "An Idempotency-Key is at most 255 characters.")
        scope = {
            "key": key,
            "principal": _principal(request),
            "method": request.method,
            "path": request.path,
        }
        fingerprint = hashlib.sha256(request.body).hexdigest()
        record = self._claim(IdempotencyRecord, scope, fingerprint)
        if isinstance(record, HttpResponse):
            return record
        response = self.get_response(request)
        if (
            response.status_code >= 500
            or response.has_header("Retry-After")
            or getattr(response, "streaming", False)
        ):
            record.delete()
            return response
        if hasattr(response, "render") and not getattr(response, "is_rendered", True):
            response.render()
        record.state = IdempotencyRecord.State.DONE
        record.status = response.status_code
        record.content_type = response.get("Content-Type", "")
        record.body = response.content
        # A record purged meanwhile is simply not written (the answer stands).
        fields = ["state", "status", "content_type", "body"]
        compiled.update(record, fields, missing_ok=True)
        return response

    def _claim(self, model, scope: dict, fingerprint: str):
        """Insert the running record, or answer from the one already there."""
        now = timezone.now()
        record = _insert_running(model, scope, fingerprint, now)
        if record is not None:
            return record
        existing = model.objects.filter(**scope).first()
        if existing is None:  # it was deleted (a 5xx) between our insert and this read
            return model.objects.create(**scope, fingerprint=fingerprint)
        if existing.fingerprint != fingerprint:
            return _problem(
                422, "idempotency_key_reused",
                "This Idempotency-Key was used with a different request body.",
            )  # fmt: skip
        if existing.state == model.State.RUNNING:
            if existing.created_at < now - STALE_AFTER:
                existing.created_at = now
                existing.save(update_fields=["created_at"])
                return existing
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
        return response
