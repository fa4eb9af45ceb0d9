"""Bridge (Elwell, 1907): rulings B1-B7, every cell of the 1907 honour table, and bad input."""

import os
import re
from decimal import Decimal
from pathlib import Path

import pytest

from scoring.rules import ScoringError, get_ruleset
from scoring.rules.bridge import BridgeState

BRIDGE = get_ruleset("bridge-elwell-1907")
COLUMNS = ("S", "C", "D", "H", "NT")

# The honour table exactly as printed in the law text (laws/bridge-elwell-1907.txt).
TABLE_AS_PRINTED = """\
| Each Trick above Six | 2| 4| 6| 8| 12 |
| {3 Honours...... | 4| 8| 12| 16| 30 |
| {4 " ...... | 8| 16| 24| 32| 40 |
|HONOURS {4 " (All in one hand)| 16| 32| 48| 64| 100 |
| {5 " ...... | 10| 20| 30| 40| -- |
| {5 " (4 in one hand) | 18| 36| 54| 72| -- |
| {5 " (All in one hand)| 20| 40| 60| 80| -- |
| Chicane..... | 4| 8| 12| 16| -- |"""
LAST_ROW_AS_PRINTED = "| Rubber 100, Grand Slam 40, Little Slam 20, |"


def parse_table():
    rows = []
    for line in TABLE_AS_PRINTED.splitlines():
        cells = [c.strip() for c in line.strip("| ").split("|")][-5:]
        rows.append([None if c == "--" else int(c) for c in cells])
    return dict(
        zip(
            ["trick", "3", "4", "4 in one", "5", "5 with 4 in one", "5 in one", "chicane"],
            rows,
            strict=True,
        )
    )


TABLE = parse_table()
LAST = dict(re.findall(r"(Rubber|Grand Slam|Little Slam) (\d+)", LAST_ROW_AS_PRINTED))


def test_the_transcribed_table_is_the_one_printed_in_the_law_text():
    """Ruling B3: the table the cell tests use is the law text's own."""
    path = Path(os.environ.get("LAWS_DIR", "/work/shared/laws")) / "bridge-elwell-1907.txt"
    if not path.exists():
        pytest.skip("the law texts are not on this machine")
    text = path.read_text()
    for line in TABLE_AS_PRINTED.splitlines():
        assert line in text
    assert LAST_ROW_AS_PRINTED in text


def hand(trump="S", ns=7, **kw):
    raw = {"declarer": "NS", "trump": trump, "tricks": {"NS": ns, "EW": 13 - ns}}
    if trump != "NT" and "honours" not in kw:
        kw["honours"] = {"side": "EW", "held": 3, "in_one_hand": 2}
    return raw | kw


def score(raw, state=None, cap=None):
    state = state or BRIDGE.start({"odd_trick_cap": cap})
    return BRIDGE.apply(state, BRIDGE.validate_hand(state, raw))


def play(raws, cap=None):
    state = BRIDGE.start({"odd_trick_cap": cap})
    results = []
    for i, raw in enumerate(raws):
        state, r = BRIDGE.apply(state, BRIDGE.validate_hand(state, raw, field_prefix=f"hands[{i}]"))
        results.append(r)
    return state, results


# --- the 1907 table, cell by cell (rulings B1, B3, B4, B5, B7) --------------------------------


@pytest.mark.parametrize("col", range(5))
def test_ruling_B1_table_each_trick_above_six(col):
    trump = COLUMNS[col]
    _, r = score(hand(trump, ns=7))
    assert r.points["NS"]["below"] == TABLE["trick"][col]
    _, r = score(hand(trump, ns=2))  # EW take eleven: five above six
    assert r.points["EW"]["below"] == 5 * TABLE["trick"][col]


HONOUR_ROWS = [
    ("3", 3, 2),
    ("3", 3, 3),
    ("4", 4, 2),
    ("4", 4, 3),
    ("4 in one", 4, 4),
    ("5", 5, 3),
    ("5 with 4 in one", 5, 4),
    ("5 in one", 5, 5),
]


