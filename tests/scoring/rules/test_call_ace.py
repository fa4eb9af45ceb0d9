"""Call-Ace Euchre (Foster, 1905): laws 20, 27, 36-38, 42-46 and rulings C1-C5, for 4-7 players."""

from decimal import Decimal
from itertools import combinations

import pytest

from scoring.rules import ScoringError, get_ruleset

CALL_ACE = get_ruleset("call-ace-foster-1905")
NAMES = ["ann", "bob", "cy", "di", "ed", "flo", "gus"]


def sitting(n=5):
    return CALL_ACE.start({}, NAMES[:n])


def deal(n=5, **raw):
    """Score one raw deal on a fresh named sitting of ``n``; return the result."""
    state = sitting(n)
    return CALL_ACE.apply(state, CALL_ACE.validate_hand(state, raw))[1]


def others(n, *seats):
    return [name for name in NAMES[:n] if name not in seats]


# --- law 43: the maker and his partner ---------------------------------------------------------


@pytest.mark.parametrize("n", [4, 5, 6, 7])
@pytest.mark.parametrize("tricks", [3, 4])
def test_law_43_point_scores_one_each_for_maker_and_partner(n, tricks):
    r = deal(n, maker="ann", partner="cy", tricks=tricks)
    assert r.points["ann"] == r.points["cy"] == 1
    assert all(r.points[p] == 0 for p in others(n, "ann", "cy"))
    assert r.lines[0].law == "law 43"


def test_law_43_march_with_a_partner_scores_two_each_with_four_players():
    r = deal(4, maker="ann", partner="bob", tricks=5)
    assert r.points == {"ann": 2, "bob": 2, "cy": 0, "di": 0}
    assert r.facts["march"] is True and r.facts["alone"] is False


@pytest.mark.parametrize("n", [5, 6, 7])
def test_law_43_march_with_a_partner_scores_three_each_with_five_to_seven(n):
    r = deal(n, maker="bob", partner="ed", tricks=5)
    assert r.points["bob"] == r.points["ed"] == 3
    assert sum(r.points.values()) == 6


# --- law 44: alone -----------------------------------------------------------------------------


def test_law_44_lone_march_in_five_hand_scores_five():
    r = deal(5, maker="di", alone=True, tricks=5)
    assert r.points == {"ann": 0, "bob": 0, "cy": 0, "di": 5, "ed": 0}


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_law_44_lone_march_scores_as_many_as_there_are_players(n):
    r = deal(n, maker="ann", alone=True, tricks=5)
    assert r.points["ann"] == n
    assert r.lines[0].law == "law 44"


@pytest.mark.parametrize("tricks", [3, 4])
def test_law_44_lone_point_scores_one(tricks):
    r = deal(6, maker="flo", alone=True, tricks=tricks)
    assert r.points["flo"] == 1 and sum(r.points.values()) == 1


# --- law 45: called but found no partner -------------------------------------------------------


def test_law_45_a_call_that_found_no_partner_scores_as_a_lone_hand():
    r = deal(5, maker="ann", partner=None, alone=False, tricks=5)
    assert r.points["ann"] == 5
    assert r.facts["alone"] is True
    assert "law 45" in r.lines[0].text


# --- law 46: the euchre ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [4, 5, 6, 7])
@pytest.mark.parametrize("tricks", [0, 1, 2])
def test_law_46_euchre_gives_every_opponent_two_whatever_the_number(n, tricks):
    r = deal(n, maker="ann", partner="bob", tricks=tricks)
    assert r.points["ann"] == r.points["bob"] == 0
    assert all(r.points[p] == 2 for p in others(n, "ann", "bob"))
    assert r.facts["euchred"] is True


def test_law_46_lone_hand_euchred_every_other_player_scores_two():
    r = deal(7, maker="gus", alone=True, tricks=2)
    assert r.points == dict.fromkeys(NAMES[:6], 2) | {"gus": 0}


# --- revokes: laws 36-38, 42 (ruling C3) -------------------------------------------------------


def test_law_36_adversary_revoke_gives_the_makers_a_march_even_after_losing_a_trick():
    r = deal(5, maker="ann", partner="bob", tricks=1, revoke="adversaries")
    assert r.points == {"ann": 3, "bob": 3, "cy": 0, "di": 0, "ed": 0}
    assert r.lines[0].law == "law 36"


def test_law_36_adversary_revoke_four_hand_march_is_two_each():
    r = deal(4, maker="ann", partner="bob", revoke="adversaries")
    assert r.points == {"ann": 2, "bob": 2, "cy": 0, "di": 0}


