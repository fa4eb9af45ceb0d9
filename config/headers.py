"""A request whose header values hold a control character is refused (400) before anything
reads them.

RFC 9110 (5.5) does not allow a control character in a field value but the horizontal tab,
and gunicorn refuses such a request itself (its `RFC9110_5_5_INVALID_AND_DANGEROUS`).
Django's own server, which `manage.py quickstart` serves with (to the club's Wi-Fi with
`--lan`), passes them through: a NUL in `Authorization: Token ...` reached the token
table, and one in a failed login's `User-Agent` or `Accept` django-axes' records, each a
500 on PostgreSQL, whose text cannot hold a NUL. So whatever server runs the service, such
a request is refused here, first, naming the header: in the API's error shape under
/api/, in plain words elsewhere.
"""

import re

from django.http import HttpResponse, JsonResponse

from config.api import error_body

# What gunicorn refuses: C0 controls but the tab, and DEL.
CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
# The WSGI environ's headers: HTTP_*, and the two the CGI convention names without it.
# (Only these: under Django's own server the environ holds the process's environment too.)
UNPREFIXED = {"CONTENT_TYPE": "Content-Type", "CONTENT_LENGTH": "Content-Length"}


def header_name(key: str) -> str:
    """A WSGI environ key as the header's name: HTTP_USER_AGENT -> User-Agent."""
    if key in UNPREFIXED:
        return UNPREFIXED[key]
    return "-".join(part.capitalize() for part in key[len("HTTP_") :].split("_"))


def bad_header(meta: dict) -> str | None:
    """The name of the first header whose value holds a control character, or None."""
    for key, value in meta.items():
        header = key.startswith("HTTP_") or key in UNPREFIXED
        if header and isinstance(value, str) and CONTROL.search(value):
            return header_name(key)
    return None


class RefuseControlCharacters:
    """Answers 400 to a request with a control character in a header value (see above)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        name = bad_header(request.META)
        if name is None:
            return self.get_response(request)
        message = (
            f"The {name} header holds a control character; a header's value may not "
            "(RFC 9110, section 5.5)."
        )
        if request.path.startswith("/api/"):
            return JsonResponse(error_body("invalid", message, field=name), status=400)
        return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
