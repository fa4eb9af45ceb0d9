"""A header value with a control character is refused (400, naming the header) before
anything reads it (config/headers.py).

gunicorn refuses such a request itself, but `manage.py quickstart` serves with Django's
own server, which passes a NUL through: `Authorization: Token <NUL>...` reached the token
table and a failed login's `User-Agent` django-axes' records, a 500 on PostgreSQL each.
"""

import pytest
from axes.models import AccessAttempt, AccessLog
from django.test import Client
from rest_framework.test import APIClient

from tests.club.test_login_security import PASSWORD
from tests.factories import UserFactory


@pytest.mark.parametrize("value", ["Token \x00abc", "Token abc\x1b", "Table \x7f"])
def test_an_authorization_with_a_control_character_is_refused_naming_it(db, value):
    response = APIClient().get("/api/v1/me/", HTTP_AUTHORIZATION=value)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["field"] == "Authorization"
    assert "control character" in error["message"]


@pytest.mark.parametrize("door", ["api", "form", "admin"])
@pytest.mark.parametrize("password", ["wrong", PASSWORD])
def test_a_login_with_a_control_character_in_a_header_is_refused_and_not_kept(db, door, password):
    """A failed login is kept by django-axes with its User-Agent and Accept headers, and a
    successful one in its access log: neither may hold a NUL."""
    UserFactory(username="ann", is_staff=True)
    headers = {"HTTP_USER_AGENT": "phone\x00", "HTTP_ACCEPT": "text/html\x00"}
    if door == "api":
        response = APIClient().post(
            "/api/v1/auth/token/", {"username": "ann", "password": password}, format="json",
            **headers,
        )  # fmt: skip
        assert response.json()["error"]["field"] in {"User-Agent", "Accept"}
    else:
        url = "/accounts/login/" if door == "form" else "/admin/login/"
        response = Client().post(url, {"username": "ann", "password": password}, **headers)
        assert "control character" in response.content.decode()
    assert response.status_code == 400
    assert not AccessAttempt.objects.exists()
    assert not AccessLog.objects.exists()


def test_a_tab_is_not_a_control_character_a_header_may_not_hold(db, club):
    """RFC 9110 (5.5) allows a horizontal tab inside a field value, as gunicorn does."""
    response = APIClient().get(f"/api/v1/clubs/{club.slug}/", HTTP_USER_AGENT="a\tphone")
    assert response.status_code == 200


def test_a_page_answers_the_refusal_in_words(db, club):
    response = Client().get(f"/clubs/{club.slug}/", HTTP_ACCEPT_LANGUAGE="en\x00")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/plain")
    assert "Accept-Language" in response.content.decode()
