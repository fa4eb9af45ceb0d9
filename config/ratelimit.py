"""The HTML login doors' guards: the login form and the admin's login.

Two guards stand at every login door, the API's token endpoint included:

- the login throttle (config.throttles.LoginRateThrottle, THROTTLE_LOGIN): so many attempts
  a minute per client address, whatever the account; with Redis configured the
  counts are shared by every gunicorn worker;
- django-axes: an account locked out from one address after LOGIN_FAILURE_LIMIT wrong
  passwords (settings AXES_*); `lockout_response` is the page it answers with.

The client's address is config.clientaddr's, for both.
"""

import functools
import math

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render

from config.api import error_body
from config.throttles import LoginRateThrottle


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


def _too_many(request, message: str, retry_after: int, *, status: int = 429):
    """The refusal: the API's error shape under /api/, a page everywhere else."""
    if request.path.startswith("/api/"):
        response = JsonResponse(error_body("locked_out", message), status=status)
    else:
        response = render(
            request, "registration/too_many.html", {"message": message}, status=status
        )
    response["Retry-After"] = str(retry_after)
    return response


def lockout_response(request, original_response=None, credentials=None):
    """django-axes' answer to a locked-out login (settings: AXES_LOCKOUT_CALLABLE)."""
    return _too_many(request, lockout_message(), lockout_minutes() * 60)


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


def login_throttled(view):
    """Run the login throttle on a login view's POSTs; over the rate, answer 429."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method == "POST":
            throttle = LoginRateThrottle()
            if not throttle.allow_request(request, view):
                wait = math.ceil(throttle.wait() or 60)
                return _too_many(
                    request,
                    f"Too many login attempts from your address; wait {wait} seconds "
                    "and try again.",
                    wait,
                )
        return view(request, *args, **kwargs)

    return wrapper
