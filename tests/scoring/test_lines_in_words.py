"""A hand's explanation lines name the sides in words, as the sheet's Play column does
(`scoring.rules.base.side_name`: "N-S make, three tricks"), never the internal labels
("makers NS", "EW"), each still naming its law or ruling; and the lines stored before are
reworded by scoring 0013 to exactly what the rule sets now write.

`data/lines_before_0013.json` holds Euchre and Bridge rubbers with the lines the rule sets
wrote for them before 0013 (random rubbers chosen until every kind of line was among
them: revokes, law 90, law 50, law 102, lone hands, laps, chicane, honours, slams, the
rubber's end)."""

import importlib
import json
import re
from pathlib import Path

import pytest
from django.apps import apps

from club import recording
from club.backup import club_export, club_import
from scoring import services
from scoring.models import Hand
from scoring.sheet import score_sheet
from tests.factories import MemberFactory

MIGRATION = importlib.import_module("scoring.migrations.0013_explanation_lines_in_words")
WITHOUT_HIS = importlib.import_module("scoring.migrations.0015_explanation_lines_without_his")
BEFORE = json.loads((Path(__file__).parent / "data" / "lines_before_0013.json").read_text())
LAW = re.compile(r"^(law \d+|ruling [BCE]\d+): ")


def euchre_rubber(club):
    """A Euchre rubber of Ann and Bob (N-S) against Cora and Dan (E-W), members of `club`."""
    for name in ("Ann", "Bob", "Cora", "Dan"):
        MemberFactory(club=club, name=name)
    return services.rubber_start(
        club=club, ruleset="euchre-somerset-1888",
        players={"NS": ["Ann", "Bob"], "EW": ["Cora", "Dan"]},
    )  # fmt: skip


def lines_now(rubber: dict) -> list[list[str]]:
    sheet = score_sheet({"ruleset": rubber["ruleset"], "hands": rubber["hands"]})
    return [hand["lines"] for hand in sheet["hands"]]


@pytest.mark.parametrize("rubber", BEFORE, ids=[f"rubber-{i}" for i in range(len(BEFORE))])
def test_the_lines_name_the_sides_in_words_with_their_laws(rubber):
    now = [line for hand in lines_now(rubber) for line in hand]
    assert now
    for line in now:
        assert LAW.match(line), line  # the law or ruling kept
        assert not re.search(r"\b(NS|EW|makers)\b", line), line


@pytest.mark.parametrize("rubber", BEFORE, ids=[f"rubber-{i}" for i in range(len(BEFORE))])
def test_the_migration_rewords_the_old_lines_as_the_rule_sets_now_write_them(rubber):
    """Each line stored before 0013, reworded by it and then by 0015 (which migrate runs
    in that order), reads as the rule sets now write it."""
    old = rubber["lines"]
    reworded = [[WITHOUT_HIS.reword(MIGRATION.reword(line)) for line in hand] for hand in old]
    assert reworded == lines_now(rubber)


def test_the_lines_read_as_the_play_column():
    hands = [
        {"makers": "NS", "tricks": 3},
        {"makers": "EW", "tricks": 5},
        {"makers": "NS", "tricks": 2},
        {"makers": "EW", "alone": True, "tricks": 1, "revokes": ["NS"]},
    ]
    sheet = score_sheet({"ruleset": "euchre-somerset-1888", "hands": hands})
    assert [hand["lines"] for hand in sheet["hands"]] == [
        ["law 2: N-S make, three tricks: 1"],
        ["law 2: E-W make, five tricks (march): 2"],
        ["law 2: N-S make, two tricks (euchred): 2 to E-W"],
        [
            "law 63: 1 revoke by N-S, five each in a lone hand: 5 to E-W, scored before the "
            "hand (law 4, ruling E6)",
            "law 70: the hand is played out and scored all the same",
            "law 3: lone hand euchred, one trick: 4 to N-S",
            "ruling E6: 4 to N-S lost: E-W had already reached five",
            "ruling E6: E-W reach five and win game 1",
            "law 7: game 1 counts one: N-S scored 1 (ruling E3)",
            "ruling E2: E-W's 4 beyond five is a lap, carried into game 2",
        ],
    ]