@pytest.mark.parametrize("n", [4, 5, 6])
def test_law_37_adversary_revoke_against_a_lone_hand_scores_the_lone_march(n):
    # Foster: "the lone player scores 4, 5 or 6 points, as the case may be".
    r = deal(n, maker="cy", alone=True, tricks=2, revoke="adversaries")
    assert r.points["cy"] == n
    assert r.lines[0].law == "law 37"


def test_law_38_revoke_by_the_makers_gives_each_adversary_two():
    r = deal(6, maker="ann", partner="bob", tricks=5, revoke="makers")
    assert r.points == {"ann": 0, "bob": 0, "cy": 2, "di": 2, "ed": 2, "flo": 2}


def test_law_42_both_sides_revoke_the_deal_is_void():
    r = deal(5, maker="ann", partner="bob", tricks=4, revoke="both")
    assert set(r.points.values()) == {0}
    assert r.facts["void"] is True
    assert r.lines[0].law == "law 42"


def test_void_deal_scores_nothing_and_needs_no_maker_law_17():
    r = deal(5, void=True)
    assert set(r.points.values()) == {0}
    assert r.facts["maker"] is None


# --- laws 20, 27 (ruling C4) -------------------------------------------------------------------


def test_law_20_partner_who_showed_himself_scores_nothing():
    r = deal(5, maker="ann", partner="bob", tricks=5, no_score=["bob"])
    assert r.points == {"ann": 3, "bob": 0, "cy": 0, "di": 0, "ed": 0}


def test_law_27_wrong_number_of_cards_silences_the_player_and_his_partner_ruling_C4():
    r = deal(5, maker="ann", partner="bob", tricks=4, wrong_cards=["bob"])
    assert set(r.points.values()) == {0}
    assert [line.law for line in r.lines[1:]] == ["law 27", "law 27"]


def test_law_27_an_adversary_with_wrong_cards_loses_only_his_own_score():
    r = deal(5, maker="ann", partner="bob", tricks=2, wrong_cards=["cy"])
    assert r.points == {"ann": 0, "bob": 0, "cy": 0, "di": 2, "ed": 2}


# --- ruling C5: settling up --------------------------------------------------------------------


def pairwise(scores, stake):
    """Foster: "the lowest must be deducted from all the others, and he owes the difference to
    each of them", then the next lowest, and so on: settle every pair by its difference."""
    net = dict.fromkeys(scores, Decimal(0))
    for a, b in combinations(scores, 2):
        diff = (scores[a] - scores[b]) * stake
        net[a] += diff
        net[b] -= diff
    return net


def test_ruling_C5_settlement_equals_every_pair_settling_its_difference():
    state = sitting(5)
    for raw in [
        {"maker": "ann", "alone": True, "tricks": 5},
        {"maker": "bob", "partner": "cy", "tricks": 2},
        {"maker": "di", "partner": "ed", "tricks": 3},
    ]:
        state, _ = CALL_ACE.apply(state, CALL_ACE.validate_hand(state, raw))
    # ann 5 + 2 = 7; bob 0; cy 0; di 2 + 1 = 3; ed 2 + 1 = 3.
    assert state.scores == (7, 0, 0, 3, 3)
    state = CALL_ACE.close(state)
    stake = Decimal("0.05")
    ledger = CALL_ACE.settle(state, stake)
    assert ledger == pairwise(dict(zip(NAMES, (7, 0, 0, 3, 3), strict=False)), stake)
    # ann: (5 x 7 - 13) x 0.05 = 1.10
    assert ledger["ann"] == Decimal("1.10")
    assert sum(ledger.values()) == 0
    summary = CALL_ACE.summary(state)
    assert summary["settlement"] == {"ann": 22, "bob": -13, "cy": -13, "di": 2, "ed": 2}
    assert summary["rubber"]["complete"] is True


def test_ruling_C5_a_sitting_is_settled_only_when_closed_and_takes_no_deal_after():
    state = sitting(4)
    with pytest.raises(ScoringError) as err:
        CALL_ACE.settle(state, Decimal(1))
    assert err.value.law == "ruling C5"
    closed = CALL_ACE.close(state)
    assert CALL_ACE.is_complete(closed) and not CALL_ACE.is_complete(state)
    with pytest.raises(ScoringError) as err:
        CALL_ACE.validate_hand(
            closed, {"maker": "ann", "alone": True, "tricks": 3}, field_prefix="deals[9]"
        )
    assert (err.value.field, err.value.law) == ("deals[9]", "ruling C5")


