"""Attacks, round three: a window per IPv6 address.

Every rate and lockout counts per client address (config/clientaddr.py): the login
throttle (THROTTLE_LOGIN), django-axes' lockout of an account from an address
(LOGIN_FAILURE_LIMIT), the API's anonymous rate, the public pages' window. An IPv4 address
is one household or one NAT; but an IPv6 connection is given a whole /64 network (2^64
addresses) by its provider, and its owner chooses any address in it for each connection.
Counted per full address, a caller at home had a fresh window, and five fresh tries at
every account's password, for every request: the login throttle and the lockout held
nothing. Now an IPv6 address counts as its /64 (an IPv4 address, and one mapped into IPv6,
as itself).
"""

import pytest
from django.test import Client, RequestFactory

from config.clientaddr import counted_address
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"  # tests.factories.UserFactory's


def at(address: str) -> Client:
    return Client(REMOTE_ADDR=address)


def login(client: Client, password: str, username: str = "eliza"):
    return client.post("/accounts/login/", {"username": username, "password": password})


def test_wrong_passwords_from_one_ipv6_network_lock_the_account_there(redis, settings):
    """LOGIN_FAILURE_LIMIT wrong passwords, each from another address of one /64: the
    account is locked out from that network (django-axes), the right password refused
    there, and still let in from another network."""
    UserFactory(username="eliza")
    for host in range(1, settings.AXES_FAILURE_LIMIT):
        assert login(at(f"2001:db8:1:2::{host:x}"), "wrong").status_code == 200  # refused
    assert login(at("2001:db8:1:2:ffff::8"), "wrong").status_code == 429  # the last try
    locked = login(at("2001:db8:1:2:ffff::9"), PASSWORD)
    assert locked.status_code == 429
    assert "Too many wrong passwords for this account from your address" in locked.content.decode()
    assert login(at("2001:db8:1:3::1"), PASSWORD).status_code == 302  # another /64: in


def test_the_login_throttle_counts_an_ipv6_network_once(redis):
    """THROTTLE_LOGIN (10 a minute): attempts at many accounts from one /64 are counted
    together, however many of its addresses they come from."""
    answers = [
        login(at(f"2001:db8:5:6:{n:x}::1"), "wrong", f"member{n}").status_code for n in range(1, 12)
    ]
    assert answers[:10] == [200] * 10 and answers[10] == 429


@pytest.mark.parametrize(
    ("address", "counted"),
    [
        ("198.51.100.7", "198.51.100.7"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::"),
        ("2001:DB8:1:2::1", "2001:db8:1:2::"),
        ("::ffff:198.51.100.7", "198.51.100.7"),  # IPv4 mapped into IPv6: the IPv4 address
        ("fe80::1%eth0", "fe80::"),
        ("not an address", "not an address"),
    ],
)
def test_the_address_counted(address, counted):
    request = RequestFactory().get("/", REMOTE_ADDR=address)
    assert counted_address(request) == counted
