""" "Lone hands made": lone hands his side played that scored (laws 3 and 45). A lone hand
that scored nothing under the laws is not one: in Euchre, the law-90 offender's (ruling
E8); in Call-Ace, a lone maker whose side revoked (law 38, ruling C3) or who scores nothing
under laws 20 and 27 (ruling C4). The fact is the hand's (`scoring.services.player_scores`,
`lone_made`), which the roll-up only sums.
"""

import pytest

from club import recording
from scoring import services as scoring
from tests.factories import EveningFactory
from tests.tournaments.conftest import record, start
from tournaments import services
from tournaments.selectors import standings_published


def lone_deal(commit, club, evening, spoilt: dict):
    """A Call-Ace sitting of four at this evening, its first deal Ann's lone four tricks,
    spoilt as `spoilt` says (a revoke, a player silenced); the sitting."""
    sitting = scoring.rubber_start(
        club=club, evening=evening, ruleset="call-ace-foster-1905",
        players=["Ann", "Bob", "Cora", "Dan"],
    )  # fmt: skip
    commit(
        recording.hand_record,
        rubber_id=sitting.pk,
        data={"maker": "Ann", "alone": True, "tricks": 4, **spoilt},
    )
    return sitting


def lone_hands(tournament) -> dict[str, int]:
    tournament.refresh_from_db()
    rows = standings_published(tournament=tournament)["rows"]
    return {row["name"]: row["metrics"]["lone_hands"] for row in rows}


def test_a_lone_march_forfeited_under_law_90_is_not_a_lone_hand_made(club, evening, ladder, commit):
    """Ruling E8 (law 90): the offending side "scores nothing that its play made on that
    hand"; its lone march scored nothing, so it is no lone hand made (law 3)."""
    rubber = start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"])
    record(commit, rubber, {"makers": "NS", "tricks": 5, "alone": True, "law90": "NS"})
    assert lone_hands(ladder)["Ann"] == 0


@pytest.mark.parametrize(
    "spoilt, made",
    [
        ({}, 1),  # four tricks alone: 1 (law 44)
        ({"revoke": "makers"}, 0),  # each adversary scores 2, the maker nothing (C3)
        ({"revoke": "adversaries"}, 1),  # the lone maker scores a lone march (law 37, C3)
        ({"no_score": ["Ann"]}, 0),  # law 20 or 27: he scores nothing this deal (C4)
    ],
)
def test_a_lone_maker_made_his_hand_only_when_it_scored(club, roster, commit, spoilt, made):
    """Ruling C3 (law 38): a revoke by the maker's side gives each adversary 2 and the
    lone maker nothing; ruling C4: a player silenced under law 20 or 27 scores nothing.
    Neither is a lone hand made (laws 44, 45); an adversary's revoke gives the lone maker
    his lone march, which is."""
    sitting_evening = EveningFactory(club=club, ruleset="call-ace-foster-1905")
    ladder = commit(
        services.tournament_create, club=club, name="Call-Ace", slug="call-ace", kind="ladder",
        evening_ids=[sitting_evening.pk],
    )  # fmt: skip
    lone_deal(commit, club, sitting_evening, spoilt)
    assert lone_hands(ladder)["Ann"] == made


