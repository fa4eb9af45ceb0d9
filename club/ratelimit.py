"""A small fixed-window rate limit for HTML form posts, kept in the cache.

The API has DRF's throttles; this guards the login form the same way. With
Redis configured the counts are shared by every gunicorn worker.
"""

import functools
import time

from django.core.cache import cache
from django.http import HttpResponse


def client_address(request) -> str:
    """The client's address (the proxy's X-Forwarded-For first hop when present)."""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    return forwarded.split(",")[0].strip() or request.META.get("REMOTE_ADDR", "unknown")


def rate_limited(*, scope: str, rate: int, per: int):
    """Allow `rate` requests per `per` seconds per client address, then answer 429."""

    def decorator(view):
        @functools.wraps(view)
        def wrapper(request, *args, **kwargs):
            window = int(time.time() // per)
            key = f"ratelimit:{scope}:{client_address(request)}:{window}"
            cache.add(key, 0, timeout=per + 1)
            try:
                count = cache.incr(key)
            except ValueError:  # evicted between add and incr: count this one as the first
                cache.set(key, 1, timeout=per + 1)
                count = 1
            if count > rate:
                response = HttpResponse(
                    "Too many attempts; wait a minute and try again.", status=429
                )
                response["Retry-After"] = str(per)
                return response
            return view(request, *args, **kwargs)

        return wrapper

    return decorator
