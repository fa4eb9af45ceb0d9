"""What the management commands share: reading the JSON file they are given."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from core.inputs import MAX_JSON_DEPTH, json_depth_exceeds


def read_json(file: str) -> Any:
    """The JSON in `file` (standard input for "-"). A file that cannot be read, is not
    UTF-8 JSON, or nests deeper than the API accepts (`core.inputs.MAX_JSON_DEPTH`: Python's
    parser would end in a RecursionError) is a CommandError saying which and why."""
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot read {file}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise CommandError(f"{file} is not UTF-8 text: {exc}") from exc
    if json_depth_exceeds(text.encode()):
        raise CommandError(
            f"{file} nests deeper than {MAX_JSON_DEPTH} levels of arrays and objects"
        )
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CommandError(f"{file} is not JSON: {exc}") from exc