def test_the_migration_mends_lone_hands_recorded_before(club, roster, evening, ladder, commit):
    """Hands recorded before the fix carry the old flag: scoring 0011 takes it from the
    law-90 offender's lone hand (E8) and the Call-Ace lone maker who scored nothing (C3),
    leaves a lone hand that scored, and rolls the seats up; tournaments 0010 marks the
    standings for recalculation."""
    from importlib import import_module

    from django.apps import apps

    from scoring.models import Hand, HandScore, RubberPlayer
    from scoring.rollup import rollup_rubbers
    from tournaments.models import StandingsDirty

    euchre = start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"])
    record(commit, euchre, {"makers": "NS", "tricks": 5, "alone": True, "law90": "NS"})
    record(commit, euchre, {"makers": "EW", "tricks": 5, "alone": True})  # made: stays
    sitting = lone_deal(commit, club, evening, {"revoke": "makers"})
    # As the code before recorded them.
    forfeited = euchre.hands.get(number=1)
    Hand.objects.filter(pk=forfeited.pk).update(facts={**forfeited.facts, "lone_made": True})
    HandScore.objects.filter(hand=forfeited, side="NS").update(lone_made=1)
    HandScore.objects.filter(rubber=sitting, member__name="Ann").update(lone_made=1)
    rollup_rubbers([euchre.pk, sitting.pk])
    StandingsDirty.objects.all().delete()

    import_module("scoring.migrations.0011_lone_hands_that_scored").forwards(apps, None)

    assert Hand.objects.get(pk=forfeited.pk).facts["lone_made"] is False
    lone = dict(
        RubberPlayer.objects.filter(rubber=euchre).values_list("member__name", "lone_hands")
    )
    assert lone == {"Ann": 0, "Cora": 0, "Bob": 1, "Dan": 1}
    assert RubberPlayer.objects.get(rubber=sitting, member__name="Ann").lone_hands == 0

    import_module("tournaments.migrations.0010_lone_hands_recounted").mark_all_dirty(apps, None)
    assert StandingsDirty.objects.filter(tournament=ladder).count() == 4


def test_a_lone_hand_whose_point_was_lost_is_not_a_lone_hand_made(club, evening, ladder, commit):
    """Ruling E6: the lone side's revoke gives the adversaries five first (law 63, law 4)
    and with it the game; "the losers' further points from that hand are lost", so the
    lone hand scored nothing and is no lone hand made (law 3). The adversaries' revoke
    leaves the lone hand scoring: made."""
    rubber = start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"])
    record(commit, rubber, {"makers": "NS", "tricks": 4, "alone": True, "revokes": ["NS"]})
    record(commit, rubber, {"makers": "EW", "tricks": 4, "alone": True, "revokes": ["NS"]})
    assert lone_hands(ladder) == {"Ann": 0, "Cora": 0, "Bob": 1, "Dan": 1}


def test_the_migration_mends_lone_hands_whose_points_were_lost(club, evening, ladder, commit):
    """Hands recorded before the fix carry the old flag: scoring 0012 takes it from a lone
    hand whose points were lost (ruling E6), leaves a lone hand that scored, and rolls the
    seats up; tournaments 0012 marks the standings for recalculation."""
    from importlib import import_module

    from django.apps import apps

    from scoring.models import Hand, HandScore, RubberPlayer
    from scoring.rollup import rollup_rubbers
    from tournaments.models import StandingsDirty

    rubber = start(club, evening, ["Ann", "Cora"], ["Bob", "Dan"])
    record(commit, rubber, {"makers": "NS", "tricks": 4, "alone": True, "revokes": ["NS"]})
    record(commit, rubber, {"makers": "EW", "tricks": 4, "alone": True, "revokes": ["NS"]})
    # As the code before recorded it.
    lost = rubber.hands.get(number=1)
    Hand.objects.filter(pk=lost.pk).update(facts={**lost.facts, "lone_made": True})
    HandScore.objects.filter(hand=lost, side="NS").update(lone_made=1)
    rollup_rubbers([rubber.pk])
    StandingsDirty.objects.all().delete()

    import_module("scoring.migrations.0012_lone_hands_not_lost").forwards(apps, None)

    assert Hand.objects.get(pk=lost.pk).facts["lone_made"] is False
    assert rubber.hands.get(number=2).facts["lone_made"] is True
    lone = dict(
        RubberPlayer.objects.filter(rubber=rubber).values_list("member__name", "lone_hands")
    )
    assert lone == {"Ann": 0, "Cora": 0, "Bob": 1, "Dan": 1}

    import_module("tournaments.migrations.0012_lone_hands_not_lost_recounted").mark_all_dirty(
        apps, None
    )
    assert StandingsDirty.objects.filter(tournament=ladder).count() == 4
