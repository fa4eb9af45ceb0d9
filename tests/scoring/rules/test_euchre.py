"""Somerset Club Euchre (1888): every scoring law and ruling E1-E9, figures worked from the laws."""

from decimal import Decimal

import pytest

from scoring.rules import RULESETS, ScoringError, get_ruleset
from scoring.rules.base import WORDS
from scoring.rules.euchre import EuchreGame, EuchreState

EUCHRE = get_ruleset("euchre-somerset-1888")


def hand(makers="NS", tricks=3, **kw):
    return {"makers": makers, "tricks": tricks, **kw}


def score(raw, state=None):
    """Validate and apply one raw hand; return (new state, result)."""
    state = state or EUCHRE.start({})
    return EUCHRE.apply(state, EUCHRE.validate_hand(state, raw))


def play(raws, state=None):
    """Fold raw hands through the rule set; return the final state and every result."""
    state = state or EUCHRE.start({})
    results = []
    for i, raw in enumerate(raws):
        state, result = EUCHRE.apply(
            state, EUCHRE.validate_hand(state, raw, field_prefix=f"hands[{i}]")
        )
        results.append(result)
    return state, results


def texts(result):
    return [str(line) for line in result.lines]


# --- law 2: the partnership hand ---------------------------------------------------------------


@pytest.mark.parametrize("tricks", [3, 4])
def test_law_2_makers_three_or_four_tricks_score_one(tricks):
    _, r = score(hand("EW", tricks))
    assert r.points == {"NS": 0, "EW": 1}
    # The sides in words, as the sheet's Play column names them (side_name).
    assert texts(r) == [f"law 2: E-W make, {WORDS[tricks]} tricks: 1"]


def test_law_2_makers_march_scores_two():
    _, r = score(hand("NS", 5))
    assert r.points == {"NS": 2, "EW": 0}
    assert r.facts["march"] == "NS"
    assert texts(r) == ["law 2: N-S make, five tricks (march): 2"]


@pytest.mark.parametrize("tricks", [0, 1, 2])
def test_law_2_makers_euchred_adversaries_score_two(tricks):
    _, r = score(hand("NS", tricks))
    assert r.points == {"NS": 0, "EW": 2}
    assert r.facts["euchred"] == "NS"
    trick_s = "trick" if tricks == 1 else "tricks"
    assert texts(r) == [f"law 2: N-S make, {WORDS[tricks]} {trick_s} (euchred): 2 to E-W"]


# --- law 3: the lone hand ----------------------------------------------------------------------


def test_law_3_lone_march_scores_four_and_explains_itself():
    _, r = score(hand("NS", 5, alone=True))
    assert r.points == {"NS": 4, "EW": 0}
    assert texts(r) == ["law 3: lone hand, five tricks: 4"]
    assert r.facts["lone"] == "NS" and r.facts["lone_made"] is True


@pytest.mark.parametrize("tricks", [3, 4])
def test_law_3_lone_hand_three_or_four_tricks_scores_one(tricks):
    _, r = score(hand("EW", tricks, alone=True))
    assert r.points == {"NS": 0, "EW": 1}


@pytest.mark.parametrize("tricks", [0, 1, 2])
def test_law_3_lone_hand_euchred_adversaries_score_four(tricks):
    _, r = score(hand("EW", tricks, alone=True))
    assert r.points == {"NS": 4, "EW": 0}
    assert r.facts["lone_made"] is False and r.facts["euchred"] == "EW"


# --- law 102 and law 50 (ruling E5) ------------------------------------------------------------


def test_law_102_lone_march_after_partner_exposed_a_card_scores_two():
    _, r = score(hand("NS", 5, alone=True, law102=True))
    assert r.points == {"NS": 2, "EW": 0}
    assert r.lines[0].law == "law 102"


def test_law_102_euchre_still_gives_four_ruling_E5():
    _, r = score(hand("NS", 2, alone=True, law102=True))
    assert r.points == {"NS": 0, "EW": 4}


def test_law_102_point_still_scores_one():
    _, r = score(hand("NS", 4, alone=True, law102=True))
    assert r.points == {"NS": 1, "EW": 0}


