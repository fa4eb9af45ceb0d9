"""The phones at the tables reach the service (issue #14 items 5 and 6, #15 item 9):
`quickstart --lan`, the address the tables' links and QR codes carry, the board's warning
when it is opened at a loopback address, and the printable table cards.

No test sends a packet off this machine: LAN addresses are given (192.0.2.x and 198.51.100.x
are documentation addresses), and the served quickstart is reached at 127.0.0.2.
"""

import datetime
import html
import http.client
import io
import os
import re
import socket
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from club import evenings, services
from club.models import Evening
from club.phone_links import is_loopback, lan_address, qr_svg
from tests.club.closing_helpers import close_abandoning
from tests.factories import MemberFactory

ROOT = Path(__file__).resolve().parents[2]
LAN = "192.0.2.7"
LAN_HOST = f"{LAN}:8000"


@pytest.fixture
def loopback_only(settings):
    """The development settings (ALLOWED_HOSTS of this machine only, no PUBLIC_BASE_URL),
    through pytest-django's `settings`, so what quickstart changes is undone afterwards."""
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
    settings.PUBLIC_BASE_URL = ""
    return settings


def quickstart(capture_on_commit, *args) -> str:
    out = io.StringIO()
    with capture_on_commit(execute=True):
        call_command("quickstart", "--no-serve", *args, stdout=out)
    return out.getvalue()


def secretary_login(client, password: str = "cut-for-partners"):
    """Log in as the demo's secretary through the login form (django-axes needs it)."""
    response = client.post(
        "/accounts/login/",
        {"username": "secretary", "password": password},
        HTTP_HOST="127.0.0.1:8000",
    )
    assert response.status_code == 302


def printed_password(out: str) -> str:
    """The secretary's password as quickstart printed it."""
    return re.search(r"Log in as: +secretary +password: (\S+)", out).group(1)


# --- quickstart ---------------------------------------------------------------------------


def test_quickstart_lan_lets_the_lan_address_in_and_prints_it(
    db, loopback_only, client, django_capture_on_commit_callbacks
):
    settings = loopback_only
    assert client.get("/", HTTP_HOST=LAN_HOST).status_code == 400  # refused before --lan

    out = quickstart(django_capture_on_commit_callbacks, "--lan", "--lan-address", LAN)

    assert LAN in settings.ALLOWED_HOSTS
    base = settings.PUBLIC_BASE_URL  # the tables' links and codes carry the LAN address
    assert base == f"http://{LAN_HOST}"
    assert client.get("/", HTTP_HOST=LAN_HOST).status_code == 200
    evening = Evening.objects.get(title="Demo evening")
    # Only what the secretary needs: the addresses (at the LAN address) and the login.
    assert f"http://{LAN_HOST}/secretary/\n" in out
    assert f"http://{LAN_HOST}/secretary/evenings/{evening.pk}/\n" in out
    assert f"http://{LAN_HOST}/secretary/evenings/{evening.pk}/table-cards/\n" in out
    # Not the README's published password: anyone on the club's network has read it.
    assert "cut-for-partners" not in out
    secretary_login(client, printed_password(out))
    assert "127.0.0.1" not in out and "0.0.0.0" not in out
    for noise in ("/api/docs/", "/admin/", "/healthz", "loaded already", "Task "):
        assert noise not in out
    assert len(out.strip().splitlines()) <= 12


def test_served_to_the_network_the_demo_secretary_loses_the_published_password(
    db, loopback_only, client, django_capture_on_commit_callbacks
):
    """The demo's secretary is a superuser whose password the README publishes: served to
    the club's network (`--lan`), anyone on it could log in as him, the admin included.
    Guards quickstart.login_password: he is given a fresh password, printed; a password
    of his own is kept (and not printed); on this machine only, the published one stays."""
    out = quickstart(django_capture_on_commit_callbacks)
    assert printed_password(out) == "cut-for-partners"
    out = quickstart(django_capture_on_commit_callbacks, "--lan", "--lan-address", LAN)
    password = printed_password(out)
    assert password != "cut-for-partners" and len(password) >= 12
    refused = client.post(
        "/accounts/login/", {"username": "secretary", "password": "cut-for-partners"},
        HTTP_HOST=LAN_HOST,
    )  # fmt: skip
    assert refused.status_code == 200  # the form again: the published password is no more
    again = quickstart(django_capture_on_commit_callbacks, "--lan", "--lan-address", LAN)
    assert password not in again and "cut-for-partners" not in again
    assert "manage.py changepassword secretary" in again
    secretary_login(client, password)  # still his