def test_unnamed_seats_are_numbered_from_nought():
    """Law 43 march for four, settled by ruling C5, with seats named by index."""
    state = CALL_ACE.start({}, 4)
    raw = {"maker": 3, "partner": 0, "tricks": 5}
    state, r = CALL_ACE.apply(state, CALL_ACE.validate_hand(state, raw))
    assert r.points == {"0": 2, "1": 0, "2": 0, "3": 2}
    ledger = CALL_ACE.settle(CALL_ACE.close(state), Decimal("1"), ["w", "x", "y", "z"])
    assert ledger == {"w": 4, "x": -4, "y": -4, "z": 4}


def test_correction_has_no_law_in_call_ace():
    """Foster has no correction law; corrections close with the sitting (ruling C5)."""
    state = sitting(4)
    state, _ = CALL_ACE.apply(state, CALL_ACE.validate_hand(state, {"void": True}))
    assert CALL_ACE.correction_law is None
    assert CALL_ACE.may_correct(state, 1) is True
    assert CALL_ACE.may_correct(CALL_ACE.close(state), 1) is False


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "field", "law"),
    [
        ({"maker": "ann", "partner": "ann", "tricks": 3}, "hand.partner", "law 22"),
        ({"maker": "ann", "partner": "bob", "alone": True, "tricks": 3}, "hand.partner", "law 23"),
        ({"maker": "ann", "alone": "bob", "tricks": 3}, "hand.alone", "law 24"),
        ({"maker": "ann", "tricks": 6}, "hand.tricks", "law 43"),
        ({"maker": "ann", "tricks": True}, "hand.tricks", "law 43"),
        ({"maker": "ann"}, "hand.tricks", "law 43"),
        ({"tricks": 3}, "hand.maker", "law 15"),
        ({"maker": "zed", "tricks": 3}, "hand.maker", None),
        ({"maker": 0, "tricks": 3}, "hand.maker", None),
        ({"maker": "ann", "tricks": 3, "revoke": "dealer"}, "hand.revoke", "law 36"),
        ({"maker": "ann", "tricks": 3, "no_score": ["bob", "bob"]}, "hand.no_score[1]", None),
        ({"maker": "ann", "tricks": 3, "void": "no"}, "hand.void", None),
        ({"maker": "ann", "tricks": 3, "trump": "H"}, "hand.trump", None),
    ],
)
def test_bad_deals_are_user_errors_naming_field_and_law(raw, field, law):
    """Laws 15, 22, 23, 24, 36, 43: each bad deal names its field and law."""
    with pytest.raises(ScoringError) as err:
        CALL_ACE.validate_hand(sitting(5), raw)
    assert (err.value.field, err.value.law) == (field, law)


@pytest.mark.parametrize(
    "players", [3, 8, True, None, ["a", "b", "c"], ["a", "b", "c", "a"], ["a", "b", "c", ""]]
)
def test_ruling_C1_four_to_seven_players(players):
    with pytest.raises(ScoringError) as err:
        CALL_ACE.start({}, players)
    assert err.value.field.startswith("players")


def test_unnamed_sitting_rejects_an_index_out_of_range():
    """Law 1: seats 0 to n-1 only."""
    with pytest.raises(ScoringError) as err:
        CALL_ACE.validate_hand(CALL_ACE.start({}, 4), {"maker": 4, "tricks": 3})
    assert err.value.field == "hand.maker"


@pytest.mark.parametrize("players", [NAMES[:5], 5])
@pytest.mark.parametrize(
    "raw",
    [
        {"maker": 1, "partner": 3, "tricks": 4, "no_score": [3], "wrong_cards": [0]},
        {"maker": 2, "alone": True, "revoke": "adversaries"},
        {"void": True},
    ],
)
def test_a_validated_deal_returns_to_its_raw_shape(players, raw):
    """Laws 17, 20, 27, 36, 43: what validate_hand reads, as_dict writes back."""
    state = CALL_ACE.start({}, players)
    if isinstance(players, list):
        raw = {
            k: (
                players[v]
                if k in ("maker", "partner")
                else [players[i] for i in v]
                if isinstance(v, list)
                else v
            )
            for k, v in raw.items()
        }
    parsed = CALL_ACE.validate_hand(state, raw)
    again = CALL_ACE.validate_hand(state, parsed.as_dict())
    assert again == parsed
    assert {k: v for k, v in parsed.as_dict().items() if k in raw} == raw
