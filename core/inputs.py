"""Checks on raw input shared by every door: JSON bodies and the HTML forms' fields.

- A JSON body may nest at most ``MAX_JSON_DEPTH`` arrays and objects deep. The depth is
  counted on the bytes before parsing, because Python's parser recurses once a level and a
  few thousand ``[`` end in a RecursionError (a 500) rather than a refusal.
- A whole number typed into a form is ASCII digits only: ``str.isdigit`` and ``int`` accept
  "²" or "٣" (and ``isdigit`` passes "²" which ``int`` then refuses with a crash).
- A moment a device names (`MomentField`: when the hand it saw was recorded) is ISO 8601
  with its offset, as the API gives it: a moment without one would be read in the
  server's time zone, and then match no hand, refused as "another hand" rather than as
  the mistake it is.
- A search box's text (``?name=``, ``?player=``) holds no NUL: PostgreSQL's text cannot,
  and a query with one in it was a 500 rather than "no such player" (``search_text``).
"""

from __future__ import annotations

import contextlib
import decimal
import re
from collections.abc import Collection, Mapping
from typing import Any

from django.utils.dateparse import parse_datetime
from rest_framework import serializers

from core.amounts import in_digits
from core.errors import UserError
from core.quoted import cut, quoted

#: The deepest a JSON body may nest (arrays and objects). The deepest shape the API
#: documents (a scoresheet's hand's honours) is four levels; 32 leaves ample room.
MAX_JSON_DEPTH = 32

#: The longest whole number a form field may carry (a version or a count never needs more).
MAX_DIGITS = 9

#: The code of `whole_number`'s refusal, whose words ("Give a whole number, ...") name no
#: field: a page names it before them (club.phone.named_refusal).
NOT_DIGITS = "not_digits"

# A JSON string (skipped whole, brackets in it do not count) or one bracket.
_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)


def json_depth_exceeds(raw: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether ``raw`` (a JSON text, UTF-8) nests arrays and objects deeper than ``limit``.

    Brackets inside strings are not counted; the text need not be valid JSON (the parser
    says what else is wrong with it). One pass of a regular expression, no recursion.
    """
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False  # cannot be deeper than its number of opening brackets
    depth = 0
    for match in _TOKEN.finditer(raw):
        token = match.group()
        if token in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return True
        elif token in (b"]", b"}"):
            depth -= 1
    return False


def check_json_depth(raw: bytes, limit: int = MAX_JSON_DEPTH) -> None:
    """Refuse (a UserError on the field ``body``) a JSON text nesting deeper than ``limit``."""
    if json_depth_exceeds(raw, limit):
        raise UserError(
            f"The JSON body nests deeper than {limit} levels of arrays and objects.",
            field="body",
            code="too_deep",
            details={"max_depth": limit},
        )


def whole_number(
    data: Mapping[str, Any],
    name: str,
    *,
    field: str | None = None,
    default: int | None = None,
    signed: bool = False,
) -> int | None:
    """A form field holding a whole number written in ASCII digits (``-`` first if signed).

    An empty or missing field gives ``default``; anything else that is not such a number
    (other scripts' digits, superscripts, words, a list of values, more than
    ``MAX_DIGITS`` digits) is a UserError naming ``field`` (default: ``name``), its code
    ``NOT_DIGITS``.
    """
    value = data.get(name)
    if value is None:
        return default
    if not isinstance(value, str):
        value = str(value)
    text = value.strip()
    if text == "":
        return default
    digits = text[1:] if signed and text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_DIGITS:
        raise UserError(_digits_refusal(signed=signed), field=field or name, code=NOT_DIGITS)
    return int(text)


def _digits_refusal(*, signed: bool) -> str:
    what = "a whole number" if signed else "a whole number, nothing below nought"
    return f"Give {what}, in the digits 0 to 9, at most {MAX_DIGITS} of them."


class WholeNumberField(serializers.IntegerField):
    """DRF's IntegerField for the API's input, taking a number given as text only in ASCII
    digits, as a form does (`whole_number`): `int` reads "٣" (an Arabic-Indic three) as 3,
    so the API took what the phone's form refuses. The same mistake gets the same refusal
    at both doors (issue 12); a number given as a JSON number is as DRF takes it."""

    default_error_messages = {"digits": _digits_refusal(signed=True)}

    def to_internal_value(self, data):
        if isinstance(data, str) and not data.isascii():
            self.fail("digits")
        return super().to_internal_value(data)


def _read_as_decimal(text: str) -> bool:
    try:
        decimal.Decimal(text.strip())
    except decimal.InvalidOperation:
        return False
    return True


class AmountField(serializers.DecimalField):
    """DRF's DecimalField for an amount (an evening's stake), taking text only in the digits
    0 to 9 with at most one point (core.amounts): `Decimal` reads an amount in Arabic-Indic
    digits as ours, "1e3" as 1000, and "1_000", which a progressive's stake
    (tournaments.services) and the rule sets' `parse_stake` refuse."""

    default_error_messages = {
        "digits": "Give the amount in the digits 0 to 9, with a point before the pence, such "
        'as "0.25" (ruling M1).'
    }

    def to_internal_value(self, data):
        # Text Decimal reads that is not written as the forms say ("1e3", "NaN", "Infinity",
        # "1_000", other scripts' digits) is refused in these words; no amount at all
        # ("a quarter"), as DRF refuses it.
        read = isinstance(data, str) and (not data.isascii() or _read_as_decimal(data))
        if read and not in_digits(data):
            self.fail("digits")
        return super().to_internal_value(data)