@pytest.mark.parametrize("tricks", [0, 2, 4, 5])
def test_law_50_adversary_abandons_against_lone_hand_scores_five(tricks):
    # Five points to the lone player whatever tricks were taken when the hand was abandoned.
    state = EuchreState(ns=0, ew=4)
    _, r = score(hand("EW", tricks, alone=True, law50=True), state)
    assert r.lines[0].law == "law 50"
    assert r.game_won == "EW"
    assert r.facts["lap"] == 4  # 4 + 5 = 9: five win the game, four are the lap (ruling E2)


def test_law_50_five_points_on_a_fresh_game():
    _, r = score(hand("NS", 1, alone=True, law50=True))
    assert r.points == {"NS": 5, "EW": 0}
    assert r.game_won == "NS"


# --- revokes: laws 63, 70, 71, 4 (ruling E7) ---------------------------------------------------


def test_law_63_revoke_gives_three_to_adversaries_and_law_70_hand_still_scores():
    _, r = score(hand("NS", 4, revokes=["EW"]))
    assert r.points == {"NS": 3 + 1, "EW": 0}
    laws = [line.law for line in r.lines]
    assert laws[:3] == ["law 63", "law 70", "law 2"]


def test_law_63_revoke_in_a_lone_hand_costs_five():
    _, r = score(hand("NS", 1, alone=True, revokes=["NS"]))
    # EW: five for the revoke, then four for euchring the lone hand (9: game and a lap of 4).
    assert r.points == {"NS": 0, "EW": 9}
    assert r.facts["lap"] == 4


def test_law_63_penalty_claimed_for_each_revoke():
    _, r = score(hand("NS", 3, revokes=["NS", "NS"]))
    # Two revokes by NS: six to EW, a game won at once (lap 1); NS's point is then lost (E6).
    assert r.points == {"NS": 0, "EW": 6}
    assert r.game_won == "EW"


def test_law_71_equal_revokes_cancel_ruling_E7():
    _, r = score(hand("EW", 4, revokes=["NS", "EW"]))
    assert r.points == {"NS": 0, "EW": 1}
    assert r.lines[0].law == "law 71"


def test_law_71_only_the_excess_revoke_is_paid():
    _, r = score(hand("EW", 3, revokes=["NS", "EW", "NS"]))
    assert r.points == {"NS": 0, "EW": 3 + 1}


def test_law_4_ruling_E6_revoke_scored_before_the_hand_decides_the_game_value():
    # NS 4, EW 0. NS revoke: EW 3 first (law 4); then NS make a point and reach five.
    # Were the hand scored first, EW would have had nothing and the game counted two.
    state, r = score(hand("NS", 3, revokes=["NS"]), EuchreState(ns=4, ew=0))
    assert r.game_won == "NS"
    assert r.points == {"NS": 1, "EW": 3}
    assert state.games[-1].value == 1


def test_ruling_E6_losers_further_points_from_the_hand_are_lost():
    # NS 3, EW 4. NS revoke: EW 7, the game (lap 2). NS's march (2) comes after: lost.
    state, r = score(hand("NS", 5, revokes=["NS"]), EuchreState(ns=3, ew=4))
    assert r.game_won == "EW"
    assert r.points == {"NS": 0, "EW": 3}
    assert (state.ns, state.ew) == (0, 2)
    assert any(line.law == "ruling E6" and "lost" in line.text for line in r.lines)


def test_ruling_E6_winners_further_points_from_the_hand_are_their_lap():
    # NS 2, EW 4. NS revoke: EW 7 (lap 2); EW then march as makers: 2 more, a lap of 4.
    state, r = score(hand("EW", 5, revokes=["NS"]), EuchreState(ns=2, ew=4))
    assert r.points == {"NS": 0, "EW": 5}
    assert r.facts["lap"] == 4
    assert (state.ns, state.ew) == (0, 4)


# --- law 90 (ruling E8) ------------------------------------------------------------------------


