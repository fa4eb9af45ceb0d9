"""/healthz: is the database answering, is the broker reachable, when did a worker last run.

The load balancer reads the status code: 503 when the database is down (nothing
works without it). A broker that is down is reported but answers 200: recording
still works and recalculations wait for the broker to return.

Anyone may ask, so what a failure says (its error text names hosts and the database's
user) and the worker's host name are shown to staff only; others see only what is up.
"""

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache


def _database() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return {"ok": True, "vendor": connection.vendor}
    except Exception as exc:  # any failure means "down"; the message says why
        return {"ok": False, "error": str(exc)[:200]}


def _broker() -> dict:
    if not settings.REDIS_URL:
        return {"ok": True, "mode": "eager (no broker configured; tasks run in-process)"}
    import redis

    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1
        )
        client.ping()
        return {"ok": True, "mode": "redis"}
    except redis.RedisError as exc:
        return {"ok": False, "mode": "redis", "error": str(exc)[:200]}


def _worker() -> dict:
    from core.models import WorkerHeartbeat

    try:
        beat = WorkerHeartbeat.objects.order_by("-at").values("worker", "at").first()
    except Exception:  # database down: already reported above
        return {"last_heartbeat": None}
    return {
        "last_heartbeat": beat["at"].isoformat() if beat else None,
        "worker": beat["worker"] if beat else None,
    }


#: What only staff are shown: a failure's error text and the worker's host name.
_STAFF_ONLY = ("error", "worker")


@never_cache
def healthz(request):
    """Report the database, the broker and the last worker heartbeat as JSON."""
    database = _database()
    broker = _broker()
    body = {
        "status": "ok" if database["ok"] and broker["ok"] else "degraded",
        "database": database,
        "broker": broker,
        "worker": _worker() if database["ok"] else {"last_heartbeat": None},
    }
    if not database["ok"]:
        body["status"] = "down"
    user = getattr(request, "user", None)
    if not (database["ok"] and user is not None and user.is_staff):
        for part in ("database", "broker", "worker"):
            body[part] = {k: v for k, v in body[part].items() if k not in _STAFF_ONLY}
    return JsonResponse(body, status=200 if database["ok"] else 503)
