"""Recording rubbers hand by hand through the API, scored under the laws and stored."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club.models import Member
from scoring.models import Hand, HandScore, Rubber, Settlement
from tests.scoring.conftest import PAIRS, euchre

# Ruling E5 (laws 2-3) hand by hand; worked by hand from the laws:
# game 1: NS march 2, march 2, three tricks 1 -> NS 5, EW 0: a double game (ruling E3).
# game 2: NS march, march, march -> 6: won double with a lap of 1 (ruling E2).
# game 3 opens NS 1 (the lap); EW lone march 4 (law 3), then 3 tricks 1 -> EW 5: a single
# game, NS having scored its lap (ruling E3). No lap is left, so no fourth game (ruling E1).
# Ruling E4: NS 2 + 2 + 2 for the rubber = 6, EW 1: the rubber is worth 5.
RUBBER = [
    euchre("NS", 5), euchre("NS", 5), euchre("NS", 3),
    euchre("NS", 5), euchre("NS", 5), euchre("NS", 5),
    euchre("EW", 5, alone=True), euchre("EW", 3),
]  # fmt: skip


@pytest.fixture
def rubber(club, roster, evening, table, secretary_api):
    response = secretary_api.post(
        f"/api/v1/clubs/{club.slug}/rubbers/",
        {
            "ruleset": "euchre-somerset-1888",
            "players": PAIRS,
            "evening": evening.pk,
            "table": table.number,
        },
    )
    assert response.status_code == 201, response.json()
    return Rubber.objects.get(pk=response.json()["id"])


def record(client, rubber, hand):
    return client.post(f"/api/v1/clubs/{rubber.club.slug}/rubbers/{rubber.pk}/hands/", hand)


def test_a_whole_euchre_rubber_is_scored_and_settled(rubber, table_api, secretary_api):
    for hand in RUBBER:
        assert record(table_api, rubber, hand).status_code == 201
    sheet = secretary_api.get(f"/api/v1/clubs/somerset/rubbers/{rubber.pk}/").json()
    games = [(g["winner"], g["value"], g["lap"]) for g in sheet["games"]]
    assert games == [("NS", 2, 0), ("NS", 2, 1), ("EW", 1, 0)]
    assert sheet["rubber"] == {
        "complete": True,
        "winner": "NS",
        "totals": {"NS": 6, "EW": 1},
        "value": 5,
    }
    # Ruling M1: each winner receives the value times the stake (0.25) from one loser.
    assert sheet["ledger"] == {"Ann": "1.25", "Cora": "1.25", "Bob": "-1.25", "Dan": "-1.25"}
    assert sheet["hands"][6]["points"] == {"NS": 0, "EW": 4}
    assert any("law 3" in line for line in sheet["hands"][6]["lines"])
    rubber.refresh_from_db()
    assert (rubber.status, rubber.winner, rubber.value) == ("complete", "NS", 5)
    assert sum(s.amount for s in Settlement.objects.filter(rubber=rubber)) == Decimal("0")


def test_points_per_player_are_stored_for_standings(rubber, secretary_api):
    for hand in RUBBER[:3]:
        record(secretary_api, rubber, hand)
    totals = {
        name: sum(
            HandScore.objects.filter(rubber=rubber, member__name=name).values_list(
                "points", flat=True
            )
        )
        for name in ["Ann", "Bob", "Cora", "Dan"]
    }
    assert totals == {"Ann": 5, "Cora": 5, "Bob": 0, "Dan": 0}


def test_bad_hand_names_the_field_and_stores_nothing(rubber, secretary_api):
    response = record(secretary_api, rubber, euchre("NS", 6))
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["field"] == "hand.tricks"
    assert not Hand.objects.filter(rubber=rubber).exists()
    rubber.refresh_from_db()
    assert rubber.hand_count == 0


def test_a_hand_after_the_rubber_is_over_is_refused(rubber, secretary_api):
    for hand in RUBBER:
        record(secretary_api, rubber, hand)
    response = record(secretary_api, rubber, euchre("NS", 5))
    assert response.status_code == 400
    assert response.json()["error"]["law"] == "ruling E1"
    assert Hand.objects.filter(rubber=rubber).count() == len(RUBBER)


def test_law_5_players_correct_freely_until_the_next_hand(rubber, table_api):
    record(table_api, rubber, euchre("NS", 3))
    url = f"/api/v1/clubs/somerset/rubbers/{rubber.pk}/hands/1/"
    fixed = table_api.put(url, {"hand": euchre("NS", 5)})
    assert fixed.status_code == 200, fixed.json()
    assert fixed.json()["hands"][0]["points"] == {"NS": 2, "EW": 0}
    correction = fixed.json()["hands"][0]["corrections"][0]
    assert correction["kind"] == "free"
    assert correction["original"]["tricks"] == 3


def test_ruling_e9_after_the_next_hand_only_the_secretary_corrects(
    rubber, table_api, secretary_api
):
    record(table_api, rubber, euchre("NS", 3))
    record(table_api, rubber, euchre("NS", 3))
    url = f"/api/v1/clubs/somerset/rubbers/{rubber.pk}/hands/1/"
    refused = table_api.put(url, {"hand": euchre("NS", 5)})
    assert refused.status_code == 403
    assert "ruling E9" in refused.json()["error"]["law"]
    no_reason = secretary_api.put(url, {"hand": euchre("NS", 5)})
    assert no_reason.status_code == 400
    assert no_reason.json()["error"]["field"] == "reason"
    assert Hand.objects.get(rubber=rubber, number=1).data["tricks"] == 3  # unchanged

    done = secretary_api.put(url, {"hand": euchre("NS", 5), "reason": "misread the tricks"})
    assert done.status_code == 200
    hands = done.json()["hands"]
    # The correction re-scores what follows: 2 + 1 is the game's score now.
    assert done.json()["current"]["scores"] == {"NS": 3, "EW": 0}
    assert hands[0]["corrections"][0]["kind"] == "referee"
    assert hands[0]["corrections"][0]["original"]["tricks"] == 3
    assert hands[0]["corrected"] is True


def test_a_correction_that_makes_a_later_hand_impossible_is_refused(rubber, secretary_api):
    for hand in RUBBER:
        record(secretary_api, rubber, hand)
    # Law 50 on hand 7 gives the lone player 5 (ruling E5): game 3 and the rubber end
    # there, so hand 8 could never have been played.
    url = f"/api/v1/clubs/somerset/rubbers/{rubber.pk}/hands/7/"
    hand = euchre("EW", 5, alone=True, law50=True)
    response = secretary_api.put(url, {"hand": hand, "reason": "an adversary abandoned"})
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "hands[7]"
    assert response.json()["error"]["law"] == "ruling E1"
    assert Hand.objects.get(rubber=rubber, number=7).data["law50"] is False


def test_a_table_records_only_its_own_rubbers(rubber, club, evening, api):
    from rest_framework.test import APIClient

    from tests.factories import TableFactory

    other = TableFactory(evening=evening, number=2)
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Table {other.token}")
    assert record(phone, rubber, euchre()).status_code == 403
    assert record(api, rubber, euchre()).status_code == 401
    assert not Hand.objects.filter(rubber=rubber).exists()


def test_another_clubs_secretary_cannot_see_or_record(rubber, club, other_secretary_api):
    club.is_public = False
    club.save()
    assert (
        other_secretary_api.get(f"/api/v1/clubs/somerset/rubbers/{rubber.pk}/").status_code == 404
    )
    assert other_secretary_api.get("/api/v1/clubs/somerset/rubbers/").status_code == 404
    assert record(other_secretary_api, rubber, euchre()).status_code == 404


def test_players_must_be_on_the_roster(club, roster, secretary_api):
    response = secretary_api.post(
        "/api/v1/clubs/somerset/rubbers/",
        {
            "ruleset": "euchre-somerset-1888",
            "players": {"NS": ["Ann", "Zed"], "EW": ["Bob", "Dan"]},
        },
    )
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "players"
    assert "Zed" in response.json()["error"]["message"]
    assert not Rubber.objects.exists()


def test_unknown_ruleset_is_refused(club, roster, secretary_api):
    response = secretary_api.post(
        "/api/v1/clubs/somerset/rubbers/", {"ruleset": "whist", "players": PAIRS}
    )
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "ruleset"


def test_countable_facts_are_stored_per_player(rubber, secretary_api):
    from django.db.models import Sum

    for hand in RUBBER:
        record(secretary_api, rubber, hand)
    counts = {
        row["member__name"]: (row["m"], row["l"], row["e"])
        for row in HandScore.objects.filter(rubber=rubber)
        .values("member__name")
        .annotate(m=Sum("march"), l=Sum("lone_made"), e=Sum("euchred"))
    }
    # Five NS marches (hands 1, 2, 4, 5, 6); EW's lone march on hand 7 (law 3).
    assert counts == {"Ann": (5, 0, 0), "Cora": (5, 0, 0), "Bob": (1, 1, 0), "Dan": (1, 1, 0)}


def test_euchred_makers_are_counted(rubber, secretary_api):
    record(secretary_api, rubber, euchre("EW", 2))  # law 2: EW euchred, NS score 2
    scores = {s.member.name: (s.points, s.euchred) for s in HandScore.objects.filter(rubber=rubber)}
    assert scores == {"Ann": (2, 0), "Cora": (2, 0), "Bob": (0, 1), "Dan": (0, 1)}


@pytest.mark.parametrize(
    ("on_roster", "as_named"),
    [("Ann", "ANN"), ("Strauß", "STRAUSS"), ("Strauß", "strauss")],
)
def test_players_are_found_on_the_roster_whatever_their_case(
    club, roster, secretary_api, on_roster, as_named
):
    """A name matches the roster's casefolded (ß as ss too, which the database's own
    case-insensitive match misses); the rubber keeps the roster's spelling."""
    from tests.factories import MemberFactory

    if on_roster not in roster:
        MemberFactory(club=club, name=on_roster)
    others = [name for name in roster if name != on_roster][:3]
    response = secretary_api.post(
        "/api/v1/clubs/somerset/rubbers/",
        {
            "ruleset": "euchre-somerset-1888",
            "players": {"NS": [as_named, others[0]], "EW": others[1:]},
        },
    )
    assert response.status_code == 201, response.content
    rubber = Rubber.objects.get(pk=response.json()["id"])
    assert rubber.players["NS"][0] == on_roster
    assert rubber.seats.get(position=0).member.name == on_roster