def test_law_90_offending_makers_forfeit_two_and_score_nothing():
    _, r = score(hand("NS", 4, law90="NS"))
    assert r.points == {"NS": 0, "EW": 2}
    assert [line.law for line in r.lines].count("law 90") == 2


def test_law_90_forfeit_is_four_in_a_lone_hand():
    _, r = score(hand("NS", 5, alone=True, law90="NS"))
    assert r.points == {"NS": 0, "EW": 4}


@pytest.mark.parametrize("offender, made", [("NS", False), ("EW", True)])
def test_law_90_a_lone_hand_is_made_only_when_it_scored(offender, made):
    """Ruling E8: the offending side scores nothing that its play made, so its lone march
    is no lone hand made (law 3); the adversaries' offence leaves the lone hand scoring."""
    _, r = score(hand("NS", 5, alone=True, law90=offender))
    assert r.facts["lone"] == "NS" and r.facts["march"] == "NS"
    assert r.facts["lone_made"] is made


def test_ruling_E6_a_lone_hand_whose_points_were_lost_is_no_lone_hand_made():
    """Ruling E6: the lone side's own revoke (five, law 63) is scored first and wins the
    adversaries the game; the lone hand's point "from that hand is lost", so it scored
    nothing and is no lone hand made (law 3, as the standings count them). The
    adversaries' revoke leaves the lone hand scoring, as its lap: made."""
    _, r = score(hand("NS", 4, alone=True, revokes=["NS"]))
    assert r.game_won == "EW" and r.points == {"NS": 0, "EW": 5}
    assert r.facts["lone"] == "NS" and r.facts["lone_made"] is False
    _, r = score(hand("NS", 4, alone=True, revokes=["EW"]))
    assert r.points == {"NS": 5 + 1, "EW": 0} and r.facts["lone_made"] is True


def test_ruling_E2_a_lone_hand_lost_as_the_last_games_lap_is_no_lone_hand_made():
    """Ruling E2: a lap made in the last game of a rubber is lost. When the adversaries'
    revoke (five against a lone hand, law 63, scored first, law 4) has already won the
    lone side the rubber's last game, the lone march's four are all lap, and lost: the
    lone hand scored nothing. From four, the same march scores its one point: made."""
    # The fourth game (ruling E1: the third ended with NS's lap of one, carried in).
    games = (EuchreGame(0, 2, 0, 5, 0, 1), EuchreGame(1, 2, 0, 0, 5, 2),
             EuchreGame(0, 1, 1, 5, 3, 3))  # fmt: skip
    last = EuchreState(ns=1, ew=0, games=games, winner=0)
    state, r = score(hand("NS", 5, alone=True, revokes=["EW"]), last)
    assert EUCHRE.is_complete(state) and r.points == {"NS": 4, "EW": 0}  # 5 + 4, lap 5 lost
    assert r.facts["lone_made"] is False
    _, r = score(hand("NS", 5, alone=True), last._replace(ns=4))
    assert r.points == {"NS": 1, "EW": 0} and r.facts["lone_made"] is True


def test_law_90_offending_adversaries_forfeit_two_and_the_makers_score_their_hand():
    _, r = score(hand("NS", 3, law90="EW"))
    assert r.points == {"NS": 2 + 1, "EW": 0}


def test_law_90_offending_adversaries_lose_their_euchre():
    _, r = score(hand("NS", 1, law90="EW"))
    assert r.points == {"NS": 2, "EW": 0}


# --- law 7 and rulings E1-E4: games, laps and the rubber ---------------------------------------


def test_law_7_game_counts_two_when_losers_failed_to_score_ruling_E3():
    state, results = play([hand("NS", 5), hand("NS", 5), hand("NS", 3)])
    assert results[-1].game_won == "NS"
    assert state.games[0] == EuchreGame(winner=0, value=2, lap=0, ns=5, ew=0, last_hand=3)


def test_law_7_game_counts_one_when_losers_scored():
    state, _ = play([hand("EW", 3), hand("NS", 5), hand("NS", 5), hand("NS", 3)])
    assert state.games[0].value == 1


