"""A private club in play, built through the real services, for the tests that try every
endpoint (the permission matrix, the schema fuzzing)."""

import datetime
from decimal import Decimal
from types import SimpleNamespace

from club import evenings, recording
from tests.factories import ClubFactory, MemberFactory, UserFactory
from tournaments.services import tournament_create


def club_in_play(capture_on_commit) -> SimpleNamespace:
    """Club "somerset" (private) with its secretary, four members, a ladder "winter" over
    an evening whose table 1 is playing a rubber with one hand recorded.

    `capture_on_commit` is pytest-django's django_capture_on_commit_callbacks fixture, so
    the standings are computed as after a commit.
    """
    secretary = UserFactory(username="secretary")
    club = ClubFactory(slug="somerset", is_public=False, secretaries=[secretary])
    members = {n: MemberFactory(club=club, name=n) for n in ["Ann", "Bob", "Cora", "Dan"]}
    evening = evenings.evening_open(
        club=club,
        date=datetime.date(1888, 11, 21),
        ruleset="euchre-somerset-1888",
        stake=Decimal("0.25"),
    )
    with capture_on_commit(execute=True):
        tournament_create(
            club=club, name="Winter", slug="winter", kind="ladder", evening_ids=[evening.pk]
        )
        for name in members:
            evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
        evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
        evenings.evening_act(
            evening_id=evening.pk,
            event={"type": "cut", "cards": {"Ann": "JS", "Bob": "AS", "Cora": "KS", "Dan": "QS"}},
        )
        recording.hand_record(
            evening_id=evening.pk, table_number=1, data={"makers": "NS", "tricks": 3}
        )
    return SimpleNamespace(
        club=club,
        secretary=secretary,
        members=members,
        evening=evening,
        table=evening.tables.get(number=1),
        rubber=evening.rubbers.get(),
    )