def test_quickstart_on_this_machine_only_says_phones_cannot_reach_it(
    db, loopback_only, django_capture_on_commit_callbacks
):
    out = quickstart(django_capture_on_commit_callbacks)
    assert "http://127.0.0.1:8000/secretary/" in out
    assert "quickstart --lan" in out
    assert loopback_only.ALLOWED_HOSTS == ["127.0.0.1", "localhost", "testserver"]
    assert loopback_only.PUBLIC_BASE_URL == ""


def test_quickstart_lan_keeps_a_configured_public_base_url(
    db, loopback_only, client, django_capture_on_commit_callbacks
):
    loopback_only.PUBLIC_BASE_URL = "https://club.example.org"
    out = quickstart(django_capture_on_commit_callbacks, "--lan", "--lan-address", LAN, "8123")
    assert loopback_only.PUBLIC_BASE_URL == "https://club.example.org"
    assert LAN in loopback_only.ALLOWED_HOSTS
    secretary_login(client, printed_password(out))
    evening = Evening.objects.get(title="Demo evening")
    page = client.get(f"/secretary/evenings/{evening.pk}/table-cards/", HTTP_HOST=f"{LAN}:8123")
    table = evening.tables.get(number=1)
    assert f"https://club.example.org/t/{table.token}/" in page.content.decode()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--lan-address", "club-laptop"], "--lan-address: 'club-laptop' is not an IP address"),
        (["--lan-address", "127.0.0.1"], "not an address phones can reach"),
        (["--lan", "127.0.0.1:8000"], "--lan serves on every interface"),
        (["eight-thousand"], "is not an address to serve on"),
    ],
)
def test_quickstart_refuses_addresses_phones_cannot_use(loopback_only, args, message):
    with pytest.raises(CommandError, match=message):
        call_command("quickstart", "--no-serve", *args, stdout=io.StringIO())
    assert LAN not in loopback_only.ALLOWED_HOSTS


def test_the_lan_address_found_is_one_of_this_machines_own():
    address = lan_address()  # a UDP socket's connect(): no packet leaves
    if address is None:
        pytest.skip("this machine has no route to a private network")
    assert not is_loopback(address)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as own:
        own.bind((address, 0))  # only an address of this machine can be bound


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _get(port: int, host: str, path: str = "/", *, body: bool = False):
    """The status of a GET at the served port (and its body, with `body`)."""
    connection = http.client.HTTPConnection("127.0.0.2", port, timeout=10)
    try:
        connection.request("GET", path, headers={"Host": host})
        response = connection.getresponse()
        return (response.status, response.read().decode()) if body else response.status
    finally:
        connection.close()