def test_starting_a_rubber_reads_the_named_players_not_the_roster(club, roster, secretary_api):
    """A club keeps thousands of members: starting a rubber reads its four."""
    from tests.factories import MemberFactory

    MemberFactory.create_batch(300, club=club)
    with CaptureQueriesContext(connection) as queries:
        response = secretary_api.post(
            "/api/v1/clubs/somerset/rubbers/",
            {"ruleset": "euchre-somerset-1888", "players": PAIRS},
        )
    assert response.status_code == 201, response.content
    roster_reads = [q["sql"] for q in queries.captured_queries if 'FROM "club_member"' in q["sql"]]
    assert roster_reads
    for sql in roster_reads:  # each asks for players by name
        assert '"club_member"."name"' in sql.partition("WHERE")[2], sql
    # ... as the roster's unique index has them, LOWER(name), so that index finds them
    # (UPPER, Django's `iexact`, read the whole roster).
    named = next(sql for sql in roster_reads if "LOWER(" in sql.partition("WHERE")[2])
    assert "UPPER(" not in named
    constraint = next(
        c for c in Member._meta.constraints if c.name == "member_unique_name_per_club"
    )
    assert [str(e) for e in constraint.expressions] == ["F(club)", "Lower(F(name))"]


@pytest.fixture
def in_play(db, django_capture_on_commit_callbacks):
    from tests.worlds import club_in_play

    return club_in_play(django_capture_on_commit_callbacks)


