"""The standings' outbox note (`services.standings_note_change`) marks a rubber's players
in exactly the tournaments `services.tournaments_counting` finds for it: on PostgreSQL
the note is one SQL statement of its own (it is on every hand's path), written beside
that queryset, and the two must not drift apart."""

from tests.factories import EveningFactory
from tests.tournaments.conftest import start
from tournaments import rounds, services
from tournaments.models import StandingsDirty


def _marked_as_counted(rubber) -> tuple[set, set]:
    StandingsDirty.objects.all().delete()
    services.standings_note_change(rubber=rubber)
    marked = set(StandingsDirty.objects.values_list("tournament_id", "member_id"))
    players = list(rubber.seats.values_list("member_id", flat=True))
    counting = services.tournaments_counting(rubber).values_list("pk", flat=True)
    return marked, {(t, m) for t in counting for m in players}


def test_a_rubber_at_a_ladders_evening_is_noted_in_that_ladder_alone(club, ladder, evening):
    other_evening = EveningFactory(club=club)
    services.tournament_create(
        club=club, name="Other", slug="other", kind="ladder", evening_ids=[other_evening.pk]
    )
    rubber = start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"])
    marked, expected = _marked_as_counted(rubber)
    assert marked == expected
    assert {t for t, _ in marked} == {ladder.pk}


def test_a_progressive_rounds_rubber_is_noted_in_the_progressive(make):
    progressive = make("rotation")
    seated = rounds.round_seat_next(tournament_id=progressive.pk)
    rubber = seated.tables.select_related("rubber").first().rubber
    marked, expected = _marked_as_counted(rubber)
    assert marked == expected
    assert {t for t, _ in marked} == {progressive.pk}
