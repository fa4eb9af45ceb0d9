"""Issue #12, section 2: the login doors cannot be battered by inventing addresses, and
public pages never show an account's login name.

Every login door (the API's token endpoint, the login form, the admin's login) is
attacked the same way: fifty wrong passwords, each with a different X-Forwarded-For,
then the right one. The client's address is the connection's unless the deployment
says it stands behind proxies (TRUSTED_PROXY_COUNT), so the attack is refused.
"""

import pytest
from django.test import RequestFactory
from django.urls import reverse

from club import recording
from config.clientaddr import client_address
from scoring import services
from tests.factories import EveningFactory, MemberFactory, TableFactory, UserFactory
from tests.scoring.conftest import PAIRS, euchre

PASSWORD = "correct horse battery"  # tests.factories.UserFactory's


def spoofed(i: int) -> str:
    """A different invented client address for the i-th request."""
    return f"198.51.{i // 250}.{i % 250 + 1}"


class Door:
    """One login door: how to try a password there, and what success looks like."""

    def __init__(self, name, client):
        self.name = name
        self.client = client

    def attempt(self, username, password, **headers):
        if self.name == "api":
            return self.client.post(
                "/api/v1/auth/token/",
                {"username": username, "password": password},
                format="json",
                **headers,
            )
        url = reverse("login") if self.name == "form" else "/admin/login/"
        data = {"username": username, "password": password, "next": "/admin/"}
        return self.client.post(url, data, **headers)

    def let_in(self, response) -> bool:
        if self.name == "api":
            return response.status_code == 200 and "token" in response.json()
        return response.status_code == 302  # the form and the admin redirect on success

    def refusal(self, response) -> str:
        """The words of a refusal, checked for their shape on each door."""
        assert response.status_code == 429
        assert int(response["Retry-After"]) > 0
        if self.name == "api":
            error = response.json()["error"]  # the project's one error shape
            assert set(error) == {"code", "message", "field", "law", "details"}
            return error["message"]
        assert response["Content-Type"].startswith("text/html")
        return response.content.decode()


@pytest.fixture(params=["api", "form", "admin"])
def door(request, db):
    from django.test import Client
    from rest_framework.test import APIClient

    UserFactory(username="ann", is_staff=True)  # staff, so the admin lets her in too
    return Door(request.param, APIClient() if request.param == "api" else Client())


def test_rotating_x_forwarded_for_does_not_bypass_the_login_limits(door):
    statuses = [
        door.attempt("ann", "wrong", HTTP_X_FORWARDED_FOR=spoofed(i)).status_code for i in range(50)
    ]
    response = door.attempt("ann", PASSWORD, HTTP_X_FORWARDED_FOR=spoofed(50))
    assert not door.let_in(response), "the right password got in after 50 wrong ones"
    assert "wait" in door.refusal(response).lower()
    assert 429 in statuses[:11]  # refused well before fifty


def test_an_account_is_locked_out_from_an_address_after_the_failure_limit(door, settings):
    """Below the throttle's rate: django-axes refuses the right password after five
    wrong ones for this account from this address, and says for how long."""
    assert settings.AXES_FAILURE_LIMIT == 5
    for _ in range(4):
        assert not door.let_in(door.attempt("ann", "wrong"))
    fifth = door.attempt("ann", "wrong")
    assert "refused for 15 minutes. Wait" in door.refusal(fifth)
    locked = door.attempt("ann", PASSWORD)
    assert not door.let_in(locked)
    assert "Too many wrong passwords for this account" in door.refusal(locked)
    # The lockout is the account's at this address: another account logs in here.
    UserFactory(username="bob", is_staff=True)
    assert door.let_in(door.attempt("bob", PASSWORD))


def test_a_right_password_before_the_limit_clears_the_count(door):
    for _ in range(4):
        door.attempt("ann", "wrong")
    assert door.let_in(door.attempt("ann", PASSWORD))
    if door.name != "api":
        door.client.logout()
    for _ in range(4):  # four more: not five in a row, so no lockout
        door.attempt("ann", "wrong")
    assert door.let_in(door.attempt("ann", PASSWORD))


# --- the client's address --------------------------------------------------------------


@pytest.mark.parametrize("length", [151, 300, 5000])
def test_a_login_name_longer_than_any_is_refused_at_every_door(door, length):
    """A failed login by a name of 300 characters reached django-axes, whose record of it
    holds 255: a 500 on PostgreSQL at every door. The API's token door refuses a name longer
    than any account's (club.api.TokenInput, 400 on the field); the form and the admin's
    login, whose field does not, have axes record it cut to its column
    (config.ratelimit.axes_username) and say the name or password is wrong."""
    response = door.attempt("x" * length, "wrong")
    assert response.status_code in {200, 400}  # the form and the admin show it again
    if door.name == "api":
        assert response.status_code == 400
        assert response.json()["error"]["field"] == "username"


