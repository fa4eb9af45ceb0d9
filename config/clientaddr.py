"""The client's address: the one answer every rate limit and login lockout uses.

`X-Forwarded-For` is written by whoever sends the request, so it is believed only as
far as the proxies we run: `TRUSTED_PROXY_COUNT` (an environment setting, default 0).

- 0: the service is reached directly, so the address is the connection's
  (`REMOTE_ADDR`); any `X-Forwarded-For` is the caller's invention and ignored.
- N: N proxies of ours stand in front (a load balancer, nginx). Each appends the
  address it was connected from, so the client is the Nth entry counted from the
  right; whatever lies further left came from the caller and is ignored.

What is counted (`counted_address`, for every rate and lockout) is the address, but for
IPv6 its /64: a provider gives each connection a whole /64 network, and its owner picks
any of its 2^64 addresses for each request, so counted per full address an IPv6 caller
at home had a fresh window (and fresh tries at every password) each time. An IPv4 address,
or one mapped into IPv6, counts as itself.

django-ipware reads the chain. It counts only the proxies whose addresses appear in
the header; the last proxy appears only as `REMOTE_ADDR`, hence `N - 1` below.
"""

import ipaddress

from django.conf import settings
from ipware import get_client_ip


def client_address(request) -> str | None:
    """The address of the client behind our `TRUSTED_PROXY_COUNT` proxies, or None
    when the request carries none (a request built in code)."""
    remote = request.META.get("REMOTE_ADDR") or None
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies <= 0:
        return remote
    address, _routable = get_client_ip(
        request,
        proxy_order="left-most",
        proxy_count=proxies - 1,
        request_header_order=("HTTP_X_FORWARDED_FOR",),
        # Not strict: a caller may prepend entries of his own; they lie to the left of
        # those our proxies added and are never read.
        strict=False,
    )
    # No usable header although proxies were promised: the nearest proxy's address is
    # the only one not written by the caller.
    return address or remote


def counted_address(request) -> str | None:
    """The client's address as every rate and lockout counts it (config.throttles,
    django-axes' AXES_CLIENT_IP_CALLABLE): `client_address`, an IPv6 one cut to its /64
    network ("2001:db8:1:2::"), one mapped from IPv4 ("::ffff:198.51.100.7") as the IPv4
    address; anything else as it came."""
    address = client_address(request)
    if not address or ":" not in address:
        return address
    try:
        ip = ipaddress.IPv6Address(address.split("%", 1)[0])  # without a zone ("%eth0")
    except ValueError:
        return address
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Address(int(ip) >> 64 << 64))