@pytest.mark.parametrize("col", range(5))
@pytest.mark.parametrize(("row", "held", "in_one"), HONOUR_ROWS)
def test_ruling_B3_every_cell_of_the_1907_honour_table(row, held, in_one, col):
    trump = COLUMNS[col]
    cell = TABLE[row][col]
    raw = hand(trump, ns=6, honours={"side": "NS", "held": held, "in_one_hand": in_one})
    if cell is None:  # "--": no five honours at no trumps, only four aces
        with pytest.raises(ScoringError) as err:
            score(raw)
        assert (err.value.field, err.value.law) == ("hand.honours.held", "ruling B3")
        return
    _, r = score(raw)
    assert r.points["NS"]["above"] == cell
    assert r.points["EW"]["above"] == 0
    assert r.facts["honours"] == {"NS": cell, "EW": 0}
    assert any(line.law == "ruling B3" for line in r.lines)


@pytest.mark.parametrize("col", range(4))
def test_ruling_B4_chicane_cell_added_to_its_sides_honours(col):
    trump = COLUMNS[col]
    # One NS hand void of trumps; NS's three honours are all in the other hand.
    raw = hand(
        trump, ns=6, honours={"side": "NS", "held": 3, "in_one_hand": 3}, chicane={"NS": 1, "EW": 0}
    )
    _, r = score(raw)
    assert r.points["NS"]["above"] == TABLE["3"][col] + TABLE["chicane"][col]


@pytest.mark.parametrize("col", range(4))
def test_ruling_B4_chicane_deducted_from_the_adversaries_honours(col):
    trump = COLUMNS[col]
    raw = hand(trump, ns=6, honours={"side": "EW", "held": 5, "in_one_hand": 3}, chicane={"NS": 1})
    _, r = score(raw)
    assert r.points["EW"]["above"] == TABLE["5"][col] - TABLE["chicane"][col]
    assert r.points["NS"]["above"] == 0


@pytest.mark.parametrize("col", range(4))
def test_ruling_B4_double_chicane_is_worth_four_honours(col):
    trump = COLUMNS[col]
    raw = hand(trump, ns=0, honours={"side": "EW", "held": 5, "in_one_hand": 4}, chicane={"NS": 2})
    _, r = score(raw)
    # EW's grand slam (13 tricks) is separate: take it off.
    slam = int(LAST["Grand Slam"])
    assert r.points["EW"]["above"] - slam == TABLE["5 with 4 in one"][col] - TABLE["4"][col]


def test_ruling_B4_both_sides_chicane_three_hands_void():
    # NS both void, one EW hand void: the fourth hand holds all thirteen trumps.
    raw = hand(
        "H", ns=0, honours={"side": "EW", "held": 5, "in_one_hand": 5}, chicane={"NS": 2, "EW": 1}
    )
    _, r = score(raw)
    grand = int(LAST["Grand Slam"])
    expected = TABLE["5 in one"][3] + TABLE["chicane"][3] - TABLE["4"][3] + grand
    assert r.points["EW"]["above"] == expected


def test_ruling_B5_grand_and_little_slam_from_the_table():
    _, r = score(hand("D", ns=13, honours={"side": "NS", "held": 3, "in_one_hand": 2}))
    assert r.points["NS"]["above"] == int(LAST["Grand Slam"]) + TABLE["3"][2]
    assert r.facts["slam"] == {"side": "NS", "tricks": 13}
    _, r = score(hand("NT", ns=1))
    assert r.points["EW"]["above"] == int(LAST["Little Slam"])


def test_ruling_B7_rubber_bonus_from_the_table():
    state, results = play([hand("NT", ns=10), hand("NT", ns=10)])  # 48 each: two games
    assert results[-1].rubber_complete
    summary = BRIDGE.summary(state)
    assert summary["rubber"]["totals"]["NS"] == 48 + 48 + int(LAST["Rubber"])
    assert summary["rubber"]["bonus"] == 100


# --- ruling B1: doubling and the club's cap on one odd trick ----------------------------------