class MomentField(serializers.DateTimeField):
    """A moment as the API gives one (a hand's `recorded_at`): ISO 8601 with its offset,
    to the microsecond, e.g. 2025-11-21T20:15:03.123456+00:00. Every refusal says so in
    words, naming the field; one without an offset is refused, not read in the server's
    time zone."""

    def __init__(self, *, words: str, **kwargs):
        refusal = (
            f"{words} is not a moment as the API gives one: ISO 8601 with its offset, e.g. "
            "2025-11-21T20:15:03.123456+00:00. Send it as the API's answer gave it."
        )
        kwargs["error_messages"] = {
            "invalid": refusal,
            "date": refusal,
            "naive": refusal,
            "make_aware": refusal,
            "overflow": refusal,
            **kwargs.get("error_messages", {}),
        }
        super().__init__(**kwargs)

    def to_internal_value(self, value):
        if isinstance(value, str):
            parsed = None
            with contextlib.suppress(ValueError):
                parsed = parse_datetime(value)
            if parsed is not None and parsed.tzinfo is None:
                self.fail("naive")
        return super().to_internal_value(value)


def search_text(data: Mapping[str, Any], name: str, *, max_length: int) -> str:
    """What a search box (a query parameter) asks for: stripped, at most ``max_length``
    characters, and without NUL characters, which no name holds and PostgreSQL's text
    cannot (a ``?player=%00`` sent into a query was a 500)."""
    value = data.get(name) or ""
    return value.replace("\x00", "").strip()[:max_length]


# --- an API body's keys -----------------------------------------------------------------------

#: The code of the refusal of a key a body's endpoint does not know, as an evening's action
#: refuses a key its type does not take (club.evenings).
UNKNOWN_KEY = "unknown_key"
#: A key any body may carry besides its own: the CSRF token a browser's form sends (the API
#: reads form encodings too, settings.REST_FRAMEWORK's parsers). It is never read as input.
ANY_BODY_KEYS = frozenset({"csrfmiddlewaretoken"})
#: A query key any write may carry besides its own: DRF's format override (`?format=json`,
#: REST_FRAMEWORK's URL_FORMAT_OVERRIDE), which chooses the answer's renderer.
ANY_QUERY_KEYS = frozenset({"format"})
#: At most this much of an unknown key is repeated in the refusal (a key of a megabyte).
_KEY_SHOWN = 40


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