def request_from(remote: str, forwarded: str | None = None):
    headers = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().post("/accounts/login/", **headers)


def test_without_trusted_proxies_the_connections_address_is_the_clients(settings):
    assert settings.TRUSTED_PROXY_COUNT == 0  # the default
    assert client_address(request_from("192.0.2.10", "203.0.113.9")) == "192.0.2.10"


def test_behind_one_proxy_the_right_most_forwarded_address_is_the_clients(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    # The caller wrote "6.6.6.6"; our proxy (10.0.0.2) appended the address it saw.
    assert client_address(request_from("10.0.0.2", "6.6.6.6, 203.0.113.9")) == "203.0.113.9"
    assert client_address(request_from("10.0.0.2", "203.0.113.9")) == "203.0.113.9"
    # No header although a proxy was promised: the proxy's address, not the caller's word.
    assert client_address(request_from("10.0.0.2")) == "10.0.0.2"


def test_a_negative_proxy_count_is_refused_at_start():
    from tests.config.test_settings import run_check

    result = run_check({"TRUSTED_PROXY_COUNT": "-1"})
    assert result.returncode != 0
    assert "TRUSTED_PROXY_COUNT" in result.stderr


def test_behind_two_proxies_the_second_address_from_the_right_is_the_clients(settings):
    settings.TRUSTED_PROXY_COUNT = 2
    request = request_from("10.0.0.3", "6.6.6.6, 203.0.113.9, 10.0.0.2")
    assert client_address(request) == "203.0.113.9"


def test_behind_a_proxy_the_throttle_and_lockout_count_the_real_client(db, api, settings):
    from axes.models import AccessAttempt

    settings.TRUSTED_PROXY_COUNT = 1
    UserFactory(username="ann")

    def attempt(forwarded, username="ann"):
        return api.post(
            "/api/v1/auth/token/",
            {"username": username, "password": "wrong"},
            HTTP_X_FORWARDED_FOR=forwarded,
        )

    # The caller's own left-most entries change each time; the proxy's does not.
    statuses = [
        attempt(f"{spoofed(i)}, 203.0.113.9", username=f"user{i}").status_code for i in range(11)
    ]
    assert statuses[:10] == [401] * 10
    assert statuses[10] == 429
    # Another client behind the same proxy is counted apart.
    assert attempt("203.0.113.77").status_code == 401
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {
        "203.0.113.9",
        "203.0.113.77",
    }


# --- public pages name people, not accounts ----------------------------------------------


@pytest.fixture
def corrected_rubber(club):
    """A rubber whose hand 1 the secretary put right, as referee, after hand 2 (E9)."""
    user = UserFactory(username="sec-login-x7")
    club.secretaries.add(user)
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        MemberFactory(club=club, name=name)
    evening = EveningFactory(club=club, stake="0.25")
    table = TableFactory(evening=evening, number=1)
    rubber = services.rubber_start(
        club=club, ruleset="euchre-somerset-1888", players=PAIRS, evening=evening, table=table
    )
    recording.hand_record(rubber_id=rubber.pk, data=euchre("EW", 3), table=table)
    recording.hand_record(rubber_id=rubber.pk, data=euchre("NS", 3), table=table)
    recording.hand_correct(
        rubber_id=rubber.pk,
        number=1,
        data=euchre("EW", 2),
        reason="EW took two tricks",
        user=user,
        is_secretary=True,
    )
    return rubber, user


def test_the_public_rubber_page_never_shows_the_correctors_login_name(client, corrected_rubber):
    rubber, user = corrected_rubber
    url = reverse("rubber-detail", kwargs={"slug": "somerset", "pk": rubber.pk})
    page = client.get(url).content.decode()
    assert "corrected by the club&#x27;s referee," in page
    assert "sec-login-x7" not in page
    api = client.get(f"/api/v1/clubs/somerset/rubbers/{rubber.pk}/").content.decode()
    assert "sec-login-x7" not in api

    # Nor when he looks at it himself, logged in (a board shown on the club's screen).
    client.force_login(user)
    assert "sec-login-x7" not in client.get(url).content.decode()

    user.first_name, user.last_name = "Edith", "Wharton"
    user.save()
    page = client.get(url).content.decode()
    assert "the club&#x27;s referee (Edith Wharton)" in page
    assert "Log out Edith Wharton" in page
    assert "sec-login-x7" not in page
