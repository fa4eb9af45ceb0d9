"""The HTML doors' guards: the login form and the admin's login, and the table's phone's
posts.

Two guards stand at every login door, the API's token endpoint included:

- the login throttle (config.throttles.LoginRateThrottle, THROTTLE_LOGIN): so many attempts
  a minute per client address, whatever the account; with Redis configured the
  counts are shared by every gunicorn worker;
- django-axes: an account locked out from one address after LOGIN_FAILURE_LIMIT wrong
  passwords (settings AXES_*); `lockout_response` is the page it answers with.

A table's phone posts its hands to pages, not to the API; they are counted as the API
counts its requests (`api_rate_wait`: the API's own throttles, THROTTLE_ANON per table
link, or per address without one, THROTTLE_USER per account, in the same windows), so the
page is no way round the API's rates; a write is counted before its idempotency record is
claimed (`write_refused`). Pages read (GET) are not counted as requests: the public pages
are read thousands of times a second, most of them from a kept copy. What costs is a public
page rendered afresh (a player's page, a standings page, an evening's results): that alone
is counted, per client address (THROTTLE_PUBLIC: `public_render`, `public_render_throttled`),
so a crawler asking for every member's every season is refused past the rate while a copy
already rendered is served to anyone, with no round trip to Redis.

The client's address is config.clientaddr's, for all of them.
"""

import functools
import math

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.urls import reverse
from rest_framework.settings import api_settings

from config.api import error_body
from config.throttles import LoginRateThrottle, PublicPageThrottle


def lockout_minutes() -> int:
    """How long a lockout lasts, in whole minutes (settings: LOGIN_LOCKOUT_MINUTES)."""
    return max(1, math.ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60))


def lockout_message() -> str:
    """What a locked-out visitor is told, on every door."""
    minutes = lockout_minutes()
    return (
        "Too many wrong passwords for this account from your address: logging in is "
        f"refused for {minutes} minute{'s' if minutes != 1 else ''}. Wait, then try again."
    )


def account_wait(wait: int, then: str = "") -> str:
    """The refusal of a logged-in account's request past its rate (THROTTLE_USER), in
    words: how long to wait, and `then` (what was not done: "No evening was opened.")."""
    said = (
        "Too many requests from your account in the last minute; wait "
        f"{wait} second{'s' if wait != 1 else ''} and try again."
    )
    return f"{said} {then}" if then else said


def account_too_many(request, wait: int, *, then: str, back: str, back_text: str):
    """The page refusing a logged-in account's post past its rate (THROTTLE_USER, counted
    by `api_rate_wait`): 429 with Retry-After, `account_wait`'s words with `then` (what was
    not done), and the way `back` (with its `back_text`) to the form, where what was typed
    is kept (static/js/keep-typed.js)."""
    return too_many(
        request,
        account_wait(wait, then),
        wait,
        heading="Too many requests",
        back=back,
        back_text=back_text,
    )


def too_many(request, message: str, retry_after: int, *, status: int = 429, **page):
    """The refusal, with Retry-After: the API's error shape under /api/, a page everywhere
    else (`page`: its `heading` and the link `back` to where the visitor came from, with
    its `back_text`)."""
    if request.path.startswith("/api/"):
        response = JsonResponse(error_body("locked_out", message), status=status)
    else:
        context = {"message": message, **page}
        response = render(request, "registration/too_many.html", context, status=status)
    response["Retry-After"] = str(retry_after)
    return response


def lockout_response(request, original_response=None, credentials=None):
    """django-axes' answer to a locked-out login (settings: AXES_LOCKOUT_CALLABLE)."""
    return too_many(request, lockout_message(), lockout_minutes() * 60)


def axes_username(request, credentials=None) -> str | None:
    """The account name django-axes records a login attempt under (settings:
    AXES_USERNAME_CALLABLE): the name typed, as axes reads it itself, cut to the length its
    records hold. The login form and the admin's do not refuse a name longer than any
    account's (their length is only the input box's), and a failed login by a name of
    300 characters was a 500 on PostgreSQL. No account's name is that long, so the cut
    name is refused as the whole one would be."""
    from axes.models import AccessAttempt

    if credentials:
        name = credentials.get("username")
    else:
        name = getattr(request, "data", request.POST).get("username")
    if not isinstance(name, str):
        return name
    return name[: AccessAttempt._meta.get_field("username").max_length]