def test_ruling_E2_lap_is_carried_into_the_next_game():
    state, results = play([hand("NS", 5, alone=True), hand("NS", 5, alone=True)])
    assert results[-1].game_won == "NS"
    assert results[-1].facts["lap"] == 3  # 4 + 4 = 8: five win, three carried
    assert (state.ns, state.ew) == (3, 0)


def test_ruling_E3_lap_carried_in_counts_as_scored_so_its_side_losing_is_single():
    # Game 1: NS 4 + 2 = 6, lap 1. Game 2: EW take five while NS hold only their lap.
    state, _ = play(
        [hand("NS", 5, alone=True), hand("NS", 5), hand("EW", 5, alone=True), hand("EW", 3)]
    )
    assert state.games[1].winner == 1
    assert state.games[1].value == 1


def test_ruling_E1_third_game_is_played_after_the_first_two_are_won_by_one_side_law_1():
    state, results = play([hand("NS", 5, alone=True), hand("NS", 3)] * 2)
    assert len(state.games) == 2
    assert state.winner == 0
    assert not EUCHRE.is_complete(state)
    assert results[-1].rubber_complete is False
    summary = EUCHRE.summary(state)
    assert summary["rubber"]["winner"] == "NS" and summary["rubber"]["complete"] is False


def test_ruling_E1_third_game_without_a_lap_ends_the_rubber():
    state, results = play([hand("EW", 5, alone=True), hand("EW", 3)] * 3)
    assert EUCHRE.is_complete(state)
    assert results[-1].rubber_complete is True
    assert len(state.games) == 3


def test_ruling_E1_fourth_game_on_a_lap_does_not_change_the_rubber_winner():
    # Games 1 and 2 to NS (4+1 each), game 3 to EW with a lap (4+4 = 8), game 4 to EW.
    raws = [hand("NS", 5, alone=True), hand("NS", 3)] * 2
    raws += [hand("EW", 5, alone=True), hand("EW", 5, alone=True)]
    state, _ = play(raws)
    assert len(state.games) == 3 and not state.complete
    assert (state.ns, state.ew) == (0, 3)  # the fourth game starts with the lap
    state, r = score(hand("EW", 5), state)  # 3 + 2 = 5
    assert r.rubber_complete and r.game_won == "EW"
    summary = EUCHRE.summary(state)
    assert summary["rubber"]["winner"] == "NS"
    # NS won games 1 and 2 against nothing: 2 + 2, and 2 for the rubber = 6.
    # EW: game 3 (8 to 0) double, game 4 (3 + 2 to 0) double = 4 (ruling E4).
    assert summary["rubber"]["totals"] == {"NS": 6, "EW": 4}
    assert summary["rubber"]["value"] == 2


def test_ruling_E2_lap_in_the_last_game_is_lost():
    raws = [hand("NS", 5, alone=True), hand("NS", 3)] * 2
    raws += [hand("EW", 5, alone=True), hand("EW", 5, alone=True)]  # game 3, lap 3
    raws += [hand("EW", 5, alone=True)]  # game 4: 3 + 4 = 7, a lap of 2 that is lost
    state, results = play(raws)
    last = results[-1]
    assert state.complete
    assert last.facts["lap"] == 0
    assert last.points == {"NS": 0, "EW": 2}  # only what reached five counted
    assert any(line.law == "ruling E2" and "lost" in line.text for line in last.lines)
    assert EUCHRE.summary(state)["games"][3]["lap_lost"] is True
    # Nothing carries into the next rubber.
    assert EUCHRE.start({}) == EuchreState()


def test_law_7_ten_points_four_double_games_and_two_for_the_rubber():
    # Lone marches: 8 (lap 3), 3+4 = 7 (lap 2), 2+4 = 6 (lap 1), 1+4 = 5: four double games.
    state, results = play([hand("NS", 5, alone=True)] * 5)
    assert [g.value for g in state.games] == [2, 2, 2, 2]
    assert results[-1].rubber_complete
    assert EUCHRE.rubber_value(state) == 10
    assert EUCHRE.summary(state)["rubber"] == {
        "complete": True,
        "winner": "NS",
        "totals": {"NS": 10, "EW": 0},
        "value": 10,
    }