def test_ruling_B1_doubling_doubles_each_trick_again():
    _, r = score(hand("H", ns=9, doubles=1))
    assert r.points["NS"]["below"] == 3 * 16
    _, r = score(hand("H", ns=9, doubles=2))
    assert r.points["NS"]["below"] == 3 * 32
    _, r = score(hand("C", ns=8, doubles=3))
    assert r.points["NS"]["below"] == 2 * 32


def test_ruling_B3_doubling_does_not_touch_honours_chicane_or_slam():
    raw = hand(
        "S",
        ns=13,
        doubles=2,
        honours={"side": "NS", "held": 5, "in_one_hand": 5},
        chicane={"EW": 1},
    )
    _, r = score(raw)
    # 10v honours, chicane deducted 2v, grand slam 40: all undoubled (v = 2).
    assert r.points["NS"]["above"] == 20 - 4 + 40
    assert r.points["NS"]["below"] == 7 * 8


@pytest.mark.parametrize(
    ("cap", "trump", "most"),
    [
        (100, "H", 4),
        (100, "NT", 4),
        (100, "S", 6),
        (100, "D", 5),
        (200, "NT", 5),
        (200, "H", 5),
        (200, "S", 7),
    ],
)
def test_ruling_B1_club_cap_doubling_ceases_once_the_odd_trick_exceeds_it(cap, trump, most):
    # Footnote to the law of doubling: "doubling ceases whenever the value of the odd trick
    # exceeds one hundred points" (two hundred in other clubs). Hearts at a 100 cap:
    # 8, 16, 32, 64, then 128 exceeds it, so four doubles are the most.
    _, r = score(hand(trump, ns=7, doubles=most), cap=cap)
    value = {"S": 2, "C": 4, "D": 6, "H": 8, "NT": 12}[trump] * 2**most
    assert r.points["NS"]["below"] == value
    assert value > cap >= value // 2
    with pytest.raises(ScoringError) as err:
        score(hand(trump, ns=7, doubles=most + 1), cap=cap)
    assert (err.value.field, err.value.law) == ("hand.doubles", "ruling B1")


def test_ruling_B1_option_values():
    assert BRIDGE.validate_options(None) == {"odd_trick_cap": None}
    assert BRIDGE.validate_options({"odd_trick_cap": 200}) == {"odd_trick_cap": 200}
    for bad in (150, "100", True, 100.0):
        with pytest.raises(ScoringError) as err:
            BRIDGE.validate_options({"odd_trick_cap": bad})
        assert (err.value.field, err.value.law) == ("options.odd_trick_cap", "ruling B1")
    with pytest.raises(ScoringError) as err:
        BRIDGE.validate_options({"spade_convention": True})
    assert err.value.field == "options.spade_convention"


# --- ruling B2: the game -----------------------------------------------------------------------


def test_ruling_B2_thirty_by_tricks_wins_and_the_excess_counts():
    state, results = play([hand("C", ns=12, honours={"side": "NS", "held": 4, "in_one_hand": 2})])
    # Six above six at clubs: 24, not yet game.
    assert results[0].game_won is None and state.ns == 24
    state, r = score(hand("H", ns=8), state)  # 16 more: 40
    assert r.game_won == "NS"
    assert (state.ns, state.ew) == (0, 0)  # both start the next game from nothing
    summary = BRIDGE.summary(state)
    assert summary["games"][0]["scores"] == {"NS": 40, "EW": 0}
    assert summary["rubber"]["below"]["NS"] == 40  # the ten beyond thirty count


def test_ruling_B2_honours_do_not_count_toward_game():
    _, r = score(hand("S", ns=7, honours={"side": "NS", "held": 5, "in_one_hand": 5}))
    assert r.points["NS"] == {"below": 2, "above": 20}
    assert r.game_won is None


# --- ruling B6: revokes ------------------------------------------------------------------------


