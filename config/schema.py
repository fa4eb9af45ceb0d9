"""The OpenAPI schema's error responses: every operation lists the 4xx it can answer,
each in the API's one error shape (config/api.py), as the component `Error`.

Why not drf-standardized-errors: it gives every error its own shape
(`{"type", "errors": [{"code", "detail", "attr"}]}`) and documents that shape; ours,
`{"error": {"code", "message", "field", "law", "details"}}`, names the law or ruling
and is what clients already read, and the idempotency middleware answers in it outside
DRF. Adopting it would change the contract; documenting ours needs only this schema
class (settings: REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"]), so no view repeats the list.

Which operation answers what is decided here, from the method and the path, because the
same central mechanisms answer for every view:

- 400: a write's body or an `Idempotency-Key` longer than 255 characters or holding
  control characters (and a body
  larger than DATA_UPLOAD_MAX_MEMORY_SIZE, which Django refuses with 400, not 413:
  config.api.bad_request);
- 401: a token that is not valid or has ended (any operation), a wrong password (the
  token view), nothing to log out of (the logout);
- 403: a write by someone who may not make it (a reader, a table's token outside its
  table, a late correction under the laws, a session without its CSRF token), and any
  club's operation a table's token or a reader may not see in full;
- 404: an operation whose path names rows (a club hidden from the caller is 404 too,
  and so is a path Django's URL patterns do not match: config.api.not_found), or a
  paginated list asked for a page past its last;
- 409: a write that met a stale `expected_version`, a row lock not granted in time
  (`Retry-After`), or a request with the same `Idempotency-Key` still running;
- 415: a write's body in a media type the API does not read (not JSON, a form or
  multipart), a write that takes no body among them (core.inputs.NoBodyInput);
- 422: an `Idempotency-Key` used again with a different body;
- 429: throttled (every operation with a throttle).

The API has no 412/428 (no conditional requests) and no 413. Not listed per operation:
405 (a method the path does not have) and 406 (an Accept header no renderer meets), which
HTTP's negotiation answers for any path alike. A view may still document
an error of its own with @extend_schema(responses={4xx: ...}); an entry it gives with a
body is kept, one without a body is replaced by the error shape.
"""

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

WRITES = {"POST", "PUT", "PATCH", "DELETE"}


class ErrorDetailOutput(serializers.Serializer):
    code = serializers.CharField(help_text="machine-readable, e.g. invalid, not_found, conflict")
    message = serializers.CharField(help_text="what was wrong, for people")
    field = serializers.CharField(
        allow_null=True, help_text="the field at fault as a dotted path, e.g. hands[2].tricks"
    )
    law = serializers.CharField(allow_null=True, help_text='e.g. "law 3", "ruling E6"')
    details = serializers.DictField(help_text="more, e.g. every field's errors under fields")

    class Meta:
        ref_name = "ErrorDetail"


class ErrorOutput(serializers.Serializer):
    """The one shape of every error the API answers."""

    error = ErrorDetailOutput()

    class Meta:
        ref_name = "Error"  # the component's name in the schema


ERROR = {
    "400": "Bad input: the field at fault is named in error.field.",
    "401": (
        "No valid credentials: a token that is not valid or has ended (error.code says why: "
        "token_logged_out, token_password_changed, token_expired, token_replaced; "
        "authentication_failed for "
        "a token not known or a disabled account's; a table's dead link its own), or a wrong "
        "password. error.message says it in words."
    ),
    "403": "Not allowed: the caller may not do this, or the laws forbid it now.",
    "404": "No such row, or one the caller may not see.",
    "409": (
        "Conflict: a stale expected_version, a lock not granted in time (Retry-After), or "
        "a request with the same Idempotency-Key still running; retrying is safe."
    ),
    # A write that takes no body (core.inputs.NoBodyInput): its 400s are about keys.
    "400 no body": (
        "Bad input: this takes no body, and a key sent in one, or a key of the query string "
        "it does not read, is refused (error.code unknown_key, error.field the key, "
        "error.message naming the keys it takes); so is a body that cannot be read as keys."
    ),
    "415": "The body's Content-Type is not one the API reads (JSON, a form, multipart).",
    "422": "This Idempotency-Key was used with a different request (body or query string).",
    "429": "Too many requests; wait (Retry-After) and try again.",
}


class ErrorResponsesAutoSchema(AutoSchema):
    """drf-spectacular's AutoSchema, adding to each operation the error responses it can
    answer (see the module's docstring)."""

    def error_statuses(self) -> list[str]:
        """The 4xx status codes this operation can answer."""
        write = self.method in WRITES
        names_rows = "{" in self.path
        statuses = ["401"]
        # The token view authenticates nobody: no CSRF check, no permission to refuse.
        authenticates = bool(self.view.get_authenticators())
        if write:
            statuses += ["400", "409", "422"]
            if authenticates:
                statuses.append("403")
            # A view that reads its body parses it, and one that takes none refuses a body
            # it cannot read (core.inputs.NoBodyInput): every write can answer 415.
            statuses.append("415")
        elif "{slug}" in self.path:
            statuses.append("403")
        if names_rows or (self._is_list_view() and self._get_paginator()):
            statuses.append("404")  # a row not found, or a page past the last
        if self.view.get_throttles():
            statuses.append("429")
        return sorted(statuses)

    def _takes_no_body(self) -> bool:
        """A write without a body: a DELETE (drf-spectacular gives none a body, and is not
        asked for its serializer, which for an APIView it could only guess and warn of,
        W002, failing `check --deploy`), or a POST, PUT or PATCH declaring none."""
        return self.method == "DELETE" or self.get_request_serializer() is None

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        for status in self.error_statuses():
            if responses.get(status, {}).get("content"):
                continue  # the view documents this one itself
            # Absent, or named by the view without a body: the error shape, described.
            described = ERROR[status]
            if status == "400" and self._takes_no_body():
                described = ERROR["400 no body"]
            responses[status] = self._get_response_for_code(
                OpenApiResponse(ErrorOutput, description=described), status, direction=direction
            )
        return responses
