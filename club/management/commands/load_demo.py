"""`manage.py load_demo`: a demo club a newcomer can look around in. Safe to run twice."""

import datetime

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from club.models import Club, Evening, Member

DEMO_PLAYERS = [
    "Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Hugh", "Iris", "Jack",
]  # fmt: skip
DEMO_PASSWORD = "cut-for-partners"


class Command(BaseCommand):
    help = "Load the demo club: a secretary, members and an evening in progress."

    @transaction.atomic
    def handle(self, *args, **options):
        users = get_user_model()
        secretary, created = users.objects.get_or_create(
            username="secretary", defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            secretary.set_password(DEMO_PASSWORD)
            secretary.save()
        club, _ = Club.objects.get_or_create(
            slug="somerset", defaults={"name": "Somerset Card Club", "currency": "USD"}
        )
        club.secretaries.add(secretary)
        for name in DEMO_PLAYERS:
            Member.objects.get_or_create(club=club, name=name)
        Evening.objects.get_or_create(
            club=club,
            title="Demo evening",
            defaults={
                "date": datetime.date.today(),
                "ruleset": "euchre-somerset-1888",
                "stake": "0.25",
            },
        )
        self.stdout.write(f"Demo club {club.slug!r} loaded ({len(DEMO_PLAYERS)} members).")