def test_ruling_B6_revoke_moves_three_tricks_to_the_adversaries():
    _, r = score(hand("H", ns=8, revokes={"NS": 1}))
    # NS 8 - 3 = 5, EW 5 + 3 = 8: EW score two above six.
    assert r.facts["tricks"] == {"NS": 5, "EW": 8}
    assert r.points["EW"]["below"] == 16 and r.points["NS"]["below"] == 0


def test_ruling_B6_never_more_tricks_than_the_revoking_side_took():
    _, r = score(hand("NT", ns=12, revokes={"EW": 2}))
    assert r.facts["tricks"] == {"NS": 13, "EW": 0}
    # Five revokes by NS with thirteen tricks: all thirteen move and no more.
    _, r = score(hand("NT", ns=13, revokes={"NS": 5}))
    assert r.facts["tricks"] == {"NS": 0, "EW": 13}


def test_ruling_B6_the_revoking_side_is_held_at_twenty_eight():
    state = BridgeState(ns=20)
    state, r = score(hand("H", ns=13, revokes={"NS": 1}), state)
    # NS keep ten tricks: 4 x 8 = 32, but only 8 bring them to 28; 24 are not scored.
    assert r.points["NS"]["below"] == 8
    assert r.game_won is None and state.ns == 28
    assert [str(line) for line in r.lines if line.law == "ruling B6"] == [
        "ruling B6: 1 revoke by N-S: 3 tricks move to E-W (N-S 10, E-W 3)",
        "ruling B6: N-S revoked: their score toward game stops at 28; 24 of the trick points "
        "are not scored",
    ]


def test_ruling_B6_a_side_already_at_twenty_nine_gains_nothing_toward_game():
    state, r = score(hand("S", ns=11, revokes={"NS": 1}), BridgeState(ns=29))
    assert r.points["NS"]["below"] == 0 and state.ns == 29


def test_ruling_B6_the_adversaries_of_the_revoker_may_win_the_game():
    _, r = score(hand("NT", ns=9, revokes={"EW": 1}), BridgeState(ns=10))
    # NS 9 + 3 = 12 tricks: 6 x 12 = 72.
    assert r.points["NS"]["below"] == 72 and r.game_won == "NS"


def test_ruling_B6_both_sides_revoke_both_held_at_twenty_eight():
    state, r = score(hand("NT", ns=10, revokes={"NS": 1, "EW": 1}), BridgeState(ns=20, ew=20))
    assert r.facts["tricks"] == {"NS": 10, "EW": 3}
    assert r.points["NS"]["below"] == 8 and state.ns == 28 and r.game_won is None


def test_ruling_B5_tricks_gained_by_revoke_do_not_make_a_slam():
    _, r = score(hand("NT", ns=11, revokes={"EW": 1}))
    assert r.facts["tricks"]["NS"] == 13
    assert r.facts["slam"] is None and r.points["NS"]["above"] == 0
    _, r = score(hand("NT", ns=12, revokes={"EW": 1}))
    assert r.facts["slam"] == {"side": "NS", "tricks": 12}


def test_ruling_B5_a_side_that_revoked_loses_its_slam():
    _, r = score(hand("NT", ns=13, revokes={"NS": 1}))
    assert r.facts["slam"] is None


# --- ruling B7: the rubber ---------------------------------------------------------------------


def test_ruling_B7_third_game_not_played_when_one_side_wins_the_first_two():
    state, _ = play([hand("NT", ns=10), hand("NT", ns=10)])
    assert BRIDGE.is_complete(state) and len(state.games) == 2
    with pytest.raises(ScoringError) as err:
        BRIDGE.validate_hand(state, hand("NT", ns=10), field_prefix="hands[2]")
    assert (err.value.field, err.value.law) == ("hands[2]", "ruling B7")


def test_ruling_B7_rubber_of_three_games():
    state, results = play([hand("NT", ns=10), hand("NT", ns=3), hand("NT", ns=9)])
    assert [g.winner for g in state.games] == [0, 1, 0]
    assert results[-1].rubber_complete
    # NS 48 + 36 + 100; EW 48 (ten tricks at no trumps). Value 136.
    assert BRIDGE.rubber_value(state) == 48 + 36 + 100 - 48


