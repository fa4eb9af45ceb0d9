"""Table links kept out of the logs (core/logs.py): a table's phone link is a bearer
secret, and Django's and gunicorn's logs name the addresses of requests."""

import logging
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest
from django.test import Client

from core.logs import hide_links
from tests.worlds import club_in_play

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("logged", "shown"),
    [
        ("Bad Request: /t/Abc_def-GHI0123456789abcdefghijkl/hand/", "Bad Request: /t/…/hand/"),
        ("GET /p/4c1f0b0e-8d2e-4f0a-9b1e-2a6c7f3d9e10/ HTTP/1.1", "GET /p/…/ HTTP/1.1"),
        ('"https://club.example/t/Abc_def-GHI0123456789abcdefghijkl/"', '"https://club.example/t/…/"'),
        # Not a link: a club's page, a short path, the static files.
        ("GET /clubs/t/ HTTP/1.1", "GET /clubs/t/ HTTP/1.1"),
        ("/static/tournaments/phone.css", "/static/tournaments/phone.css"),
    ],
)  # fmt: skip
def test_a_links_token_is_hidden_and_nothing_else(logged, shown):
    assert hide_links(logged) == shown


def test_a_refused_hand_at_the_phone_is_logged_without_its_tables_link(
    db, django_capture_on_commit_callbacks, caplog
):
    """Each refused hand is logged by Django as a bad request, with its path."""
    table = club_in_play(django_capture_on_commit_callbacks).table
    with caplog.at_level(logging.WARNING, logger="django.request"):
        answer = Client().post(f"/t/{table.token}/hand/", {"makers": "NS", "tricks": "6"})
    assert answer.status_code == 400
    logged = [r.getMessage() for r in caplog.records if r.name == "django.request"]
    assert logged == ["Bad Request: /t/…/hand/"]
    assert table.token not in caplog.text


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.long
def test_gunicorns_access_and_error_logs_hide_the_links(tmp_path):
    """gunicorn as production runs it (config/gunicorn.conf.py), with its access log: a
    phone's page and a progressive's, the link in the path and in the Referer. Their
    answers do not matter here (the server's database may be empty): the lines do."""
    token, uuid_token = "Abc_def-GHI0123456789abcdefghijkl", str(uuid.uuid4())
    port = _free_port()
    access, errors = tmp_path / "access.log", tmp_path / "error.log"
    env = {k: v for k, v in os.environ.items() if k not in ("WEB_CONCURRENCY", "GUNICORN_CMD_ARGS")}
    env.update({"DATABASE_URL": f"sqlite:///{tmp_path / 'empty.sqlite3'}", "WEB_CONCURRENCY": "1"})
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.conf.py", "config.wsgi",
         "--bind", f"127.0.0.1:{port}", "--access-logfile", str(access),
         "--error-logfile", str(errors)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        paths = [f"/t/{token}/", f"/t/{token}/hand/", f"/p/{uuid_token}/"]
        deadline = time.monotonic() + 60
        for path in paths:
            while True:
                request = urllib.request.Request(
                    f"http://127.0.0.1:{port}{path}",
                    headers={"Referer": f"http://127.0.0.1:{port}/t/{token}/"},
                )
                try:
                    urllib.request.urlopen(request, timeout=10).close()
                    break
                except urllib.error.HTTPError:
                    break  # answered (404 or 500 on an empty database): logged
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
        deadline = time.monotonic() + 10
        while access.read_text().count("\n") < len(paths) and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(30)
    lines = access.read_text()
    assert lines.count("\n") == len(paths), lines
    for path in ("/t/…/", "/t/…/hand/", "/p/…/"):
        assert f"GET {path} HTTP/1.1" in lines
    for text in (lines, errors.read_text()):
        assert token not in text and uuid_token not in text
