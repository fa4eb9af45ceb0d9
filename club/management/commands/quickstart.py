"""`manage.py quickstart`: migrate, load the demo club, print the addresses, serve.

It prints only what the secretary needs (the addresses and the login). With `--lan` it
serves on every interface, so the phones at the tables can reach it over the club's
network: the laptop's address on that network is added to ALLOWED_HOSTS, becomes the
address the tables' links and QR codes carry (unless PUBLIC_BASE_URL is set), and is the
one printed.

The demo's secretary (a superuser) logs in with the password the README publishes. That is
no secret from anyone on the club's network, so before it is served there (`--lan`, or
any address but this machine's) a secretary still on that password is given a fresh
random one, printed instead (`login_password`).
"""

import copy
import io
import ipaddress
import logging
import re

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.core.management.commands.runserver import naiveip_re

from club import phone_links
from club.management.commands.load_demo import DEMO_PASSWORD
from club.models import Evening
from club.phone_links import is_loopback, url_host
from core.idempotency import purge_expired
from tournaments.models import Tournament

DEFAULT_PORT = "8000"
EVERY_INTERFACE = {"0.0.0.0", "::"}
# Quiet while serving: errors only, not a line per page served (the board polls) or per
# task run; kombu's "no hostname" warning means only that Redis is not used.
QUIET_LOGGERS = {
    "django.server": "ERROR",
    "django.request": "ERROR",  # a 404 is no news to the secretary
    "celery": "WARNING",
    "kombu": "ERROR",
    "axes": "WARNING",  # a login is no news; a wrong password or a lockout still is
}


def quiet_logging(config: dict) -> dict:
    """The LOGGING setting with QUIET_LOGGERS' levels (errors still reach the console)."""
    config = copy.deepcopy(config)
    loggers = config.setdefault("loggers", {})
    for name, level in QUIET_LOGGERS.items():
        loggers[name] = {**loggers.get(name, {}), "level": level}
    return config


def parse_addrport(addrport: str) -> tuple[str | None, str]:
    """(host or None, port) of runserver's `[host:]port`, IPv6 hosts in brackets."""
    match = re.match(naiveip_re, addrport)
    if match is None or not match["port"].isdigit():
        raise CommandError(
            f"{addrport!r} is not an address to serve on: give a port (8000) or host:port "
            "(127.0.0.1:8000)."
        )
    host = match["addr"] or None
    if host and host.startswith("["):
        host = host[1:-1]
    return host, match["port"]


def open_to_lan(address: str, port: str) -> str:
    """Let the phones on the local network in: accept `address` as a host name of this
    service and, unless PUBLIC_BASE_URL is set, make it the base of the tables' links.
    Returns the base URL of the service at that address."""
    base = f"http://{url_host(address)}:{port}"
    allowed = url_host(address)  # Django compares an IPv6 host with its brackets
    if "*" not in settings.ALLOWED_HOSTS and allowed not in settings.ALLOWED_HOSTS:
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, allowed]
    if not settings.PUBLIC_BASE_URL:
        settings.PUBLIC_BASE_URL = base
    return base


def serve_to_network() -> None:
    """Served beyond this machine, the service shows no one Django's debugging pages (a
    failure's traceback, its code and its variables, or every address of the site under a
    404): DEBUG is off, and WhiteNoise serves the static files from where they lie, as
    DEBUG did (there is no collectstatic on a laptop). Its pages carry the production's
    Content-Security-Policy (config/security.py): only the service's own scripts, and no
    other site's frame."""
    settings.DEBUG = False
    settings.WHITENOISE_USE_FINDERS = True
    settings.CSP_ENABLED = True


def login_password(*, private: bool) -> str | None:
    """The demo secretary's password, to print: the published one while he still has it,
    or (`private`: the service is opened to the network) a fresh random one in its place.
    None when he has a password of his own: it is kept, and not known here."""
    from django.contrib.auth import get_user_model
    from django.utils.crypto import get_random_string

    user = get_user_model().objects.filter(username="secretary").first()
    if user is None or not user.check_password(DEMO_PASSWORD):
        return None
    if not private:
        return DEMO_PASSWORD
    password = get_random_string(12, "abcdefghjkmnpqrstuvwxyz23456789")  # easy to type
    user.set_password(password)
    user.save(update_fields=["password"])
    return password


