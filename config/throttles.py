"""DRF's throttles, counting per client address as config/clientaddr.py finds it (a
table's phone per its table's link), and with Redis in one round trip (`rate_log`), where
DRF's own read its count and wrote it back (two round trips on every request, a recorded
hand's among them).

Kept apart from config.api: DRF reads DEFAULT_THROTTLE_CLASSES while its views module
is being imported, which config.api itself imports.
"""

import hashlib
import logging
import re
import uuid
from dataclasses import dataclass

from django.core.cache import caches
from django_redis.cache import RedisCache
from rest_framework import throttling

from config.clientaddr import counted_address

logger = logging.getLogger(__name__)


class _ClientAddress:
    """Throttles count per client address as config/clientaddr.py finds it (behind
    TRUSTED_PROXY_COUNT proxies), never per a caller-written X-Forwarded-For; an IPv6
    address as its /64 (`counted_address`)."""

    def get_ident(self, request):
        return counted_address(request) or "unknown"


#: A table's link in a page's address: an evening's table (/t/<token>/) or a progressive's
#: (/p/<token>/).
_LINK_PATH = re.compile(r"^/[tp]/([^/]+)/")


def table_link(request) -> str | None:
    """The table's link a request is made with: the token in its page's address, or in its
    `Authorization: Table <token>` header (the API's phone), else None."""
    found = _LINK_PATH.match(request.path)
    if found:
        return found.group(1)
    words = request.META.get("HTTP_AUTHORIZATION", "").split()
    if len(words) == 2 and words[0].lower() == "table":
        return words[1]
    return None


def _link_ident(token: str) -> str:
    """A table link's count's name: a digest, so the cache's keys never hold the link."""
    return "link-" + hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _counted_once(throttle, request) -> bool | None:
    """The verdict the request had already from a throttle of this window (its cache key),
    restoring what that throttle's `wait` reads; None when not yet counted. A request is
    counted once a window however often its throttles are asked: the idempotency record
    asks them first (config.ratelimit.write_refused), and the view then asks again."""
    verdicts = getattr(getattr(request, "_request", request), "rate_verdicts", None)
    if not verdicts or throttle.key not in verdicts:
        return None
    allowed, throttle.now, throttle.history = verdicts[throttle.key]
    return allowed


def _note_verdict(throttle, request, allowed: bool) -> bool:
    plain = getattr(request, "_request", request)
    if not hasattr(plain, "rate_verdicts"):
        plain.rate_verdicts = {}
    plain.rate_verdicts[throttle.key] = (allowed, throttle.now, list(throttle.history))
    return allowed


# KEYS[1]: the window's sorted set (its members' scores: when each request came).
# ARGV: now, the window's length (seconds), the limit, this request's member.
# Returns {1, count} when the request is let through and noted, {0, count, oldest}
# when refused (not noted, as DRF notes only what it lets through).
_RATE_SCRIPT = """
local now, window, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count >= limit then
    local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
    return {0, count, oldest[2]}
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], math.ceil(window * 1000))
return {1, count + 1}
"""
_scripts: dict[int, tuple] = {}  # id(redis client) -> (the client, its registered script)


@dataclass(frozen=True)
class RateAnswer:
    """`allowed`; `count` the requests in the window (this one included when allowed);
    `oldest` when the window's oldest request came (refused answers only)."""

    allowed: bool
    count: int
    oldest: float | None = None


def rate_log(key: str, *, now: float, window: float, limit: int) -> RateAnswer | None:
    """Count a request against a sliding window of `window` seconds holding at most
    `limit` requests, in one round trip; None where the cache is not Redis (the caller
    keeps its own count) or Redis did not answer (allowed, not counted)."""
    # Its own test, not core.redisops.redis_cache: config's modules import no package of
    # the project (tests/test_architecture.py).
    backend = caches["default"]
    if not isinstance(backend, RedisCache):
        return None
    from redis.exceptions import RedisError

    client = backend.client
    try:
        redis = client.get_client(write=True)
        known = _scripts.get(id(redis))
        if known is None or known[0] is not redis:
            known = _scripts[id(redis)] = (redis, redis.register_script(_RATE_SCRIPT))
        script = known[1]
        member = f"{now!r}:{uuid.uuid4().hex[:8]}"
        answer = script(keys=[client.make_key(key)], args=[repr(now), repr(window), limit, member])
    except RedisError:
        logger.warning("cache unavailable: rate %s not counted", key, exc_info=True)
        return RateAnswer(True, 0)
    if answer[0]:
        return RateAnswer(True, int(answer[1]))
    return RateAnswer(False, int(answer[1]), float(answer[2]))