def test_ruling_B7_value_may_go_against_the_winners_and_M1_settles_it():
    # NS win two games at no trumps (36 each) while EW hold four aces in one hand twice.
    aces = {"side": "EW", "held": 4, "in_one_hand": 4}
    state, _ = play([hand("NT", ns=9, honours=aces), hand("NT", ns=9, honours=aces)])
    assert state.winner == 0
    assert BRIDGE.rubber_value(state) == 36 + 36 + 100 - 200
    ledger = BRIDGE.settle(state, Decimal("0.10"), {"NS": ["a", "b"], "EW": ["c", "d"]})
    assert ledger == {
        "a": Decimal("-2.80"),
        "b": Decimal("-2.80"),
        "c": Decimal("2.80"),
        "d": Decimal("2.80"),
    }


# --- the laws' own correction limits -----------------------------------------------------------


def test_bridge_correction_limits_tricks_until_the_game_is_concluded():
    """The law on an erroneous score: tricks until the game is concluded by the next deal."""
    state, _ = play([hand("NT", ns=10)])  # hand 1 wins game 1
    assert BRIDGE.may_correct(state, 1) is True  # the following deal is not yet played
    state, _ = score(hand("S", ns=7), state)
    assert BRIDGE.may_correct(state, 1) is False  # game 1 concluded by the next deal
    assert BRIDGE.may_correct(state, 2) is True
    assert BRIDGE.may_correct(state, 1, kind="honours") is True
    assert BRIDGE.may_correct(state, 1, kind="honours", agreed=True) is False


def test_bridge_correction_limits_in_the_last_game_until_the_rubber_is_agreed():
    """The law on an erroneous score: the last game stays open until the rubber is agreed."""
    state, _ = play([hand("NT", ns=10), hand("NT", ns=10)])
    assert BRIDGE.may_correct(state, 2) is True
    assert BRIDGE.may_correct(state, 2, agreed=True) is False
    assert "agreed" in BRIDGE.correction_text


# --- bad input ---------------------------------------------------------------------------------


def honours(side="NS", held=3, in_one=2):
    return {"side": side, "held": held, "in_one_hand": in_one}


@pytest.mark.parametrize(
    ("raw", "field", "law"),
    [
        (hand(tricks={"NS": 7, "EW": 7}), "hand.tricks", "ruling B1"),
        (hand(tricks={"NS": 14, "EW": -1}), "hand.tricks.NS", "ruling B1"),
        (hand(tricks={"NS": 7}), "hand.tricks.EW", "ruling B1"),
        (hand(tricks={"NS": True, "EW": 12}), "hand.tricks.NS", "ruling B1"),
        (hand(tricks=[7, 6]), "hand.tricks", None),
        (hand(trump="X"), "hand.trump", "ruling B1"),
        (hand(doubles=True), "hand.doubles", "ruling B1"),
        (hand(doubles=-1), "hand.doubles", "ruling B1"),
        (hand(doubles=41), "hand.doubles", "ruling B1"),
        (hand(honours=honours(held=6, in_one=3)), "hand.honours.held", "ruling B3"),
        (hand(honours=honours(held=2, in_one=1)), "hand.honours.held", "ruling B3"),
        (hand(honours=honours(held=3, in_one=4)), "hand.honours.in_one_hand", "ruling B3"),
        (hand(honours=honours(held=4, in_one=1)), "hand.honours.in_one_hand", "ruling B3"),
        (hand(honours=honours(held=5, in_one=2)), "hand.honours.in_one_hand", "ruling B3"),
        (hand(honours={"side": "NS", "held": 3}), "hand.honours.in_one_hand", "ruling B3"),
        (hand(honours={"held": 3, "in_one_hand": 2}), "hand.honours.side", "ruling B3"),
        (hand(honours=None), "hand.honours", "ruling B3"),
        (hand("NT", honours=honours(held=5, in_one=5)), "hand.honours.held", "ruling B3"),
        (hand("NT", honours=honours(held=4, in_one=5)), "hand.honours.in_one_hand", "ruling B3"),
        (hand("NT", honours=honours(held=4, in_one=1)), "hand.honours.in_one_hand", "ruling B3"),
        (hand("NT", chicane={"NS": 1}), "hand.chicane", "ruling B4"),
        (hand(chicane={"NS": 3}), "hand.chicane.NS", "ruling B4"),
        (hand(chicane={"NS": 2, "EW": 2}), "hand.chicane", "ruling B4"),
        (hand(chicane={"NS": 2}, honours=honours("NS", 5, 5)), "hand.honours", "ruling B4"),
        (hand(chicane={"NS": 2}, honours=honours("EW", 4, 4)), "hand.honours", "ruling B4"),
        (
            hand(chicane={"NS": 1}, honours=honours("NS", 4, 3)),
            "hand.honours.in_one_hand",
            "ruling B4",
        ),
        (
            hand(chicane={"NS": 2, "EW": 1}, honours=honours("EW", 5, 4)),
            "hand.honours.in_one_hand",
            "ruling B4",
        ),
        (hand(revokes={"NS": 14}), "hand.revokes.NS", "ruling B6"),
        (hand(revokes={"EW": 27}), "hand.revokes.EW", "ruling B6"),
        (hand(revokes={"NS": "1"}), "hand.revokes.NS", "ruling B6"),
        (hand(declarer="N"), "hand.declarer", None),
        (hand(dummy="NS"), "hand.dummy", None),
    ],
)
def test_bad_hands_are_user_errors_naming_field_and_law(raw, field, law):
    """Rulings B1, B3, B4, B6: each impossible hand names its field and ruling."""
    with pytest.raises(ScoringError) as err:
        BRIDGE.validate_hand(BRIDGE.start({}), raw)
    assert (err.value.field, err.value.law) == (field, law)


