"""The API's JSON parser: DRF's, refusing a body nested too deep before parsing it."""

import io

from rest_framework import parsers

from core.inputs import check_json_depth


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, refusing a body nested deeper than
    ``core.inputs.MAX_JSON_DEPTH`` before parsing it (the default parser of every API
    view: settings.REST_FRAMEWORK)."""

    def parse(self, stream, media_type=None, parser_context=None):
        """Read the body, check its depth, then parse it as DRF does."""
        raw = stream.read() if stream is not None else b""
        check_json_depth(raw)
        return super().parse(io.BytesIO(raw), media_type, parser_context)
