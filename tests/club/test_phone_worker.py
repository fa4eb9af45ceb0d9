"""The table's phone's service worker (club.views_phone_worker, static/js/phone-worker.js):
served at the table links' own paths, so that its scope is theirs alone, as JavaScript the
browser asks for anew; allowed by the production Content-Security-Policy; and only a live
link's whole page, to a player not logged in, is marked as one it may keep for a reload
with no network (tests/club/test_browser_phone_offline_reload.py shows it in chromium)."""

import pytest

from club import services
from club.views_phone_worker import KEEP_HEADER

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/t/phone-worker.js", "/p/phone-worker.js"])
def test_the_worker_is_served_at_each_links_path_as_javascript_asked_for_anew(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    # Its scope is the folder it is served from (/t/, /p/): no wider one is allowed.
    assert "Service-Worker-Allowed" not in response
    assert b'self.addEventListener("fetch"' in response.content
    assert client.post(path).status_code == 405


def test_the_production_policy_allows_the_worker(client, settings, played):
    settings.CSP_ENABLED = True
    for path in ("/t/phone-worker.js", f"/t/{played.table.token}/"):
        policy = client.get(path)["Content-Security-Policy"]
        assert "worker-src 'self';" in policy
        assert "script-src 'self';" in policy


def test_only_a_live_links_whole_page_to_a_player_not_logged_in_may_be_kept(client, played):
    page = f"/t/{played.table.token}/"
    response = client.get(page)
    assert response[KEEP_HEADER] == "keep"
    assert b"js/phone-offline" in response.content and b'data-worker="/t/phone-worker.js"' in (
        response.content
    )
    # The poll's live part is not a page to show on a reload.
    assert KEEP_HEADER not in client.get(page, headers={"HX-Request": "true"})

    # A logged-in visitor's page is never kept on the device, nor registers the worker.
    client.force_login(played.secretary)
    response = client.get(page)
    assert response.status_code == 200
    assert KEEP_HEADER not in response
    assert b"js/phone-offline" not in response.content
    client.logout()

    # A dead link's page (403) is not kept: the worker deletes the copy on it.
    services.table_renew_link(table_id=played.table.pk)
    response = client.get(page)
    assert response.status_code == 403
    assert KEEP_HEADER not in response
