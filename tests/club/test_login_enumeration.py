"""User enumeration at the login doors (the login form, the API's token, the admin's
login): a login name that no account has is answered as a wrong password for one that
does, the first wrong tries and the lockout after the failure limit alike (django-axes
counts a name, not an account), so a caller cannot learn from them which names exist.
The site has no password-reset door (nothing there to check). The people page's adding of
an officer: tests/club/test_people.py."""

import re

import pytest

from .test_login_security import Door

pytestmark = pytest.mark.django_db


def said(door, response) -> tuple[int, str]:
    """The status and the words of a refusal, the login name typed taken out, and the wait
    a rate's refusal names: the two tries are a moment apart, and on a loaded machine the
    second's window had a second less to run ("wait 41 seconds", "wait 40 seconds")."""
    if door.name == "api":
        error = response.json()["error"]
        return response.status_code, _waits(error["message"])
    text = _waits(re.sub(r'value="[^"]*"', "", response.content.decode()))
    text = re.sub(r'name="csrfmiddlewaretoken"[^>]*>', "", text)
    return response.status_code, text.replace("nobody", "NAME").replace("ann", "NAME")


def _waits(words: str) -> str:
    return re.sub(r"\b\d+ (second|minute)", r"N \1", words)


@pytest.fixture(params=["api", "form", "admin"])
def door(request, db):
    from django.test import Client
    from rest_framework.test import APIClient

    from tests.factories import UserFactory

    UserFactory(username="ann", is_staff=True)
    return Door(request.param, APIClient() if request.param == "api" else Client())


def test_a_name_no_account_has_reads_as_a_wrong_password(door, settings):
    tries = settings.AXES_FAILURE_LIMIT + 1  # the last one past the lockout
    for _ in range(tries):
        real = door.attempt("ann", "wrong password")
        none = door.attempt("nobody", "wrong password")
        assert said(door, real) == said(door, none)
    assert real.status_code == 429  # locked out alike
