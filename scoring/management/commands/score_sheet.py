"""`manage.py score_sheet FILE`: score a scoresheet (docs/scoresheet.md) and print the JSON.

The same scoring as `POST /api/v1/scoresheets/score`; nothing is stored. `-` reads
standard input.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from core.commandline import read_json
from scoring.rules import ScoringError
from scoring.sheet import score_sheet


class Command(BaseCommand):
    help = "Score a scoresheet JSON file under the laws and print the result as JSON."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the scoresheet, or - for standard input")

    def handle(self, *args, file, **options):
        data = read_json(file)  # the endpoint's depth bound too (core.commandline)
        try:
            result = score_sheet(data)
        except ScoringError as exc:
            where = f" (field {exc.field})" if exc.field else ""
            law = f" [{exc.law}]" if exc.law else ""
            raise CommandError(f"{exc.message}{where}{law}") from exc
        self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False))
