"""Attacks on what error answers tell: internals in a refusal anyone can provoke.

A request to the API under a host name the service does not serve (a forged `Host`) was
refused in the API's error shape with Django's own words, which echo the caller's host and
advise the operator's setting ("You may need to add 'evil.example' to ALLOWED_HOSTS"),
in production too: Django's HTML page for the same refusal says neither.
"""

from django.test import Client


def test_a_forged_host_is_refused_without_the_settings_advice(db):
    caller = Client(raise_request_exception=False)
    for path in ["/api/v1/", "/api/v1/clubs/", "/healthz", "/clubs/"]:
        answer = caller.get(path, HTTP_HOST="evil.example")
        assert answer.status_code == 400, path
        said = answer.content.decode()
        assert "ALLOWED_HOSTS" not in said and "evil.example" not in said, path
    body = caller.get("/api/v1/clubs/", HTTP_HOST="evil.example").json()["error"]
    assert body["code"] == "invalid"
    assert body["message"] == (
        "This service does not answer to the host name the request was sent to."
    )
