"""`manage.py replay_evening FILE`: replay an exported evening log and print the result.

On an empty database it creates the club and the evening, replays every event
through the same services the board uses (cuts carry their cards, so no randomness
is needed), and prints the evening's state as JSON: tables with seats, partners and
dealer, waiting members, consecutive rubbers, candidates, rubbers and the ledger.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from club.evening_log import evening_replay
from club.evenings import evening_summary
from club.formation import FormationError
from config.api import UserError
from core.commandline import read_json
from scoring.rules import ScoringError


class Command(BaseCommand):
    help = "Replay an evening log (docs/evening-log.md) and print the evening's state as JSON."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the exported log, or - for standard input")

    def handle(self, *args, file, **options):
        log = read_json(file)
        try:
            evening = evening_replay(log=log)
        except (UserError, FormationError, ScoringError) as exc:
            law = f" [{exc.law}]" if getattr(exc, "law", None) else ""
            raise CommandError(f"{exc.message} (field {exc.field}){law}") from exc
        summary = evening_summary(evening=evening)
        summary["evening"].pop("id")
        self.stdout.write(json.dumps(summary, indent=2, ensure_ascii=False))