@pytest.mark.long
def test_quickstart_lan_serves_every_interface_and_accepts_the_lan_host(tmp_path):
    """The real command, serving: reached at 127.0.0.2 it listens beyond 127.0.0.1; the LAN
    address is an allowed host, another address is not; no debugging page is shown on the
    network, and the static files are served."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DJANGO_ENV"}}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    server = subprocess.Popen(
        [sys.executable, "manage.py", "quickstart", "--lan", "--lan-address", LAN, str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        # Migrating a fresh database and loading the demo takes seconds on a quiet machine
        # and took more than two minutes on a loaded one: waited for, not timed.
        deadline = time.monotonic() + 300
        while True:
            try:
                status = _get(port, f"{LAN}:{port}", "/accounts/login/")
                break
            except OSError:
                assert server.poll() is None, server.stdout.read()
                assert time.monotonic() < deadline, "quickstart did not start serving"
                time.sleep(0.5)
        assert status == 200
        assert _get(port, f"198.51.100.9:{port}") == 400  # not this machine's address
        # No debugging pages on the network (DEBUG off), and the static files still served.
        status, page = _get(port, f"{LAN}:{port}", "/no-such-page/", body=True)
        assert status == 404 and "URLconf" not in page and "DEBUG = True" not in page
        assert _get(port, f"{LAN}:{port}", "/static/js/phone-queue.js") == 200
        assert _get(port, f"{LAN}:{port}", "/static/vendor/htmx-2.0.11.min.js") == 200
    finally:
        server.terminate()
        output = server.communicate(timeout=30)[0]
    assert f"http://{LAN}:{port}/secretary/" in output
    assert "0.0.0.0" not in output and "Starting development server" not in output


def test_served_to_the_network_every_page_carries_the_content_security_policy(db, client, settings):
    """`quickstart --lan` serves a club's phones and its secretary over the club's Wi-Fi,
    with the production posture's debugging pages off, but without its Content-Security-
    Policy (on only with DJANGO_ENV=production): a page's only script would then not be
    limited to the service's own files, nor its pages kept out of another site's frames
    by the policy as well as by X-Frame-Options."""
    from club.management.commands.quickstart import serve_to_network

    serve_to_network()
    response = client.get("/accounts/login/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy


# --- the board and the QR codes -----------------------------------------------------------


@pytest.fixture
def demo(db, loopback_only, client, django_capture_on_commit_callbacks):
    """The demo club (two tables in play), its secretary logged in."""
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo", stdout=io.StringIO())
    secretary_login(client)
    return Evening.objects.get(title="Demo evening")


def test_the_board_opened_at_a_loopback_address_says_phones_cannot_open_it(demo, client):
    page = client.get(f"/secretary/evenings/{demo.pk}/", HTTP_HOST="127.0.0.1:8000")
    text = page.content.decode()
    assert 'data-testid="phone-reach"' in text
    assert "Phones cannot open these table links" in text and "quickstart --lan" in text
    assert f"/secretary/evenings/{demo.pk}/table-cards/" in text


def test_the_board_opened_at_the_lan_address_has_no_warning_and_codes_of_that_address(
    demo, client, loopback_only
):
    loopback_only.ALLOWED_HOSTS = [*loopback_only.ALLOWED_HOSTS, LAN]
    page = client.get(f"/secretary/evenings/{demo.pk}/", HTTP_HOST=LAN_HOST)
    assert page.status_code == 200
    assert 'data-testid="phone-reach"' not in page.content.decode()
    table = demo.tables.get(number=1)
    svg = client.get(f"/secretary/evenings/{demo.pk}/tables/1/qr.svg", HTTP_HOST=LAN_HOST)
    expected = qr_svg(f"http://{LAN_HOST}/t/{table.token}/")
    assert _qr_path(svg.content.decode()) == _qr_path(expected)


def test_a_loopback_board_with_a_reachable_base_says_where_the_codes_point(
    demo, client, loopback_only
):
    loopback_only.PUBLIC_BASE_URL = f"http://{LAN_HOST}"
    page = client.get(f"/secretary/evenings/{demo.pk}/", HTTP_HOST="localhost:8000")
    text = page.content.decode()
    assert 'data-testid="phone-reach"' in text
    assert "Phones cannot open" not in text
    assert f"point to <strong>http://{LAN_HOST}</strong>" in text
    table = demo.tables.get(number=2)
    svg = client.get(f"/secretary/evenings/{demo.pk}/tables/2/qr.svg", HTTP_HOST="127.0.0.1")
    loopback = qr_svg(f"http://127.0.0.1/t/{table.token}/")
    reachable = qr_svg(f"http://{LAN_HOST}/t/{table.token}/")
    assert _qr_path(svg.content.decode()) == _qr_path(reachable) != _qr_path(loopback)


def _qr_path(svg: str) -> str:
    """The modules of a QR code: the SVG's path data, whatever its size and title."""
    return svg.split(' d="', 1)[1].split('"', 1)[0]


# --- the table cards ----------------------------------------------------------------------


def _cards(client, evening, host=LAN_HOST, **query):
    return client.get(f"/secretary/evenings/{evening.pk}/table-cards/", query, HTTP_HOST=host)


def test_each_table_has_a_card_with_its_number_link_qr_code_and_how_to(demo, client, loopback_only):
    loopback_only.ALLOWED_HOSTS = [*loopback_only.ALLOWED_HOSTS, LAN]
    page = _cards(client, demo)
    assert page.status_code == 200
    text = page.content.decode()
    for table in demo.tables.order_by("number"):
        link = f"http://{LAN_HOST}/t/{table.token}/"
        assert f'data-table="{table.number}" data-link="{link}"' in text
        assert f"<h2>Table {table.number}</h2>" in text
        # The link in words, each hyphen held with its neighbours (never a line's end).
        words = re.search(rf'data-testid="link-{table.number}">(.*?)</span></p>', text)[1]
        assert re.sub(r"<[^>]+>", "", words) == link
        assert qr_svg(link) in text  # the code of exactly that link
    assert text.count('<article class="table-print-card"') == 2
    assert text.count("<li>") >= 2 * 3 and "Record the hand" in text
    assert text.count('class="card-sheet per-4"') == 1


