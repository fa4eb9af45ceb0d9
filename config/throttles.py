"""DRF's throttles, counting per client address as config/clientaddr.py finds it.

Kept apart from config.api: DRF reads DEFAULT_THROTTLE_CLASSES while its views module
is being imported, which config.api itself imports.
"""

from rest_framework import throttling

from config.clientaddr import client_address


class _ClientAddress:
    """Throttles count per client address as config/clientaddr.py finds it (behind
    TRUSTED_PROXY_COUNT proxies), never per a caller-written X-Forwarded-For."""

    def get_ident(self, request):
        return client_address(request) or "unknown"


class AnonRateThrottle(_ClientAddress, throttling.AnonRateThrottle):
    """Anonymous callers, per address (settings: THROTTLE_ANON)."""


class UserRateThrottle(_ClientAddress, throttling.UserRateThrottle):
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


class ScopedRateThrottle(_ClientAddress, throttling.ScopedRateThrottle):
    """A view's own rate (its `throttle_scope`), per account or per address."""


class LoginRateThrottle(_ClientAddress, throttling.SimpleRateThrottle):
    """Login attempts per address, on every login door (settings: THROTTLE_LOGIN).

    One count for the API's token endpoint, the login form and the admin's login, so
    moving from door to door buys nothing; counted whether or not the caller is
    already logged in.
    """

    scope = "login"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
