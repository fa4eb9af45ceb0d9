"""make_season: a small generated season is valid, stored exactly as the scoring service
stores hands, ranked right by the standings, and the same for the same seed."""

from collections import defaultdict
from decimal import Decimal

import pytest
from django.core.management import call_command

from club import recording
from club.models import Club, Evening, Member
from scoring import services as scoring
from scoring.models import SEAT_TOTALS, Game, Hand, HandCorrection, HandScore, Rubber, Settlement
from scoring.rules import RULESETS
from tournaments import counting
from tournaments import services as standings
from tournaments.management.season import season_make
from tournaments.models import RoundTable, StandingsVersion, Tournament
from tournaments.selectors import standings_published

SEAT_FACTS = [name for name in SEAT_TOTALS if name != "evening"]
SIZE = {"players": 24, "evenings": 4, "hands": 800}


@pytest.fixture
def season(db):
    report = season_make(club_slug="gen", seed=7, **SIZE)
    return Club.objects.get(slug="gen"), report


def _rubber_rows(rubber: Rubber) -> dict:
    """Everything the scoring service writes for a rubber, without ids or times."""
    return {
        "rubber": (rubber.ruleset, rubber.options, rubber.players, rubber.stake, rubber.status,
                   rubber.winner, rubber.value, rubber.summary, rubber.hand_count),
        # With the seats' roll-up: the generator sums it as the service's SQL does (and
        # each seat names its rubber's evening: checked in the test below).
        "seats": list(rubber.seats.values_list("member_id", "side", "position", *SEAT_FACTS)),
        "hands": list(rubber.hands.order_by("number").values_list(
            "number", "data", "tricks", "points", "lines", "facts", "game_won")),
        "scores": sorted(HandScore.objects.filter(rubber=rubber).values_list(
            "hand__number", "member_id", "side", "points", "march", "lone_made", "euchred",
            "honours")),
        "games": list(Game.objects.filter(rubber=rubber).order_by("number").values_list(
            "number", "winner", "value", "lap", "scores", "detail")),
        "money": sorted(Settlement.objects.filter(rubber=rubber).values_list(
            "member_id", "amount")),
    }  # fmt: skip


def test_the_season_has_the_size_asked_for(season):
    club, report = season
    assert report.hands == SIZE["hands"]
    assert Hand.objects.filter(rubber__club=club).count() == SIZE["hands"]
    assert Member.objects.filter(club=club).count() == SIZE["players"]
    assert Evening.objects.filter(club=club).count() == SIZE["evenings"]
    assert HandScore.objects.filter(rubber__club=club).count() == report.hand_scores
    assert set(Rubber.objects.filter(club=club).values_list("ruleset", flat=True)) <= set(RULESETS)
    # The last evening is still open; every rubber of the closed ones is finished.
    assert Evening.objects.filter(club=club, status="open").count() == 1
    closed = Rubber.objects.filter(club=club, evening__status="closed")
    assert not closed.exclude(status="complete").exists()
    # Ladders (the season's and each year's) and a progressive with its rounds' rubbers.
    kinds = set(Tournament.objects.filter(club=club).values_list("kind", flat=True))
    assert kinds == {"ladder", "progressive"}
    assert RoundTable.objects.filter(round__tournament__club=club).exists()


def test_every_rubber_is_stored_as_the_scoring_service_stores_it(season):
    """Replay each generated rubber's hands through the service, into a twin rubber of the
    same players, and compare every row the service writes."""
    club, _ = season
    for rubber in Rubber.objects.filter(club=club).order_by("pk"):
        twin = scoring.rubber_start(
            club=club, ruleset=rubber.ruleset, players=rubber.players, stake=rubber.stake
        )
        for data in rubber.hands.order_by("number").values_list("data", flat=True):
            recording.hand_record(rubber_id=twin.pk, data=data)
        if rubber.is_complete and not rubber.rules.partnership:
            recording.sitting_close(rubber_id=twin.pk)
        twin.refresh_from_db()
        assert _rubber_rows(twin) == _rubber_rows(rubber), rubber
        assert {seat.evening_id for seat in rubber.seats.all()} == {rubber.evening_id}


