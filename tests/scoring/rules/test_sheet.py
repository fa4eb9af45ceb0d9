"""score_sheet: a whole scoresheet at once, its field paths, money, and the documented examples."""

import json
import re
from decimal import Decimal
from itertools import pairwise
from pathlib import Path

import pytest

from scoring.rules import ScoringError
from scoring.rules.base import parse_stake
from scoring.sheet import score_sheet

PAIRS = {"NS": ["ann", "bob"], "EW": ["cy", "di"]}
LONE_MARCH = {"makers": "NS", "alone": True, "tricks": 5}


def euchre(hands, **kw):
    return {"ruleset": "euchre-somerset-1888", "hands": hands, **kw}


def error(sheet):
    with pytest.raises(ScoringError) as err:
        score_sheet(sheet)
    return err.value


def test_law_7_ten_point_rubber_scored_at_once_with_its_ledger_ruling_M1():
    out = score_sheet(euchre([LONE_MARCH] * 5, players=PAIRS, stake="0.25"))
    assert out["hands"][0]["lines"] == ["law 3: lone hand, five tricks: 4"]
    assert [g["value"] for g in out["games"]] == [2, 2, 2, 2]
    assert out["rubber"] == {
        "complete": True,
        "winner": "NS",
        "totals": {"NS": 10, "EW": 0},
        "value": 10,
    }
    assert out["ledger"] == {"ann": "2.50", "bob": "2.50", "cy": "-2.50", "di": "-2.50"}
    json.dumps(out)  # the whole answer is JSON


def test_unfinished_rubber_has_no_value_and_no_ledger():
    """Ruling E4: a rubber has a value only when complete; ruling M1 settles only then."""
    out = score_sheet(euchre([LONE_MARCH] * 2, players=PAIRS, stake="1"))
    assert out["rubber"]["complete"] is False and out["rubber"]["value"] is None
    assert out["ledger"] is None
    assert out["current"] == {"number": 2, "scores": {"NS": 3, "EW": 0}}


def test_no_ledger_without_names_or_without_stake():
    """Ruling M1: money needs a stake and the players' names."""
    assert score_sheet(euchre([LONE_MARCH] * 5, stake="1"))["ledger"] is None
    assert score_sheet(euchre([LONE_MARCH] * 5, players=PAIRS))["ledger"] is None


def test_a_bad_hand_is_named_by_its_index_in_the_sheet():
    """Law 2: five tricks at most; the error names hands[3]."""
    hands = [LONE_MARCH] * 3 + [{"makers": "EW", "tricks": 6}]
    err = error(euchre(hands))
    assert (err.field, err.law) == ("hands[3].tricks", "law 2")


def test_ruling_E1_a_hand_after_the_rubber_is_refused_in_a_sheet():
    err = error(euchre([LONE_MARCH] * 6))
    assert (err.field, err.law) == ("hands[5]", "ruling E1")


