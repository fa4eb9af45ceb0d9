"""API plumbing shared by every endpoint: one error shape, pagination (throttles: config.throttles).

Every error the API returns has the same shape::

    {"error": {"code": "...", "message": "...", "field": "hands[2].tricks" | null,
               "law": "law 3" | "ruling E6" | null, "details": {...}}}

A user error (bad input, or an action the laws forbid) is a 4xx in that shape
and changes nothing; anything else is a bug and is left loud (500, logged).
"""

import re

from django.core.exceptions import DisallowedHost, PermissionDenied
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

# An error repeats at most ECHO_MAX characters of the caller's text, as a page does
# (core/echo.py): an unknown key or choice is named, not echoed whole (a 2 MB body's one
# key was answered with 2 MB, its details twice that).
from core.echo import ECHO_MAX, capped

# The error classes live in core (services raise them); the API's views import them here.
from core.errors import Conflict, UserError
from core.inputs import UNKNOWN_KEY

__all__ = ["ECHO_MAX", "Conflict", "UserError", "error_body", "exception_handler", "paginated"]


def _user_error_types() -> tuple[type[Exception], ...]:
    # The pure engines (scoring rules, table formation) cannot import this module,
    # so their error classes are recognised here by type.
    from club.formation import FormationError
    from scoring.rules import ScoringError

    return (UserError, ScoringError, FormationError)


def error_body(
    code: str, message: str, *, field=None, law=None, details: dict | None = None
) -> dict:
    """Build the one error shape the API speaks (no text of it longer than ECHO_MAX)."""
    return {
        "error": {
            "code": code,
            "message": capped(message),
            "field": capped(field),
            "law": law,
            "details": capped(details or {}),
        }
    }


def _first_field_error(detail, prefix: str = "") -> tuple[str | None, str]:
    """Walk a DRF ValidationError detail to its first message and dotted field path."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            path = key if not prefix else f"{prefix}.{key}"
            if key == "non_field_errors":
                path = prefix or None
            return _first_field_error(value, path or "")
    if isinstance(detail, list):
        for index, value in enumerate(detail):
            if isinstance(value, dict | list):
                inner = f"{prefix}[{index}]" if prefix else f"[{index}]"
                return _first_field_error(value, inner)
            return (prefix or None), str(value)
    return (prefix or None), str(detail)


def _first_code(detail) -> str | None:
    """The code of a DRF ValidationError's first message (the one `_first_field_error`
    names)."""
    while isinstance(detail, dict | list) and detail:
        detail = next(iter(detail.values())) if isinstance(detail, dict) else detail[0]
    return getattr(detail, "code", None)


def field_error(detail) -> tuple[str | None, str]:
    """The first message of a DRF ValidationError's detail and its dotted field path."""
    return _first_field_error(detail)


def _cards_in_words(exc) -> tuple[str, dict | None]:
    """The message and details of a user error, a card named in them as the board names
    it, by its suit ("Dan's 6♠ is not in the 32-card Euchre pack", ruling T1), where the
    table-formation engine words it by its code; the API's data keeps the code."""
    from club.formation import FormationError
    from club.formation.cards import cards_shown

    details = getattr(exc, "details", None)
    if not isinstance(exc, FormationError):
        return exc.message, details
    if details and "fields" in details:
        fields = {
            field: [cards_shown(said) for said in saids]
            for field, saids in details["fields"].items()
        }
        details = {**details, "fields": fields}
    return cards_shown(exc.message), details


def exception_handler(exc, context):
    """DRF exception handler answering every error in the one shape."""
    if isinstance(exc, _user_error_types()):
        status_code = getattr(exc, "status_code", status.HTTP_400_BAD_REQUEST)
        message, details = _cards_in_words(exc)
        body = error_body(
            getattr(exc, "code", None) or "invalid",
            message,
            field=getattr(exc, "field", None),
            law=getattr(exc, "law", None),
            details=details,
        )
        response = Response(body, status=status_code)
        if isinstance(exc, Conflict) and exc.code == "locked":
            # A lock not granted in time: nothing was done, and the same request may
            # succeed in a moment (so an Idempotency-Key's record does not keep it).
            response["Retry-After"] = "1"
        if getattr(exc, "retry_after", None):
            response["Retry-After"] = str(exc.retry_after)
        return response

    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()

    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # a bug: let Django answer 500 and log it

    if isinstance(exc, exceptions.ValidationError):
        field, message = _first_field_error(exc.detail)
        # A body key the endpoint does not know says so in its code (core.inputs.BodyInput);
        # every other refusal of a field's value is "invalid", as it always was.
        code = UNKNOWN_KEY if _first_code(exc.detail) == UNKNOWN_KEY else "invalid"
        response.data = error_body(code, message, field=field, details={"fields": exc.detail})
    else:
        detail = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
        code = exc.get_codes() if isinstance(exc, exceptions.APIException) else "error"
        if not isinstance(code, str):
            code = "error"
        response.data = error_body(code, str(detail))
    return response


# An address that names a club: its public pages and the secretary's (club.urls_public,
# club.urls_secretary).
CLUB_IN_PATH = re.compile(r"^/(?:secretary/)?clubs/(?P<slug>[-\w]+)/")
# A table's phone link, a club evening's (/t/) or a progressive tournament's (/p/), typed
# from the table's card.
TABLE_LINK = re.compile(r"^/[tp]/")


def not_found(request, exception=None):
    """Django's 404 (handler404), for a path no URL pattern matches (e.g. a club's slug
    with characters a slug cannot have) and for a view's Http404: under /api/ it is in the
    one error shape, as the schema documents, not an HTML page. Elsewhere (DEBUG off) the
    page says what to do (templates/404.html): a table's link, to check the table's card;
    any other, the way to the front page and to the club the address names, if it is one
    the visitor may see."""
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("not_found", "Not found."), status=404)
    from club.selectors import clubs_visible_to

    named = CLUB_IN_PATH.match(request.path)
    user = getattr(request, "user", None)
    club = named and clubs_visible_to(user=user).filter(slug=named["slug"]).first()
    context = {"table_link": bool(TABLE_LINK.match(request.path)), "club": club or None}
    return render(request, "404.html", context, status=404)


def bad_request(request, exception=None):
    """Django's 400 (handler400), e.g. a body larger than DATA_UPLOAD_MAX_MEMORY_SIZE read
    before DRF (the idempotency middleware): under /api/ in the one error shape."""
    if request.path.startswith("/api/"):
        message = str(exception) if exception else "Bad request."
        if isinstance(exception, DisallowedHost):
            # Django's words echo the caller's Host and advise the operator's setting
            # (ALLOWED_HOSTS) to anyone: production's HTML page says neither, nor does this
            # (tests/test_attack2_errors.py).
            message = "This service does not answer to the host name the request was sent to."
        return JsonResponse(error_body("invalid", message), status=400)
    return defaults.bad_request(request, exception)


class Pagination(PageNumberPagination):
    """Page-number pagination; a client may ask for up to 200 rows a page, never more."""

    page_size_query_param = "page_size"
    max_page_size = 200


def paginated(request, view, queryset, serializer_class) -> Response:
    """One page of a list endpoint in the documented paginated shape."""
    paginator = (getattr(view, "pagination_class", None) or Pagination)()
    page = paginator.paginate_queryset(queryset, request, view)
    return paginator.get_paginated_response(serializer_class(page, many=True).data)


class LoginLockedOut(UserError):
    """Too many wrong passwords for this account from this address (django-axes)."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "locked_out"

    def __init__(self, message: str, *, retry_after: int | None = None):
        super().__init__(message)
        self.retry_after = retry_after