def _button(page) -> str:
    """The words of the phone page's button that records a hand."""
    text = html.unescape(page.content.decode())
    return re.search(r'data-testid="record-hand">([^<]+)</button>', text).group(1)


def test_call_ace_cards_name_the_phones_button_and_correcting_until_the_sitting_closes(
    call_ace, client, secretary
):
    """Ruling C5: at Call-Ace a deal may be corrected until the sitting is closed; the card
    quotes the phone's own button ("Record the deal"), not Euchre's "Record the hand"."""
    client.force_login(secretary)
    text = html.unescape(_cards(client, call_ace, host="127.0.0.1:8000").content.decode())
    table = call_ace.tables.get(number=1)
    button = _button(client.get(f"/t/{table.token}/"))
    assert button == "Record the deal"
    assert f"Press '{button}'." in text
    assert "Correct any deal until the sitting is closed and settled (ruling C5)." in text
    assert "Record the hand" not in text and "next hand is recorded" not in text


def test_euchre_cards_keep_laws_5_and_the_hand(demo, client, loopback_only):
    """Law 5, ruling E9: a Euchre hand is corrected before the next hand is recorded."""
    text = html.unescape(_cards(client, demo, host="127.0.0.1:8000").content.decode())
    button = _button(client.get(f"/t/{demo.tables.get(number=1).token}/"))
    assert f"Press '{button}'. A slip? Correct it before the next hand is recorded" in text
    assert "(law 5, ruling E9)" in text


def test_a_card_carries_the_tables_current_link(demo, client):
    """A fresh link (the board's action) replaces the token: the card shows the new one."""
    table = demo.tables.get(number=1)
    old = table.token
    services.table_renew_link(table_id=table.pk, user=None)
    table.refresh_from_db()
    text = _cards(client, demo, host="127.0.0.1:8000").content.decode()
    assert f"/t/{table.token}/" in text and old not in text
    assert 'data-testid="phone-reach"' in text  # the page warns as the board does


def test_two_cards_to_a_page_and_a_bad_choice_is_refused(demo, client):
    text = _cards(client, demo, host="127.0.0.1:8000", per_page="2").content.decode()
    assert text.count('class="card-sheet per-2"') == 1
    refused = _cards(client, demo, host="127.0.0.1:8000", per_page="3")
    assert refused.status_code == 400
    # In the page's words, as the tournament's cards page says it (club.views_cards), never
    # the address's internal name `per_page`.
    said = refused.content.decode()
    assert said == "Cards to an A4 page: '3' is not a choice; print 2 or 4."
    assert "Cards to an A4 page:" in text


def test_only_the_tables_in_play_get_cards(db, client, club, secretary):
    evening = evenings.evening_open(
        club=club, date=datetime.date(1888, 11, 21), ruleset="euchre-somerset-1888",
        stake=Decimal("0.25"),
    )  # fmt: skip
    client.force_login(secretary)
    empty = client.get(f"/secretary/evenings/{evening.pk}/table-cards/")
    assert 'data-testid="no-tables"' in empty.content.decode()
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        MemberFactory(club=club, name=name)
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    evenings.evening_act(evening_id=evening.pk, event={"type": "cut", "draw": True})
    page = client.get(f"/secretary/evenings/{evening.pk}/table-cards/").content.decode()
    assert page.count('<article class="table-print-card"') == 1
    evenings.evening_act(evening_id=evening.pk, event={"type": "break_up", "table": 1})
    page = client.get(f"/secretary/evenings/{evening.pk}/table-cards/").content.decode()
    assert '<article class="table-print-card"' not in page


@pytest.mark.parametrize("value", ["192.168.1.5:8000", "http://192.168.1.5:8000/club", "ftp://x"])
def test_a_public_base_url_without_scheme_or_with_a_path_is_refused_at_start(value):
    env = {**os.environ, "PUBLIC_BASE_URL": value}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "PUBLIC_BASE_URL" in result.stderr and "e.g. http://192.168.1.5:8000" in result.stderr


def test_the_cards_of_a_closed_evening_say_their_links_no_longer_open(demo, client):
    assert 'data-testid="evening-closed"' not in _cards(client, demo, host="127.0.0.1").text
    close_abandoning(demo.pk)
    assert 'data-testid="evening-closed"' in _cards(client, demo, host="127.0.0.1").text