@pytest.mark.parametrize(
    ("sheet", "field", "law"),
    [
        ({"hands": []}, "ruleset", None),
        ({"ruleset": "whist", "hands": []}, "ruleset", None),
        (euchre([], stake=0.25), "stake", "ruling M1"),
        (euchre([], stake="a shilling"), "stake", "ruling M1"),
        (euchre([], stake="-1"), "stake", "ruling M1"),
        (euchre([], stake="NaN"), "stake", "ruling M1"),
        (euchre([], stake=True), "stake", "ruling M1"),
        (euchre([], players={"NS": ["ann"], "EW": ["cy", "di"]}), "players.NS", None),
        (euchre([], players={"NS": ["ann", "bob"], "EW": ["cy", "ann"]}), "players.EW[1]", None),
        (euchre([], players=["ann", "bob", "cy", "di"]), "players", None),
        (euchre([], date="1888-03-01"), "date", None),
        (euchre([], deals=[]), "deals", None),
        (euchre({"makers": "NS"}), "hands", None),
        (euchre([], closed=True), "closed", "ruling E1"),
        (euchre([], options={"lap": False}), "options.lap", None),
        (
            {"ruleset": "bridge-elwell-1907", "options": {"odd_trick_cap": 150}},
            "options.odd_trick_cap",
            "ruling B1",
        ),
        (
            {
                "ruleset": "bridge-elwell-1907",
                "options": {"odd_trick_cap": 100},
                "hands": [
                    {
                        "declarer": "NS",
                        "trump": "H",
                        "doubles": 5,
                        "tricks": {"NS": 7, "EW": 6},
                        "honours": {"side": "NS", "held": 3, "in_one_hand": 2},
                    }
                ],
            },
            "hands[0].doubles",
            "ruling B1",
        ),
        ({"ruleset": "call-ace-foster-1905", "deals": []}, "players", "law 1"),
        (
            {
                "ruleset": "call-ace-foster-1905",
                "players": ["a", "b", "c", "d"],
                "deals": [{"maker": "a", "partner": "a", "tricks": 3}],
            },
            "deals[0].partner",
            "law 22",
        ),
        ({"ruleset": "call-ace-foster-1905", "players": 4, "hands": []}, "hands", None),
        ([], None, None),
    ],
)
def test_sheet_errors_name_the_field(sheet, field, law):
    """Rulings M1, B1, E1, laws 1, 22: sheet-level errors name their field."""
    err = error(sheet)
    assert (err.field, err.law) == (field, law)


def test_call_ace_sheet_by_name_with_settlement_and_ledger_ruling_C5():
    sheet = {
        "ruleset": "call-ace-foster-1905",
        "players": ["ann", "bob", "cy", "di", "ed"],
        "stake": "0.10",
        "deals": [
            {"maker": "ann", "alone": True, "tricks": 5},  # law 44: five in five-hand
            {"maker": "bob", "partner": "cy", "tricks": 1},  # law 46: ann, di, ed 2 each
        ],
    }
    out = score_sheet(sheet)
    assert [d["points"]["ann"] for d in out["deals"]] == [5, 2]
    assert out["totals"] == {"ann": 7, "bob": 0, "cy": 0, "di": 2, "ed": 2}
    # n x own - sum (sum = 11): ann 35 - 11 = 24, bob -11, cy -11, di -1, ed -1.
    assert out["settlement"] == {"ann": 24, "bob": -11, "cy": -11, "di": -1, "ed": -1}
    assert out["ledger"] == {
        "ann": "2.40",
        "bob": "-1.10",
        "cy": "-1.10",
        "di": "-0.10",
        "ed": "-0.10",
    }
    assert out["rubber"]["complete"] is True


def test_call_ace_sheet_left_open_has_no_ledger():
    """Ruling C5: a sitting is settled at its end; law 44: a lone march for four is 4."""
    sheet = {
        "ruleset": "call-ace-foster-1905",
        "players": ["a", "b", "c", "d"],
        "stake": "1",
        "closed": False,
        "deals": [{"maker": "a", "alone": True, "tricks": 5}],
    }
    out = score_sheet(sheet)
    assert out["rubber"]["complete"] is False and out["ledger"] is None
    assert out["settlement"] == {"a": 12, "b": -4, "c": -4, "d": -4}


def test_call_ace_sheet_with_unnamed_seats_refers_to_players_by_index():
    """Law 43: march with a partner, six playing, 3 each; seats by index, and in the lines
    a person reads, by the players' numbers counted from one (Foster names no seat)."""
    sheet = {
        "ruleset": "call-ace-foster-1905",
        "players": 6,
        "stake": "1",
        "deals": [{"maker": 5, "partner": 0, "tricks": 5}],
    }
    out = score_sheet(sheet)
    assert out["deals"][0]["points"] == {"0": 3, "1": 0, "2": 0, "3": 0, "4": 0, "5": 3}
    assert out["deals"][0]["facts"]["maker"] == 5 and out["deals"][0]["facts"]["partner"] == 0
    assert out["deals"][0]["lines"] == [
        "law 43: Player 6 and Player 1, five tricks (march) with six playing: 3 each"
    ]
    assert out["ledger"] is None  # no names, no ledger