class BodyInput(serializers.Serializer):
    """The base of every API body's serializer: a key the body's endpoint does not know is
    refused, and nothing is written (docs/architecture.md, "Unknown keys are refused").

    A misspelt or misremembered key was ignored: `evening_ids` for a ladder's `evenings`
    made a ladder with no evenings, answered 201. Now it is a 400 in the API's error shape
    (config.api): `code` "unknown_key", `field` the key's path (`rubbers[0].outcom`), and
    the message names the keys the endpoint does take, in words. Nested bodies (a list of
    answers, a hand's honours) are checked the same way, each by its own serializer.

    A serializer declares each key it takes as a field, those its view reads beside the
    validated data among them (an expected version). ``other_keys_checked_by`` is set (to
    where) when the keys besides the fields are a service's to check, which refuses an
    unknown one itself (an evening's action, whose keys depend on its type: club.evenings).

    A view that reads the body itself rather than validating it with its serializer (the
    service checking each value in its own words) still refuses unknown keys with
    ``check_keys``.
    """

    other_keys_checked_by: str | None = None

    def known_keys(self) -> list[str]:
        """The keys this body takes, in the order the schema lists them."""
        return list(self.fields)

    def _unknown_message(self, key: str) -> str:
        return (
            f"Unknown key {quoted(key)}: this takes {_listed(self.known_keys())} "
            "(no other key is read)."
            if self.known_keys()
            else f"Unknown key {quoted(key)}: this takes no body (nothing in it is read)."
        )

    def _first_unknown(self, data: Mapping) -> str | None:
        if self.other_keys_checked_by is not None:
            return None
        known = set(self.known_keys()) | ANY_BODY_KEYS
        return next((key for key in data if key not in known), None)

    def to_internal_value(self, data):
        if isinstance(data, Mapping) and (key := self._first_unknown(data)) is not None:
            message = self._unknown_message(str(key))
            raise serializers.ValidationError(
                {str(key)[:_KEY_SHOWN]: [serializers.ErrorDetail(message, code=UNKNOWN_KEY)]}
            )
        try:
            return super().to_internal_value(data)
        except serializers.ValidationError as exc:
            raise serializers.ValidationError(_choices_cut(exc.detail)) from exc

    @classmethod
    def check_keys(cls, data: Any, *, field: str = "") -> None:
        """Refuse the first unknown key anywhere in the body's declared shape (a UserError,
        400: `field` its path), for a view that passes the body's values to a service
        rather than validating them here. Values of the wrong shape are the service's."""
        cls()._check_keys(data, field)

    def _check_keys(self, data: Any, prefix: str) -> None:
        if not isinstance(data, Mapping):
            return
        if (key := self._first_unknown(data)) is not None:
            shown = str(key)[:_KEY_SHOWN]
            path = f"{prefix}.{shown}" if prefix else shown
            raise UserError(self._unknown_message(str(key)), field=path, code=UNKNOWN_KEY)
        for name, field in self.fields.items():
            value = data.get(name)
            child = getattr(field, "child", None)
            path = f"{prefix}.{name}" if prefix else name
            if isinstance(field, BodyInput):
                field._check_keys(value, path)
            elif isinstance(child, BodyInput) and isinstance(value, list):
                for index, item in enumerate(value):
                    child._check_keys(item, f"{path}[{index}]")


# DRF's refusal of a choice, which repeats the value refused whole ("invalid_choice").
_NOT_A_CHOICE = re.compile(r'"(.*)" is not a valid choice\.', re.DOTALL)


