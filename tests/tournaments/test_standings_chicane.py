"""The standings' honours count chicane as the rubber's score does (rulings B3, B4)."""

import pytest

from scoring import services as scoring
from scoring.models import RubberPlayer
from tests.tournaments.conftest import record
from tournaments import services
from tournaments.selectors import standings_published


@pytest.fixture
def bridge_rubber(club, ladder, commit):
    from tests.factories import EveningFactory

    bridge = EveningFactory(club=club, ruleset="bridge-elwell-1907")
    commit(services.tournament_update, tournament=ladder, evening_ids=[bridge.pk])
    return scoring.rubber_start(
        club=club, evening=bridge, ruleset="bridge-elwell-1907",
        players={"NS": ["Ann", "Cora"], "EW": ["Bob", "Dan"]},
    )  # fmt: skip


def honours(ladder) -> dict[str, int]:
    ladder.refresh_from_db()
    rows = standings_published(tournament=ladder)["rows"]
    return {row["name"]: row["metrics"]["honours"] for row in rows}


def above_the_line(rubber) -> dict[str, int]:
    rubber.refresh_from_db()
    hand = rubber.hands.get()
    return {side: hand.points[side]["above"] for side in ("NS", "EW")}


def test_chicane_of_the_side_holding_honours_is_added_to_them(bridge_rubber, ladder, commit):
    # Hearts (v = 8): four honours in one N-S hand, 8v = 64; the other N-S hand is void
    # of trumps, chicane 2v = 16, added to N-S's honours: 80, as the score has it.
    record(commit, bridge_rubber, {
        "declarer": "EW", "trump": "H", "tricks": {"NS": 6, "EW": 7},
        "honours": {"side": "NS", "held": 4, "in_one_hand": 4}, "chicane": {"NS": 1, "EW": 0},
    })  # fmt: skip
    assert above_the_line(bridge_rubber) == {"NS": 80, "EW": 0}
    assert honours(ladder) == {"Ann": 80, "Cora": 80, "Bob": 0, "Dan": 0}


def test_chicane_of_the_side_without_honours_comes_off_the_adversaries(
    bridge_rubber, ladder, commit
):
    # Hearts: N-S hold four honours in one hand (64); an E-W hand is void of trumps and
    # E-W score no honours, so its 16 comes off N-S's honours: 48 (ruling B4).
    record(commit, bridge_rubber, {
        "declarer": "EW", "trump": "H", "tricks": {"NS": 6, "EW": 7},
        "honours": {"side": "NS", "held": 4, "in_one_hand": 4}, "chicane": {"NS": 0, "EW": 1},
    })  # fmt: skip
    assert above_the_line(bridge_rubber) == {"NS": 48, "EW": 0}
    assert honours(ladder) == {"Ann": 48, "Cora": 48, "Bob": 0, "Dan": 0}


def test_double_chicane_and_the_seats_roll_up(bridge_rubber, ladder, commit):
    # Spades (v = 2): both N-S hands void of trumps, double chicane 4v = 8; E-W hold all
    # five honours, four in one hand, 9v = 18: N-S have no honours, so E-W keep 10.
    record(commit, bridge_rubber, {
        "declarer": "EW", "trump": "S", "tricks": {"NS": 2, "EW": 11},
        "honours": {"side": "EW", "held": 5, "in_one_hand": 4}, "chicane": {"NS": 2, "EW": 0},
    })  # fmt: skip
    assert above_the_line(bridge_rubber) == {"NS": 0, "EW": 10}
    seats = dict(
        RubberPlayer.objects.filter(rubber=bridge_rubber).values_list("member__name", "honours")
    )
    assert seats == {"Ann": 0, "Cora": 0, "Bob": 10, "Dan": 10}
    assert honours(ladder) == seats
