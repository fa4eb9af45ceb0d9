"""`manage.py score_sheet FILE`: score a scoresheet (docs/scoresheet.md) and print the JSON.

The same scoring as `POST /api/v1/scoresheets/score`; nothing is stored. `-` reads
standard input.
"""

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from core.inputs import MAX_JSON_DEPTH, json_depth_exceeds
from scoring.rules import ScoringError
from scoring.sheet import score_sheet


class Command(BaseCommand):
    help = "Score a scoresheet JSON file under the laws and print the result as JSON."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the scoresheet, or - for standard input")

    def handle(self, *args, file, **options):
        try:
            text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc.strerror}") from exc
        if json_depth_exceeds(text.encode()):  # the endpoint's bound (a RecursionError)
            raise CommandError(f"{file} nests deeper than {MAX_JSON_DEPTH} levels")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CommandError(f"{file} is not JSON: {exc}") from exc
        try:
            result = score_sheet(data)
        except ScoringError as exc:
            where = f" (field {exc.field})" if exc.field else ""
            law = f" [{exc.law}]" if exc.law else ""
            raise CommandError(f"{exc.message}{where}{law}") from exc
        self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False))
