"""`manage.py export_club SLUG > club.json`: back up a club, everything it owns, as JSON.

The document (club.backup) restores with `manage.py import_club`, into this database
under another slug or into another database.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from club.backup import club_export
from club.models import Club


class Command(BaseCommand):
    help = "Write a club and everything it owns as one JSON document (restore: import_club)."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the club's slug")

    def handle(self, *args, slug, **options):
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(f"No club has the slug {slug!r}.")
        self.stdout.write(json.dumps(club_export(club=club), indent=1, ensure_ascii=False))