def checked_lan_address(given: str | None, *, option: str) -> str:
    """The LAN address to serve the phones at: the one given (as `option`), checked, or
    this machine's."""
    if given is None:
        found = phone_links.lan_address()
        if found is None:
            raise CommandError(
                "--lan: this computer has no address on a network (is it on the club's "
                "Wi-Fi?). Connect it, or give the address with --lan-address."
            )
        return found
    try:
        address = ipaddress.ip_address(given.strip("[]"))
    except ValueError as exc:
        raise CommandError(f"{option}: {given!r} is not an IP address (e.g. 192.168.1.5).") from exc
    if address.is_loopback or address.is_unspecified:
        raise CommandError(
            f"{option}: {given} is not an address phones can reach; give this "
            "computer's address on the club's network (e.g. 192.168.1.5)."
        )
    return str(address)


class Command(BaseCommand):
    help = (
        "Set up the database, load the demo club and serve the site (the README's first "
        "command). --lan serves the phones at the tables over the local network."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "addrport",
            nargs="?",
            default=None,
            help="[host:]port to serve on (default 127.0.0.1:8000; with --lan, 0.0.0.0:8000)",
        )
        parser.add_argument(
            "--lan",
            action="store_true",
            help="serve on every interface so phones on this network can reach it",
        )
        parser.add_argument(
            "--lan-address",
            default=None,
            help="this computer's address on the network (found by itself when not given)",
        )
        parser.add_argument(
            "--no-serve", action="store_true", help="set up and print, but do not serve"
        )

    def handle(self, *args, addrport, lan, lan_address, no_serve, **options):
        host, port = parse_addrport(addrport or DEFAULT_PORT)
        lan = lan or lan_address is not None
        if host is None:
            host = "0.0.0.0" if lan else "127.0.0.1"
        if host in EVERY_INTERFACE:
            address = checked_lan_address(lan_address, option="--lan-address")
        elif is_loopback(host):
            if lan:
                raise CommandError(
                    f"--lan serves on every interface, not on {host}: give only a port."
                )
            address = None
        else:  # one address of this machine, given: the phones use it
            address = checked_lan_address(host, option="addrport")
        base = open_to_lan(address, port) if address else f"http://{url_host(host)}:{port}"

        quiet = options["verbosity"] < 2
        if quiet:  # the secretary reads the addresses, not every task run or page served
            for name, level in QUIET_LOGGERS.items():
                logging.getLogger(name).setLevel(level)
        call_command("migrate", interactive=False, verbosity=0)
        # No Celery beat runs on a laptop (tasks run in this process): the phones'
        # Idempotency-Keys' records past their day are forgotten here, each start, as
        # production's beat forgets them every few minutes (settings' idempotency-purge).
        purge_expired()
        call_command(
            "load_demo",
            verbosity=options["verbosity"],
            **({"stdout": io.StringIO()} if quiet else {}),  # "loaded already" is no news
        )
        # Served beyond this machine: the published demo password would let anyone on the
        # network in as the secretary (a superuser).
        password = login_password(private=address is not None)
        self.stdout.write(
            self.addresses(base, lan=address is not None, password=password, serving=not no_serve)
        )
        if not no_serve:
            if address is not None:
                serve_to_network()
            if quiet:  # runserver's WSGI application sets logging up again from settings
                settings.LOGGING = quiet_logging(settings.LOGGING)
            call_command(
                "runserver",
                f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
                use_reloader=False,
                skip_checks=True,  # migrate has run them
                **({"stdout": io.StringIO()} if quiet else {}),  # its banner names 0.0.0.0
            )

    def addresses(self, base: str, *, lan: bool, password: str | None, serving: bool) -> str:
        """What the secretary needs: where to go, and how to log in (`password`: None when
        his own was kept); how to stop it only when it goes on serving (not --no-serve)."""
        evening = Evening.objects.filter(club__slug="somerset", title="Demo evening").first()
        lines = [
            self.style.SUCCESS("The card club service is ready."),
            "",
            f"  Secretary's pages:  {base}/secretary/",
            "  Log in as:          secretary   password: "
            + (password or "his own (manage.py changepassword secretary sets another)"),
        ]
        if evening:
            lines += [
                f"  The demo evening:   {base}/secretary/evenings/{evening.pk}/",
                f"  Its table cards:    {base}/secretary/evenings/{evening.pk}/table-cards/",
            ]
        progressive = Tournament.objects.filter(club__slug="somerset", slug="thanksgiving").first()
        if progressive:
            lines.append(f"  A progressive:      {base}/secretary/tournaments/{progressive.pk}/")
        lines += [f"  Live standings:     {base}/clubs/somerset/tournaments/winter/", ""]
        if lan:
            lines.append(
                "Phones on the same network open these addresses too (the QR codes carry them)."
            )
        else:
            lines.append(
                "Phones cannot reach this computer at this address: for phones at the tables,\n"
                "start it with  python manage.py quickstart --lan"
            )
        if serving:
            lines.append("Stop with Ctrl-C.")
        return "\n".join(lines) + "\n"