def test_ruling_E4_rubber_won_by_two_singles_then_lost_double_twice_is_worth_nothing():
    game_to_ns = [hand("EW", 3), hand("NS", 5), hand("NS", 5), hand("NS", 3)]  # 5-1, single
    raws = game_to_ns * 2 + [
        hand("EW", 5, alone=True),
        hand("EW", 5, alone=True),  # lap 3
        hand("EW", 5),
    ]  # 3 + 2: double
    state, _ = play(raws)
    assert state.complete and state.winner == 0
    assert [g.value for g in state.games] == [1, 1, 2, 2]
    assert EUCHRE.rubber_value(state) == 0
    ledger = EUCHRE.settle(state, Decimal("0.50"), {"NS": ["a", "b"], "EW": ["c", "d"]})
    assert ledger == {"a": 0, "b": 0, "c": 0, "d": 0}
    assert all(not str(v).startswith("-") for v in ledger.values())


def test_ruling_E1_no_hand_after_the_rubber_is_over():
    state, _ = play([hand("NS", 5, alone=True)] * 5)
    with pytest.raises(ScoringError) as err:
        EUCHRE.validate_hand(state, hand("NS", 3), field_prefix="hands[5]")
    assert err.value.field == "hands[5]" and err.value.law == "ruling E1"
    with pytest.raises(ScoringError):
        EUCHRE.apply(state, EUCHRE.make_hand("NS", 3))


def test_apply_never_mutates_the_state_it_is_given():
    """Ruling E6 order is replayed from the old state, so apply must be pure."""
    before = EuchreState(ns=4, ew=3, games=(EuchreGame(0, 2, 0, 5, 0, 3),), hands=5)
    copy = EuchreState(*before)
    after, _ = score(hand("NS", 5, revokes=["EW"]), before)
    assert before == copy
    assert after is not before


# --- ruling M1: money --------------------------------------------------------------------------


def test_ruling_M1_each_winner_receives_value_times_stake_from_one_loser():
    state, _ = play([hand("NS", 5, alone=True)] * 5)  # worth ten (law 7)
    ledger = EUCHRE.settle(state, Decimal("0.25"), {"NS": ["ann", "bob"], "EW": ["cy", "di"]})
    assert ledger == {
        "ann": Decimal("2.50"),
        "bob": Decimal("2.50"),
        "cy": Decimal("-2.50"),
        "di": Decimal("-2.50"),
    }
    assert sum(ledger.values()) == 0
    assert all(isinstance(v, Decimal) for v in ledger.values())


def test_ruling_M1_an_unfinished_rubber_cannot_be_settled():
    state, _ = play([hand("NS", 3)])
    with pytest.raises(ScoringError) as err:
        EUCHRE.settle(state, Decimal("1"), {"NS": ["a", "b"], "EW": ["c", "d"]})
    assert err.value.law == "ruling E4"


# --- law 5, ruling E9: corrections -------------------------------------------------------------


def test_law_5_ruling_E9_only_the_latest_hand_may_be_corrected_by_the_players():
    state, _ = play([hand("NS", 3), hand("EW", 4), hand("NS", 5)])
    assert EUCHRE.correction_law == "law 5"
    assert "E9" in EUCHRE.correction_text
    assert EUCHRE.may_correct(state, 3) is True
    assert EUCHRE.may_correct(state, 2) is False
    assert EUCHRE.may_correct(state, 1) is False
    with pytest.raises(ScoringError):
        EUCHRE.may_correct(state, 4)


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "field", "law"),
    [
        (hand(tricks=6), "hand.tricks", "law 2"),
        (hand(tricks=-1), "hand.tricks", "law 2"),
        (hand(tricks=True), "hand.tricks", "law 2"),
        (hand(tricks="3"), "hand.tricks", "law 2"),
        (hand(tricks=3.0), "hand.tricks", "law 2"),
        ({"tricks": 3}, "hand.makers", "law 2"),
        ({"makers": "NS"}, "hand.tricks", "law 2"),
        (hand(makers="N"), "hand.makers", None),
        (hand(makers="NS", alone="EW"), "hand.alone", "law 95"),
        (hand(alone=1), "hand.alone", None),
        (hand(law102=True), "hand.law102", "law 102"),
        (hand(law50=True), "hand.law50", "law 50"),
        (hand(revokes="EW"), "hand.revokes", "law 63"),
        (hand(revokes=["EW", "SN"]), "hand.revokes[1]", "law 63"),
        (hand(revokes=["EW"] * 16), "hand.revokes", "law 62"),
        (hand(law90="both"), "hand.law90", "law 90"),
        (hand(bower=True), "hand.bower", None),
    ],
)
def test_bad_hands_are_user_errors_naming_field_and_law(raw, field, law):
    """Laws 2, 50, 62, 63, 90, 95, 102: each bad hand names its field and law."""
    with pytest.raises(ScoringError) as err:
        EUCHRE.validate_hand(EUCHRE.start({}), raw)
    assert err.value.field == field
    assert err.value.law == law
    assert err.value.as_dict()["code"] == "scoring_error"