def test_the_migration_mends_stored_lines_and_leaves_call_ace_alone(club):
    for name in ("Ann", "Bob", "Cora", "Dan", "NS"):
        MemberFactory(club=club, name=name)
    euchre = services.rubber_start(
        club=club, ruleset="euchre-somerset-1888",
        players={"NS": ["Ann", "Bob"], "EW": ["Cora", "Dan"]},
    )  # fmt: skip
    for data in ({"makers": "NS", "tricks": 3}, {"makers": "EW", "tricks": 1}):
        recording.hand_record(rubber_id=euchre.pk, data=data)
    sitting = services.rubber_start(
        club=club, ruleset="call-ace-foster-1905", players=["Ann", "Bob", "Cora", "Dan", "NS"]
    )
    recording.hand_record(rubber_id=sitting.pk, data={"maker": "NS", "alone": True, "tricks": 3})
    words = {hand.pk: hand.lines for hand in Hand.objects.all()}
    # As the rule sets wrote them before.
    Hand.objects.filter(rubber=euchre, number=1).update(lines=["law 2: makers NS, three tricks: 1"])
    Hand.objects.filter(rubber=euchre, number=2).update(
        lines=["law 2: makers EW euchred, one trick: 2 to NS"]
    )
    call_ace = Hand.objects.get(rubber=sitting)
    assert call_ace.lines == ["law 44: NS alone, three tricks: 1"]  # a player called NS

    MIGRATION.forwards(apps, None)
    assert {hand.pk: hand.lines for hand in Hand.objects.all()} == words
    assert Hand.objects.get(rubber=euchre, number=2).lines == [
        "law 2: E-W make, one trick (euchred): 2 to N-S"
    ]


def test_a_backup_taken_before_restores_with_the_lines_in_words(club):
    """The import scores a backup's hands again (club/backup_scoring.py): its old lines
    are not kept."""
    rubber = euchre_rubber(club)
    recording.hand_record(rubber_id=rubber.pk, data={"makers": "EW", "tricks": 2})
    data = json.loads(json.dumps(club_export(club=club)))
    hands = next(part for part in data["models"] if part["model"] == "scoring.hand")["rows"]
    hands[0]["fields"]["lines"] = ["law 2: makers EW euchred, two tricks: 2 to NS"]
    copy = club_import(data=data, slug="copy", report=[])
    assert Hand.objects.get(rubber__club=copy).lines == [
        "law 2: E-W make, two tricks (euchred): 2 to N-S"
    ]


HIS = re.compile(r"\b(he|his|him|himself)\b", re.IGNORECASE)
LAW50 = {"makers": "NS", "alone": True, "tricks": 2, "law50": True}
PARTNER_WRONG = {"maker": "Ann", "partner": "Bob", "tricks": 3, "wrong_cards": ["Bob"]}


def test_no_line_speaks_of_a_player_as_he():
    """The lines that said "his" (law 50, Euchre; law 27, Call-Ace) speak of a player
    without it, their laws and rulings kept (ruling E5, ruling C4)."""
    euchre = score_sheet({"ruleset": "euchre-somerset-1888", "hands": [LAW50]})
    call_ace = score_sheet({
        "ruleset": "call-ace-foster-1905", "players": ["Ann", "Bob", "Cora", "Dan"],
        "deals": [PARTNER_WRONG],
    })  # fmt: skip
    lines = euchre["hands"][0]["lines"] + call_ace["deals"][0]["lines"]
    assert "law 50: an adversary abandoned their hand against N-S's lone hand: 5 (ruling E5)" in (
        lines
    )
    assert (
        "law 27: Ann scores nothing this deal (1 not counted): their partner held the wrong "
        "number of cards (ruling C4)"
    ) in lines
    assert not [line for line in lines if HIS.search(line)]


def test_0015_rewords_the_stored_lines_that_said_his(club):
    """Stored lines as the rule sets wrote them before 0015 read, after it, as they now
    write them; the other hands' lines are not touched."""
    euchre = euchre_rubber(club)
    recording.hand_record(rubber_id=euchre.pk, data={"makers": "EW", "tricks": 3})
    recording.hand_record(rubber_id=euchre.pk, data=LAW50)
    sitting = services.rubber_start(
        club=club, ruleset="call-ace-foster-1905", players=["Ann", "Bob", "Cora", "Dan"]
    )
    recording.hand_record(rubber_id=sitting.pk, data=PARTNER_WRONG)
    now = {hand.pk: hand.lines for hand in Hand.objects.all()}
    for hand in Hand.objects.all():
        # As the rule sets wrote them before 0015.
        before = [
            line.replace("abandoned their hand", "abandoned his hand").replace(
                "their partner held", "his partner held"
            )
            for line in hand.lines
        ]
        Hand.objects.filter(pk=hand.pk).update(lines=before)
    assert sum(HIS.search(" ".join(hand.lines)) is not None for hand in Hand.objects.all()) == 2

    WITHOUT_HIS.forwards(apps, None)
    assert {hand.pk: hand.lines for hand in Hand.objects.all()} == now
