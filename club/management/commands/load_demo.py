"""`manage.py load_demo`: a demo club a newcomer can look around in. Safe to run twice.

It loads a secretary, ten members, a winter ladder, and an evening in progress built
through the same services the board uses: ten arrivals, two tables formed by cutting,
a rubber finished at table 1 (with its cut-outs) and hands under way at both tables;
and a progressive tournament with its first round seated, one table played out.
"""

import datetime
import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from club import evenings, recording
from club.formation import engine
from club.models import Club, Evening, Member
from tournaments import rounds
from tournaments.models import Tournament
from tournaments.services import tournament_create

DEMO_PLAYERS = [
    "Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Hugh", "Iris", "Jack",
]  # fmt: skip
DEMO_PASSWORD = "cut-for-partners"
MARCH, THREE = {"makers": "NS", "tricks": 5}, {"makers": "NS", "tricks": 3}


class Command(BaseCommand):
    help = "Load the demo club: a secretary, members, a ladder and an evening in progress."

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
        if Evening.objects.filter(club=club, title="Demo evening").exists():
            self.stdout.write("Demo club 'somerset' is loaded already.")
            return
        evening = evenings.evening_open(
            club=club,
            date=datetime.date.today(),
            ruleset="euchre-somerset-1888",
            stake="0.25",
            title="Demo evening",
        )
        if not Tournament.objects.filter(club=club, slug="winter").exists():
            tournament_create(
                club=club, name="Winter ladder", slug="winter", kind="ladder",
                evening_ids=[evening.pk],
            )  # fmt: skip
        self._play(evening, secretary)
        if not Tournament.objects.filter(club=club, slug="thanksgiving").exists():
            self._progressive(club, secretary)
        self.stdout.write(
            f"Demo club 'somerset' loaded: {len(DEMO_PLAYERS)} members, an evening, a ladder "
            "and a progressive."
        )

    def _progressive(self, club, secretary):
        """A progressive of four deals a round for eight of the members: round 1 seated by
        the rotation chart from cards cut as given (ruling T10), its table 1 played out and
        table 2 under way, for the director's page and the tables' sheets."""
        tournament = tournament_create(
            club=club, name="Thanksgiving progressive", slug="thanksgiving",
            kind="progressive", ruleset="euchre-somerset-1888", movement="rotation",
            deals_per_round=4, rounds_planned=7,
        )  # fmt: skip
        for name in DEMO_PLAYERS[:8]:
            rounds.tournament_enter(tournament=tournament, name=name)
        cut = ["AS", "KH", "QD", "JC", "10S", "9H", "8D", "7C"]  # no tie: no second cut
        played = rounds.round_seat_next(
            tournament_id=tournament.pk,
            user=secretary,
            cards={name: [card] for name, card in zip(DEMO_PLAYERS[:8], cut, strict=True)},
        )
        first, second = played.tables.order_by("number")
        for deal in (MARCH, THREE, {"makers": "EW", "tricks": 4}, THREE):
            recording.hand_record(rubber_id=first.rubber_id, data=deal, user=secretary)
        recording.hand_record(rubber_id=second.rubber_id, data=THREE, user=secretary)

    def _play(self, evening, secretary):
        """Ten arrive, two tables are cut, one rubber is played out, hands under way."""
        rng = random.Random(1888)  # a seeded draw, so every newcomer sees the same evening

        def act(**event):
            evenings.evening_act(evening_id=evening.pk, event=event, user=secretary)

        def draw_all():
            while True:
                evening.refresh_from_db()
                drawn = engine.draw_event(evenings.evening_state(evening), rng)
                if drawn is None:
                    return
                act(**drawn)

        def hands(number, played):
            for hand in played:
                recording.hand_record(
                    evening_id=evening.pk, table_number=number, data=hand, user=secretary
                )

        for name in DEMO_PLAYERS:
            act(type="arrive", player=name)
        act(type="form_table")
        draw_all()
        act(type="form_table")
        draw_all()
        # N-S win two double games; E-W take the third (always played, ruling E1), double
        # too, with a lone march: the rubber is worth 2 + 2 + 2 - 2 = 4 (ruling E4).
        lone_march, three_ew = (
            {"makers": "EW", "tricks": 5, "alone": True},
            {"makers": "EW", "tricks": 3},
        )
        euchred = {"makers": "EW", "tricks": 2}
        hands(1, [MARCH, THREE, MARCH, THREE, euchred, MARCH, lone_march, three_ew])
        draw_all()  # the cut-outs at table 1 and the next rubber's partners
        hands(1, [THREE, {"makers": "EW", "tricks": 4}])
        hands(2, [MARCH, {"makers": "EW", "tricks": 3}, THREE])