def test_a_lone_hand_named_for_the_makers_side_is_accepted_law_93():
    parsed = EUCHRE.validate_hand(EUCHRE.start({}), hand("EW", 5, alone="EW"))
    assert parsed.alone is True


def test_euchre_has_no_club_options():
    """RULINGS.md marks no Euchre ruling (E1-E9) as a club option."""
    assert EUCHRE.validate_options(None) == {}
    with pytest.raises(ScoringError) as err:
        EUCHRE.validate_options({"points_to_win": 10})
    assert err.value.field == "options.points_to_win"


def test_registry_and_unknown_rule_set():
    """The three keys of RULINGS.md; law 11: Euchre is four, two against two."""
    assert set(RULESETS) == {"euchre-somerset-1888", "call-ace-foster-1905", "bridge-elwell-1907"}
    assert EUCHRE.partnership and EUCHRE.min_players == EUCHRE.max_players == 4
    with pytest.raises(ScoringError) as err:
        get_ruleset("whist-1864")
    assert err.value.field == "ruleset"


def test_ruling_E2_E6_a_lap_of_five_or_more_wins_the_next_game_at_once():
    # Lone hand: EW revoke, 5 to NS first (law 63): game 1 won, nothing beyond five yet.
    # Then EW held the wrong cards (law 90): 4 forfeit + NS's lone march 4 = a lap of 8.
    # Game 2 opens at 8: won at once against nothing (double), and 3 carry into game 3.
    state, r = score(hand("NS", 5, alone=True, revokes=["EW"], law90="EW"))
    assert r.points == {"NS": 13, "EW": 0}
    assert r.facts["games_won"] == 2 and r.facts["lap"] == 3
    assert [(g.winner, g.value, g.lap) for g in state.games] == [(0, 2, 8), (0, 2, 3)]
    assert (state.ns, state.ew) == (3, 0) and state.winner == 0 and not state.complete


def test_every_explanation_line_names_a_law_or_ruling():
    """Every line names its law (laws 63, 71, 90, 3) or ruling (E6, E7)."""
    _, results = play(
        [hand("NS", 4, alone=True, revokes=["EW", "EW", "NS"], law90="EW")] + [hand("EW", 1)] * 3
    )
    for r in results:
        assert r.lines
        for line in r.lines:
            assert line.law.startswith(("law ", "ruling "))
            assert str(line) == f"{line.law}: {line.text}"


def test_a_validated_hand_returns_to_its_raw_shape():
    """Laws 3, 63, 90, 102: what validate_hand reads, as_dict writes back."""
    raw = {
        "makers": "EW",
        "alone": True,
        "tricks": 5,
        "revokes": ["NS", "EW", "EW"],
        "law90": "NS",
        "law102": True,
        "law50": False,
    }
    parsed = EUCHRE.validate_hand(EUCHRE.start({}), raw)
    assert parsed.as_dict() == raw | {"revokes": ["NS", "EW", "EW"]}
    assert EUCHRE.validate_hand(EUCHRE.start({}), parsed.as_dict()) == parsed