def throttle_wait(request, view, throttles) -> int | None:
    """None when each of `throttles` lets the request through, else the whole seconds to
    wait: as DRF's views do, every throttle counts the request, and the longest wait any
    asks for is the one said."""
    waits = [throttle.wait() for throttle in throttles if not throttle.allow_request(request, view)]
    if not waits:
        return None
    return max(1, math.ceil(max((wait for wait in waits if wait is not None), default=60)))


def api_rate_wait(request, view) -> int | None:
    """`throttle_wait` by the API's own throttles (REST_FRAMEWORK's DEFAULT_THROTTLE_CLASSES:
    THROTTLE_ANON per address, THROTTLE_USER per account), counting the request in the
    same windows as the API's requests."""
    return throttle_wait(request, view, [kind() for kind in api_settings.DEFAULT_THROTTLE_CLASSES])


def write_refused(request) -> bool:
    """Whether a write the idempotency record would be claimed for (core.idempotency,
    settings IDEMPOTENCY_RATE_CHECK) is past its rate: the API's throttles count it here,
    before the claim, and the view they refuse it in finds it counted (once) and answers
    429 in its own words, no record claimed and deleted for it. Only callers told apart
    without the API's authentication: a table's phone (its link in the address or its
    `Table` header), a logged-in session, or no one; an API `Token` is left to the view's
    throttles, which follow the claim. The pages under a key's other prefix, the
    director's (`/secretary/tournaments/`: a round table's deals, sent by the phone's
    queue, and the director's buttons), are counted by their views in the same windows."""
    if not request.path.startswith(("/api/", "/t/", "/p/", "/secretary/tournaments/")):
        return False
    scheme = request.META.get("HTTP_AUTHORIZATION", "").split(None, 1)[:1]
    if scheme and scheme[0].lower() != "table":
        return False
    return api_rate_wait(request, None) is not None


def login_throttled(view):
    """Run the login throttle on a login view's POSTs; over the rate, answer 429."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method == "POST":
            wait = throttle_wait(request, view, [LoginRateThrottle()])
            if wait is not None:
                return too_many(
                    request,
                    f"Too many login attempts from your address; wait {wait} seconds "
                    "and try again.",
                    wait,
                )
        return view(request, *args, **kwargs)

    return wrapper


class PublicRenderRefused(Exception):
    """A public page that would be rendered afresh, its reader past THROTTLE_PUBLIC;
    `wait` the whole seconds until the window lets him in again."""

    def __init__(self, wait: int):
        super().__init__(wait)
        self.wait = wait


def public_render(request, make):
    """`make` (what renders a public page or its costly part), counted first
    (`public_render_counted`): past the rate nothing is rendered. Called only where no kept
    copy answers (club.player_cache.page_part's `make`), so a copy served costs no round
    trip to Redis; a request rendering several parts is counted once (config.throttles:
    one verdict a request)."""

    def counted(*args, **kwargs):
        public_render_counted(request)
        return make(*args, **kwargs)

    return counted


def public_render_counted(request) -> None:
    """Count a public page about to be rendered afresh against THROTTLE_PUBLIC (per client
    address, a logged-in reader per account); past the rate raise PublicRenderRefused."""
    wait = throttle_wait(request, None, [PublicPageThrottle()])
    if wait is not None:
        raise PublicRenderRefused(wait)


def public_render_refusal(wait: int) -> str:
    """The words refusing a public page past THROTTLE_PUBLIC."""
    return (
        "This page would have to be put together afresh, and more such pages were asked "
        "for from your address in the last minute than the club makes for one reader. "
        f"Wait {wait} second{'s' if wait != 1 else ''}, then load the page again. Pages "
        "already put together for other readers (the standings as they stand) are still "
        "served at once."
    )


def public_render_throttled(view):
    """A public page's view whose costly part is behind `public_render`: refused, it
    answers 429 with Retry-After and a page in words, linking back to the club's page."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except PublicRenderRefused as refused:
            slug = kwargs.get("slug")
            return too_many(
                request,
                public_render_refusal(refused.wait),
                refused.wait,
                heading="Too many pages asked for",
                back=reverse("club-home", args=[slug]) if slug else None,
                back_text="Back to the club's page",
            )

    return wrapper
