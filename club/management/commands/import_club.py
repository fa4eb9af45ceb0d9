"""`manage.py import_club FILE [--slug NEW]`: restore a club from `export_club`'s JSON.

All or nothing, in one transaction; every row gets a new primary key, so the club
restores into a database holding other clubs. A slug in use is refused: give another
with --slug. Secretaries are linked by username where such a user exists. The rubbers are
scored again from their hands by the laws (club/backup_scoring.py): a hand they would not
accept is refused, naming its row, field and law; the report names the seats whose totals
differed from the backup's.
"""

from django.core.management.base import BaseCommand, CommandError

from club.backup import BackupError, backup_rows, club_import
from core.commandline import read_json
from core.progress import progress_bar


class Command(BaseCommand):
    help = "Restore a club from a backup written by export_club."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup, or - for standard input")
        parser.add_argument("--slug", help="import the club under this slug instead")

    def handle(self, *args, file, slug=None, **options):
        data = read_json(file)
        report: list[str] = []
        # A bar on a terminal only (none when the output is piped or captured).
        bar = progress_bar(total=backup_rows(data), unit="rows", desc="Restoring", file=self.stderr)
        try:
            with bar:
                club = club_import(data=data, slug=slug, report=report, progress=bar.update)
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        for line in report:
            self.stderr.write(line)
        self.stdout.write(f"Imported club {club.name!r} as {club.slug!r}.")