def _choices_cut(detail: Any) -> Any:
    """A DRF ValidationError's detail with each refused choice it repeats cut as every
    refusal cuts the value it names (core.quoted): a 10,000-character `kind` filled the
    message to its cap (core.echo.ECHO_MAX) and cut off "is not a valid choice"."""
    if isinstance(detail, dict):
        return {key: _choices_cut(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_choices_cut(value) for value in detail]
    if isinstance(detail, serializers.ErrorDetail) and detail.code == "invalid_choice":
        match = _NOT_A_CHOICE.fullmatch(str(detail))
        if match:
            return serializers.ErrorDetail(
                f'"{cut(match[1])}" is not a valid choice.', code=detail.code
            )
    return detail


class NoBodyInput(BodyInput):
    """The body of a write that takes none (a logout, a rubber's close, a member's
    removal, a progressive's bye...): any key in it is refused as a body's unknown key
    is, code "unknown_key", `field` the key, "this takes no body" in words, and nothing is
    done. Sent no body, or only a browser form's CSRF token, the write goes ahead. So is a
    key of its query that it does not read (`?reasn=` for a taking back's `?reason=`):
    it was ignored, the write done as if it had been read."""

    @classmethod
    def refuse_unknown_query_key(cls, request, query: Collection[str] = ()) -> None:
        """Refuse the first key of the request's query string that the write does not read
        (`query`, besides ANY_QUERY_KEYS): a UserError, 400, code "unknown_key", `field`
        the key, the message naming the keys it takes, in words."""
        known = set(query) | ANY_QUERY_KEYS
        key = next((key for key in request.query_params if key not in known), None)
        if key is None:
            return
        shown = str(key)[:_KEY_SHOWN]
        takes = (
            f"this takes {_listed([quoted(k) for k in sorted(query)])} in its query"
            " (no other key is read)"
            if query
            else "this takes no query (nothing in it is read)"
        )
        raise UserError(
            f"Unknown query key {quoted(str(key))}: {takes}.", field=shown, code=UNKNOWN_KEY
        )

    @classmethod
    def refuse_any_key(cls, request, *, query: Collection[str] = ()) -> None:
        """Refuse the request's body (a UserError) before anything is written, when it has
        a key (400, code "unknown_key", `field` the key) or cannot be read as keys at all:
        a body of a type the API does not read (text/plain: 415) or JSON that is no object
        (an array, a string: 400), which were ignored as if read, the write done. The view
        calls it once it has found what the request is about. An empty body, whatever its
        type, is no body. Then a key of the query string not in `query` (the keys the write
        reads there, a taking back's `reason`) is refused the same way, naming the key."""
        from rest_framework.exceptions import ParseError, UnsupportedMediaType

        try:
            data = request.data
        except ParseError as exc:
            raise UserError(
                f'This takes no body, and what was sent as "{_shown_type(request)}" cannot be '
                "read as one: send none (or an empty JSON object, {}).",
                field="body",
                code="parse_error",
            ) from exc
        except UnsupportedMediaType as exc:
            raise BodyNotRead(
                f'This takes no body, and a body of type "{_shown_type(request)}" is not read: '
                "send none (or an empty JSON object, {})."
            ) from exc
        if not isinstance(data, Mapping):
            raise UserError(
                f"This takes no body, and {_json_kind(data)} is not one: send none (or an "
                "empty JSON object, {}).",
                field="body",
            )
        cls.check_keys(data)
        cls.refuse_unknown_query_key(request, query)


class BodyNotRead(UserError):
    """A body of a media type the API does not read (415, as DRF's parsers answer it)."""

    status_code = 415
    default_code = "unsupported_media_type"


def _shown_type(request) -> str:
    """The request's media type as a refusal names it (no parameters, at most 40
    characters: a header is the caller's text)."""
    media = (request.content_type or "").split(";", 1)[0].strip()
    return media if len(media) <= _KEY_SHOWN else f"{media[:_KEY_SHOWN]}…"


def _json_kind(value: Any) -> str:
    """A parsed JSON value's kind in words: "a JSON array", "JSON null"."""
    if value is None:
        return "JSON null"
    if isinstance(value, bool):
        return "a JSON true or false"
    if isinstance(value, str):
        return "a JSON string"
    if isinstance(value, list):
        return "a JSON array"
    return "a JSON number"
