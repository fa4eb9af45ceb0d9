"""`manage.py quickstart`: migrate, load the demo club, print the addresses, serve."""

from django.core.management import call_command
from django.core.management.base import BaseCommand

from club.models import Evening


class Command(BaseCommand):
    help = (
        "Set up the database, load the demo club and serve the site (the README's first command)."
    )

    def add_arguments(self, parser):
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument(
            "--no-serve", action="store_true", help="set up and print, but do not serve"
        )

    def handle(self, *args, addrport, no_serve, **options):
        call_command("migrate", interactive=False, verbosity=0)
        call_command("load_demo", verbosity=options["verbosity"])
        base = f"http://{addrport}"
        evening = Evening.objects.filter(club__slug="somerset", title="Demo evening").first()
        table = evening.tables.order_by("number").first() if evening else None
        self.stdout.write(
            self.style.SUCCESS("\nThe card club service is ready.\n")
            + f"  Secretary's pages: {base}/secretary/   (log in as secretary / cut-for-partners)\n"
            + (f"  The demo evening:  {base}/secretary/evenings/{evening.pk}/\n" if evening else "")
            + (f"  Table 1's phone:   {base}/t/{table.token}/\n" if table else "")
            + f"  Live standings:    {base}/clubs/somerset/tournaments/winter/\n"
            + f"  Public pages:      {base}/clubs/somerset/\n"
            + f"  API docs:          {base}/api/docs/\n"
            + f"  Admin:             {base}/admin/\n"
            + f"  Health:            {base}/healthz\n"
        )
        if not no_serve:
            call_command("runserver", addrport, use_reloader=False)
