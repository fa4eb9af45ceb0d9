"""The address the phones at the tables reach the service at, and the LAN address a laptop
serves them on (`manage.py quickstart --lan`).

A table's phone link (`/t/<token>/`; a progressive tournament's table's, `/p/<token>/`) and
its QR code must carry an address a phone can open. The secretary's board (or the director's
page) is often opened at 127.0.0.1 on the laptop that serves it, an address that on a phone
means the phone itself: so links and codes use `settings.PUBLIC_BASE_URL` when it is set
(quickstart --lan sets it to the laptop's LAN address), and the page says so when it is
opened at a loopback address that no phone can reach.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass

import segno
from django.conf import settings
from django.urls import reverse

# A private address to "connect" a UDP socket to: connect() on UDP sends no packet, it only
# asks the kernel which of this machine's addresses its route would leave from.
_PROBE = ("10.254.254.254", 9)


def host_part(host: str) -> str:
    """The host of a `host[:port]` (IPv6 in brackets), without the port, lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host[1:]
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host


def is_loopback(host: str) -> bool:
    """Whether `host[:port]` names this machine only (127.0.0.0/8, ::1, localhost)."""
    name = host_part(host)
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def url_host(address: str) -> str:
    """An IP address as it stands in a URL (an IPv6 address in brackets)."""
    return f"[{address}]" if ":" in address else address


def lan_address() -> str | None:
    """This machine's address on its local network, or None when it has none.

    Found without sending anything: a UDP socket "connected" to a private address is given
    the source address its route would use, and no packet leaves. None when there is no
    route (no network) or the route is the loopback.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_PROBE)
            address = probe.getsockname()[0]
    except OSError:
        return None
    if ipaddress.ip_address(address).is_loopback or address == "0.0.0.0":
        return None
    return address


def phone_base_url(request) -> str:
    """The scheme and host a phone opens the tables' links at: PUBLIC_BASE_URL when set,
    else the address this page was opened at."""
    return settings.PUBLIC_BASE_URL or f"{request.scheme}://{request.get_host()}"


def phone_url(request, page: str, token: str) -> str:
    """A phone link whole, at the address phones open (`phone_base_url`): the page named
    `page` ("table-phone"; a progressive's table, "tournament-phone") of the link `token`."""
    return phone_base_url(request) + reverse(page, args=[token])


def table_link(request, table) -> str:
    """A table's phone link, whole, as printed on its card and encoded in its QR code."""
    return phone_url(request, "table-phone", table.token)


def qr_svg(link: str, *, scale: int = 5) -> str:
    """The QR code of a link as an inline SVG element that scales to its box (a viewBox, no
    fixed size), titled with the link."""
    return segno.make(link, error="m").svg_inline(
        scale=scale, border=2, svgclass="qr", omitsize=True, title=link
    )


@dataclass(frozen=True)
class Reach:
    """What the board says about the address phones reach: `opened_at` is the page's host;
    `base` the address the links and codes carry; `reachable` False when that is a loopback
    address no phone can open."""

    opened_at: str
    base: str
    reachable: bool


def board_reach(request) -> Reach | None:
    """The board's warning, or None when the page was opened at an address phones can use
    too (then the links and codes carry it, or PUBLIC_BASE_URL)."""
    host = request.get_host()
    if not is_loopback(host):
        return None
    base = phone_base_url(request)
    return Reach(opened_at=host, base=base, reachable=not is_loopback(base.split("://", 1)[1]))
