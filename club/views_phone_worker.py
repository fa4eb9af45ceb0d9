"""The table's phone's service worker (static/js/phone-worker.js), served under the table
links' own paths, /t/ and /p/, so that its scope is theirs and no other page's: a phone
reloaded with no network is answered with the copy of its page the worker kept
(docs/architecture.md, "A reload with no network")."""

import functools

from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.views.decorators.http import require_safe

# The header a phone page's answer carries when the worker may keep a copy of it.
KEEP_HEADER = "X-Phone-Copy"


@functools.cache
def _worker_source() -> str:
    with open(finders.find("js/phone-worker.js"), encoding="utf-8") as source:
        return source.read()


@require_safe
def phone_worker(request) -> HttpResponse:
    """The worker's script. `no-cache`: the browser asks for it anew at each registration
    and update check, so a fixed worker reaches the phones at their next visit."""
    response = HttpResponse(_worker_source(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


def keep_copy(request, response: HttpResponse) -> HttpResponse:
    """Mark a table's phone page (a live link's whole page, 200) as one the worker may keep
    to show again offline: only for a player not logged in (a logged-in visitor's page is
    never kept on the device)."""
    if response.status_code == 200 and not request.user.is_authenticated:
        response[KEEP_HEADER] = "keep"
    return response