def _start_at(played, **where):
    from tests.conftest import token_client

    body = {"ruleset": "euchre-somerset-1888", "players": PAIRS, **where}
    return token_client(played.secretary).post(
        f"/api/v1/clubs/{played.club.slug}/rubbers/", body, format="json"
    )


@pytest.mark.parametrize("table", [1, 2])
def test_a_rubber_at_a_table_the_evening_runs_is_the_evenings_to_start(in_play, table):
    """A table formed by the evening gets its rubbers from the evening: its players cut for
    partners and deal (ruling T4), the rubbers count for cutting out (law 15), and each
    is an entry of the evening's log. One started through the API beside it, by whatever
    players, became the table's rubber in progress: the phone recorded into it, the cut
    for partners was skipped (table 2, formed and not yet cut) and the log never had it."""
    from tests.worlds import second_table

    if table == 2:
        second_table(in_play.evening)
    rubbers = Rubber.objects.count()
    response = _start_at(in_play, evening=in_play.evening.pk, table=table)
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["field"], error["law"]) == ("table", "ruling T4")
    assert Rubber.objects.count() == rubbers


def test_a_rubber_is_not_started_at_a_closed_evening(in_play):
    """No hand can be recorded at a closed evening, so a rubber started at one stayed in
    progress, unplayable, and closing had settled what was in play (club.closing)."""
    from tests.club.closing_helpers import close_abandoning

    close_abandoning(in_play.evening.pk)
    rubbers = Rubber.objects.count()
    response = _start_at(in_play, evening=in_play.evening.pk)
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "evening"
    assert Rubber.objects.count() == rubbers


def test_a_rubber_at_an_evening_is_at_one_of_its_tables(in_play):
    """The evening's board, its closing dialog and its room know rubbers by their tables:
    one started at the evening with no table made the board a 500."""
    rubbers = Rubber.objects.count()
    response = _start_at(in_play, evening=in_play.evening.pk)
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "table"
    assert Rubber.objects.count() == rubbers