def test_call_ace_lines_name_unnamed_players_in_words_never_by_index():
    """Every kind of line that names a player: a partnership, a lone hand, a euchre, a
    revoke, no score (rulings C2-C4)."""
    deals = [
        {"maker": 0, "partner": 2, "tricks": 3},
        {"maker": 1, "alone": True, "tricks": 5},
        {"maker": 3, "tricks": 1, "no_score": [4]},
        {"maker": 4, "partner": 1, "revoke": "adversaries", "wrong_cards": [2]},
    ]
    out = score_sheet({"ruleset": "call-ace-foster-1905", "players": 5, "deals": deals})
    assert [deal["lines"] for deal in out["deals"]] == [
        ["law 43: Player 1 and Player 3, three tricks: 1 each"],
        ["law 44: Player 2 alone, five tricks: 5, one for each of the five players"],
        [
            "law 46: Player 4 euchred with one trick: every other player scores 2 (ruling C2)",
            "ruling C4: Player 5 scores nothing this deal (2 not counted), under law 20 or law 27",
        ],
        [
            "law 36: an adversary revoked: Player 5 and Player 2 score a march, 3 each (ruling C3)",
            "law 27: Player 3 scores nothing this deal: wrong number of cards (ruling C4)",
        ],
    ]


def test_bridge_sheet_money_follows_the_rubber_value_ruling_M1():
    nt = {"declarer": "NS", "trump": "NT", "tricks": {"NS": 10, "EW": 3}}
    out = score_sheet(
        {"ruleset": "bridge-elwell-1907", "players": PAIRS, "stake": "0.01", "hands": [nt, nt]}
    )
    # Two games of 48 and the rubber's 100.
    assert out["rubber"]["value"] == 196
    assert out["ledger"]["ann"] == "1.96" and out["ledger"]["di"] == "-1.96"
    assert sum(Decimal(v) for v in out["ledger"].values()) == 0


# --- the examples in docs/scoresheet.md are what the engine answers ----------------------------

DOC = Path(__file__).resolve().parents[3] / "docs" / "scoresheet.md"


def doc_examples():
    if not DOC.exists():
        return []
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(), flags=re.S)
    parsed = [json.loads(block) for block in blocks]
    # An example is a sheet (it names its rule set) followed at once by the engine's answer
    # (which alone carries a "rubber").
    return [
        (sheet, answer)
        for sheet, answer in pairwise(parsed)
        if isinstance(sheet, dict)
        and "ruleset" in sheet
        and "rubber" not in sheet
        and isinstance(answer, dict)
        and "rubber" in answer
    ]


def test_docs_have_an_example_for_each_game():
    """docs/scoresheet.md shows a sheet and answer for each rule set."""
    games = {sheet["ruleset"] for sheet, _ in doc_examples()}
    assert games == {"euchre-somerset-1888", "call-ace-foster-1905", "bridge-elwell-1907"}


@pytest.mark.parametrize(("sheet", "answer"), doc_examples())
def test_docs_example_is_what_the_engine_answers(sheet, answer):
    """The documented answers (checked by hand in the doc's prose) are the engine's."""
    assert score_sheet(sheet) == answer


@pytest.mark.parametrize("stake", ["1e3", "1E2", "NaN", "Infinity", "1_000", " 1_000"])
def test_a_stake_not_in_digits_and_a_point_is_refused(stake):
    """Ruling M1: the rule sets' `parse_stake` read "1e3" as 1000 (Python's Decimal)."""
    with pytest.raises(ScoringError) as refused:
        parse_stake(stake)
    assert refused.value.field == "stake" and refused.value.law == "ruling M1"
    assert "in the digits 0 to 9, with a point before the pence" in refused.value.message
    assert parse_stake(" 0.25 ") == Decimal("0.25") and parse_stake("1.") == Decimal("1")