class _OneRoundTrip(throttling.SimpleRateThrottle):
    """DRF's count, with Redis in one round trip (`rate_log`: DRF's sliding window kept in a
    sorted set, where DRF reads its list of times and writes it back).
    Listed last among a throttle's bases, so that a DRF class that sets its rate in its
    own `allow_request` (ScopedRateThrottle) does so first."""

    def allow_request(self, request, view):
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        known = _counted_once(self, request)
        if known is not None:
            return known
        self.now = self.timer()
        answer = rate_log(
            f"rate:{self.key}", now=self.now, window=self.duration, limit=self.num_requests
        )
        if answer is None:  # not Redis: DRF's own count, in the cache
            return _note_verdict(self, request, super().allow_request(request, view))
        # DRF's `wait` reads the window as its list of times: how many, and the oldest.
        self.history = [] if answer.allowed else [answer.oldest] * answer.count
        return _note_verdict(self, request, answer.allowed)


class AnonRateThrottle(_ClientAddress, throttling.AnonRateThrottle, _OneRoundTrip):
    """Anonymous callers (settings: THROTTLE_ANON): a table's phone per its table's link
    (`table_link`), anyone else per address. A room's phones share one address on the
    club's Wi-Fi (one NAT), so per address one busy table's phones used up the others'
    rate. A link that opens no table is answered as a dead link (the pages) or 401 (the
    API, which checks it before any throttle), with nothing done."""

    def get_ident(self, request):
        token = table_link(request)
        return _link_ident(token) if token else super().get_ident(request)


class UserRateThrottle(_ClientAddress, throttling.UserRateThrottle, _OneRoundTrip):
    """Logged-in callers per account (THROTTLE_USER).

    Anonymous callers (a table's phone, the public) are left to AnonRateThrottle, which
    counts them per address at its lower rate: DRF's own class counts them here too, per
    the same address, which could refuse nothing the lower rate lets through and cost
    every anonymous request two more round trips to the cache.
    """

    def get_cache_key(self, request, view):
        if not (request.user and request.user.is_authenticated):
            return None  # not throttled by this class: AnonRateThrottle holds them
        return super().get_cache_key(request, view)


class ScopedRateThrottle(_ClientAddress, throttling.ScopedRateThrottle, _OneRoundTrip):
    """A view's own rate (its `throttle_scope`), per account or per address."""


class LoginRateThrottle(_ClientAddress, _OneRoundTrip):
    """Login attempts per address, on every login door (settings: THROTTLE_LOGIN).

    One count for the API's token endpoint, the login form and the admin's login, so
    moving from door to door buys nothing; counted whether or not the caller is
    already logged in.
    """

    scope = "login"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class PublicPageThrottle(_ClientAddress, _OneRoundTrip):
    """A public page rendered afresh (settings: THROTTLE_PUBLIC): a player's page, a
    standings page, an evening's results or a rubber's score sheet that no kept copy
    answered; and the API's reads of the same (a player's record, an evening's summary and
    exports, a rubber), made afresh for every caller. Per client address,
    a logged-in reader per his account (a secretary's pages are rendered for him, and on
    the club's Wi-Fi he shares the room's address). Asked only where the page is about to
    be rendered (config.ratelimit.public_render), so a copy served from a cache costs no
    round trip to Redis."""

    scope = "public"

    def get_cache_key(self, request, view):
        if request.method not in ("GET", "HEAD"):
            return None  # a write is the API's own rates' (THROTTLE_ANON, THROTTLE_USER)
        user = getattr(request, "user", None)
        # A table's phone at the API, its link checked by the authentication before any
        # throttle: per its link, as THROTTLE_ANON counts it, not in the room's address.
        # Only a link the API authenticated (`request.auth`, a table): a page reads no
        # `Authorization`, and a forged one would have bought a fresh window a request.
        link = getattr(getattr(request, "auth", None), "token", None)
        if user is not None and user.is_authenticated:
            ident = f"user-{user.pk}"
        elif isinstance(link, str):
            ident = _link_ident(link)
        else:
            ident = self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


#: The throttles of an API read made afresh for every caller (config.api's defaults, and
#: the public pages' window): what a throttled public page shows, read through the API.
PUBLIC_READ_THROTTLES = [AnonRateThrottle, UserRateThrottle, PublicPageThrottle]
