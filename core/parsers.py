"""The API's JSON parser: DRF's, refusing a body nested too deep before parsing it."""

import io
import sys

from rest_framework import parsers

from core.errors import UserError
from core.inputs import check_json_depth


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, refusing a body nested deeper than
    ``core.inputs.MAX_JSON_DEPTH`` before parsing it (the default parser of every API
    view: settings.REST_FRAMEWORK)."""

    def parse(self, stream, media_type=None, parser_context=None):
        """Read the body, check its depth, then parse it as DRF does."""
        raw = stream.read() if stream is not None else b""
        check_json_depth(raw)
        try:
            return super().parse(io.BytesIO(raw), media_type, parser_context)
        except parsers.ParseError as exc:
            # A number longer than Python reads (4300 digits): DRF passed on Python's
            # words, which advise the operator's setting (sys.set_int_max_str_digits).
            cause = exc.__context__
            if isinstance(cause, ValueError) and "int_max_str_digits" in str(cause):
                raise UserError(
                    f"The JSON body holds a number of more than {sys.get_int_max_str_digits()} "
                    "digits, which no field takes.",
                    field="body",
                    code="parse_error",
                ) from None
            raise
