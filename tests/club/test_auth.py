"""Accounts: login pages, the secretary's token, the table token."""

import pytest
from django.urls import reverse

from tests.factories import TableFactory, UserFactory


def test_token_exchange_and_me(club, secretary, api):
    response = api.post(
        "/api/v1/auth/token/", {"username": "secretary", "password": "correct horse battery"}
    )
    assert response.status_code == 200
    api.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    me = api.get("/api/v1/me/").json()
    assert me["username"] == "secretary"
    assert [c["slug"] for c in me["clubs"]] == ["somerset"]


def test_wrong_password_gets_the_error_shape(secretary, api):
    response = api.post("/api/v1/auth/token/", {"username": "secretary", "password": "nope"})
    assert response.status_code == 401
    assert response.json()["error"]["message"] == "Wrong username or password."


def test_token_login_is_rate_limited(secretary, api):
    # A different account each time: the throttle counts the address, whatever the
    # account (one account's wrong passwords are django-axes' lockout).
    statuses = [
        api.post("/api/v1/auth/token/", {"username": f"user{i}", "password": "x"}).status_code
        for i in range(12)
    ]
    assert statuses[:10] == [401] * 10
    assert statuses[-1] == 429


def test_login_page_is_rate_limited(db, client):
    UserFactory(username="ann")
    url = reverse("login")
    statuses = [
        client.post(url, {"username": f"ann{i}", "password": "wrong"}).status_code
        for i in range(11)
    ]
    assert statuses[:10] == [200] * 10  # the form again, with its error
    assert statuses[10] == 429


def test_login_and_logout_pages(club, secretary, client):
    response = client.post(
        reverse("login"), {"username": "secretary", "password": "correct horse battery"}
    )
    assert response.status_code == 302
    page = client.get(reverse("secretary-home"))
    assert "Somerset Club" in page.content.decode()
    client.post(reverse("logout"))
    assert client.get(reverse("secretary-home")).status_code == 302


def test_table_token_names_its_table(db, api):
    table = TableFactory()
    api.credentials(HTTP_AUTHORIZATION=f"Table {table.token}")
    me = api.get("/api/v1/me/").json()
    assert me["username"] is None
    assert me["table"] == {
        "club": table.club.slug,
        "evening": table.evening_id,
        "number": table.number,
    }


def test_unknown_table_token_is_refused(db, api):
    api.credentials(HTTP_AUTHORIZATION="Table not-a-token")
    response = api.get("/api/v1/me/")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"


@pytest.mark.parametrize("path", ["/", "/clubs/somerset/", "/api/docs/", "/api/schema/"])
def test_public_pages_load(club, client, path):
    assert client.get(path).status_code == 200


def test_private_club_page_is_not_found_for_the_public(club, client):
    club.is_public = False
    club.save()
    assert client.get("/clubs/somerset/").status_code == 404