def test_corrections_keep_the_first_record_beside_the_hand(season):
    club, report = season
    corrections = HandCorrection.objects.filter(hand__rubber__club=club).select_related("hand")
    assert corrections.count() == report.corrections
    for correction in corrections:
        hand = correction.hand
        assert hand.correction_count == 1
        assert correction.data == hand.data
        assert correction.previous_data != hand.data
        rules = hand.rubber.rules
        # The first record scored as the rule set scores it in the same state.
        earlier = hand.rubber.hands.filter(number__lt=hand.number).order_by("number")
        state = rules.start(hand.rubber.options, hand.rubber.players)
        for data in earlier.values_list("data", flat=True):
            state, _ = rules.apply(state, rules.validate_hand(state, data))
        _, first = rules.apply(state, rules.validate_hand(state, correction.previous_data))
        assert correction.previous_points == first.points
        assert correction.law == (rules.correction_law or "ruling E9")
        assert correction.kind == "free" or correction.reason


def _expected_metrics(tournament: Tournament) -> dict[int, dict]:
    """A tournament's figures worked out in Python from the stored hands and rubbers alone."""
    members = dict(Member.objects.filter(club=tournament.club).values_list("name", "pk"))
    totals: dict[int, dict] = defaultdict(lambda: defaultdict(int))
    for rubber in counting.counted_rubbers(tournament).prefetch_related("hands", "games"):
        partnership = rubber.rules.partnership
        seats = (
            [(n, s) for s in ("NS", "EW") for n in rubber.players[s]]
            if partnership
            else [(n, "") for n in rubber.players]
        )
        for hand in rubber.hands.all():
            for name, side in seats:
                got = hand.points[side] if side else hand.points[name]
                if isinstance(got, dict):  # Bridge: above and below the line
                    got = got["above"] + got["below"]
                totals[members[name]]["points"] += got
                totals[members[name]]["hands"] += 1
        if rubber.is_complete:
            for name, side in seats:
                row = totals[members[name]]
                row["rubbers_played"] += 1
                if side:
                    won = side == rubber.winner
                    row["rubbers_won"] += won
                    row["net_rubber_points"] += rubber.value if won else -rubber.value
        for game in rubber.games.all():
            for name, side in seats:
                totals[members[name]]["games_won"] += side == game.winner
    for member_id, amount in Settlement.objects.filter(
        rubber__in=counting.counted_rubbers(tournament)
    ).values_list("member_id", "amount"):
        totals[member_id]["stake_won"] += amount
    return totals


METRICS = ["points", "hands", "rubbers_played", "rubbers_won", "net_rubber_points", "games_won"]


def test_published_standings_match_the_stored_hands(season):
    club, report = season
    assert {t["slug"] for t in report.tournaments} == set(
        Tournament.objects.filter(club=club).values_list("slug", flat=True)
    )
    for tournament in Tournament.objects.filter(club=club):
        version = StandingsVersion.objects.get(
            tournament=tournament, number=tournament.standings_version
        )
        assert version.kind == "full"
        expected = _expected_metrics(tournament)
        rows = standings_published(tournament=tournament)["rows"]
        published = {row["member"]: row["metrics"] for row in rows}
        assert set(published) == set(expected), tournament.slug
        for member_id, row in published.items():
            want = expected[member_id]
            assert {k: row[k] for k in METRICS} == {k: want[k] for k in METRICS}
            assert Decimal(row["stake_won"]) == want["stake_won"]
        # And a recalculation from scratch publishes the same standings again.
        again = standings.standings_full_recalculation(tournament_id=tournament.pk)
        tournament.refresh_from_db()
        assert again.number == version.number + 1
        assert standings_published(tournament=tournament)["rows"] == rows


def _content(club: Club) -> list:
    """The season without ids, times or secrets: what the seed decides."""
    names = dict(Member.objects.filter(club=club).values_list("pk", "name"))
    rubbers = []
    for rubber in Rubber.objects.filter(club=club).order_by("pk"):
        rows = _rubber_rows(rubber)
        rows["seats"] = [(names[m], *rest) for m, *rest in rows["seats"]]
        rows["scores"] = [(n, names[m], *rest) for n, m, *rest in rows["scores"]]
        rows["money"] = [(names[m], amount) for m, amount in rows["money"]]
        rubbers.append((rubber.evening.date, rubber.table.number, rows))
    return rubbers


def test_the_same_seed_makes_the_same_season(db):
    season_make(club_slug="one", seed=11, players=16, evenings=3, hands=300)
    season_make(club_slug="two", seed=11, players=16, evenings=3, hands=300)
    season_make(club_slug="three", seed=12, players=16, evenings=3, hands=300)
    one, two, three = (_content(Club.objects.get(slug=s)) for s in ("one", "two", "three"))
    assert one == two
    assert one != three


def test_the_command_reports_what_it_made(db, capsys):
    call_command("make_season", players=12, evenings=2, hands=150, seed=3, club="cmd")
    out = capsys.readouterr().out
    assert "150 hands" in out
    assert Hand.objects.filter(rubber__club__slug="cmd").count() == 150
