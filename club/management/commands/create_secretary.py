"""`manage.py create_secretary CLUB USERNAME [--director]`: a new account that runs a club.

How a club's first secretary is made (README). The password is asked for twice at the
terminal, or read from an environment variable (`--password-from-env VAR`) for
scripts, never from the command line, where other users of the machine could see it.
An existing login name is refused: the club's people page
(`/secretary/clubs/<slug>/people/`) adds an existing account to a club, by a secretary
who can see whose account it is.
"""

import getpass
import os

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from club import people
from club.models import Club
from core.errors import UserError


class Command(BaseCommand):
    help = (
        "Make a new account the secretary of a club (or, with --director, a director of its "
        "tournaments). The password is asked for, or read from --password-from-env VAR."
    )

    def add_arguments(self, parser):
        parser.add_argument("club", help="the club's address (slug), as in /clubs/<slug>/")
        parser.add_argument("username", help="the new account's login name")
        parser.add_argument(
            "--director",
            action="store_true",
            help="a director of the club's tournaments only, not a secretary",
        )
        parser.add_argument(
            "--password-from-env",
            metavar="VAR",
            help="read the password from this environment variable instead of asking",
        )
        parser.add_argument("--full-name", default="", help="the name shown on the pages")

    def handle(self, *args, club, username, director, password_from_env, full_name, **options):
        found = Club.objects.filter(slug=club).first()
        if found is None:
            known = ", ".join(Club.objects.order_by("slug").values_list("slug", flat=True))
            raise CommandError(
                f"There is no club with the address {club!r}."
                + (f" The clubs are: {known}." if known else " There are no clubs yet.")
            )
        if get_user_model().objects.filter(username__iexact=username).exists():
            raise CommandError(
                f"There is an account called {username!r} already. To give it a role in "
                f"{found.name}, a secretary adds it on /secretary/clubs/{found.slug}/people/."
            )
        password = self._password(password_from_env)
        role = "director" if director else "secretary"
        try:
            with transaction.atomic():
                user, _ = people.club_officer_add(
                    club=found, username=username, role=role, password=password,
                    full_name=full_name,
                )  # fmt: skip
        except UserError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(
            self.style.SUCCESS(
                f"{user.username} is now a {people.ROLE_TITLES[role]} of {found.name}; "
                "log in at /accounts/login/."
            )
        )

    def _password(self, variable: str | None) -> str:
        if variable:
            password = os.environ.get(variable, "")
            if not password:
                raise CommandError(f"The environment variable {variable} is not set, or empty.")
            return password
        password = getpass.getpass("Password: ")
        if not password:
            raise CommandError("No password given.")
        if getpass.getpass("Password (again): ") != password:
            raise CommandError("The two passwords differ.")
        return password