def test_a_chicane_refused_names_the_sides_in_words():
    """Ruling B4's refusals reach the phone's page: the sides as people name them."""
    with pytest.raises(ScoringError) as err:
        BRIDGE.validate_hand(BRIDGE.start({}), hand(chicane={"NS": 2}, honours=honours("NS", 5, 5)))
    assert err.value.message == (
        "N-S hold no trumps (double chicane): E-W must hold all five honours"
    )
    with pytest.raises(ScoringError) as err:
        BRIDGE.validate_hand(BRIDGE.start({}), hand(chicane={"EW": 1}, honours=honours("EW", 4, 3)))
    assert err.value.message == (
        "one E-W hand is void of trumps: all their honours are in the other"
    )


def test_no_trumps_with_the_aces_divided_scores_no_honours():
    """Ruling B3: honours at no trumps need three aces or more."""
    _, r = score(hand("NT", ns=7, honours=None))
    assert r.points == {"NS": {"below": 12, "above": 0}, "EW": {"below": 0, "above": 0}}


def test_every_explanation_line_names_a_ruling():
    """Lines in the order applied: B6 revoke first, then B1, B3, B4, B5, B2."""
    raw = hand(
        "S", ns=13, doubles=2, revokes={"EW": 1}, chicane={"EW": 1}, honours=honours("NS", 5, 5)
    )
    _, r = score(raw, BridgeState(ns=20))
    assert [line.law for line in r.lines] == [
        "ruling B6",
        "ruling B1",
        "ruling B3",
        "ruling B4",
        "ruling B5",
        "ruling B2",
    ]


def test_a_validated_hand_returns_to_its_raw_shape():
    """Rulings B1-B6: what validate_hand reads, as_dict writes back unchanged."""
    raw = hand(
        "H",
        ns=2,
        doubles=2,
        honours=honours("EW", 5, 5),
        chicane={"NS": 1, "EW": 0},
        revokes={"NS": 1, "EW": 0},
    )
    parsed = BRIDGE.validate_hand(BRIDGE.start({}), raw)
    assert parsed.as_dict() == raw
    assert BRIDGE.validate_hand(BRIDGE.start({}), parsed.as_dict()) == parsed
