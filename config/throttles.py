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
    """Logged-in callers per account, anonymous ones per address (THROTTLE_USER)."""


class LoginRateThrottle(_ClientAddress, throttling.SimpleRateThrottle):
    """Login attempts per address, on every login door (settings: THROTTLE_LOGIN).

    One count for the API's token endpoint, the login form and the admin's login, so
    moving from door to door buys nothing; counted whether or not the caller is
    already logged in.
    """

    scope = "login"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
