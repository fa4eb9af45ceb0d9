"""Attacks on the tables' links through the logs (core/logs.py): a table's phone link is
a bearer secret, and whoever reads a log line with it records hands at that table.

Django logs a post refused for want of its CSRF token under `django.security.csrf`, with
the request's path: "Forbidden (CSRF cookie not set.): /t/<token>/hand/". A phone whose
cookie was cleared (a private tab that closed, a browser that drops cookies) sends such a
post, and so does anyone trying a guessed or stolen link from a script. The logs' filter
hid the links in Django's request log and gunicorn's, not in this one.
"""

import logging

import pytest
from django.test import Client

from tests.worlds import club_in_play


@pytest.mark.parametrize("page", ["hand/", "answer/"])
def test_a_phones_post_refused_for_its_csrf_token_is_logged_without_the_link(
    db, django_capture_on_commit_callbacks, caplog, page
):
    table = club_in_play(django_capture_on_commit_callbacks).table
    phone = Client(enforce_csrf_checks=True)
    with caplog.at_level(logging.WARNING):
        answer = phone.post(f"/t/{table.token}/{page}", {"makers": "NS", "tricks": "3"})
    assert answer.status_code == 403
    refused = [r.getMessage() for r in caplog.records if r.name == "django.security.csrf"]
    assert refused == [f"Forbidden (CSRF cookie not set.): /t/…/{page}"]
    assert table.token not in caplog.text
