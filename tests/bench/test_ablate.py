"""bench/ablate.py, a recorded hand's features measured by leaving each out in turn: it
records hands under every variant, prints their figures, and leaves every feature on."""

import argparse
import json

from django.db import connection
from rest_framework.views import APIView

from bench import ablate, phases
from bench.serial import InProcess, in_process_tables
from club.models import EveningEvent
from core.models import IdempotencyRecord
from scoring import signals
from scoring.models import Hand
from tournaments.management.season import season_make
from tournaments.models import StandingsDirty

ROUNDS, HANDS, TABLES = 2, 4, 2


def _switched_on() -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SHOW session_replication_role")
        role = cursor.fetchone()[0]
    uids = {  # a receiver's lookup key: (its dispatch_uid, its sender's)
        entry[0][0]
        for signal in (signals.rubber_changed, signals.hand_recorded)
        for entry in signal.receivers
    }
    return {
        "triggers": role,
        "request": InProcess.request,
        "throttles": APIView.get_throttles,
        "outbox": "standings-outbox" in uids,
        "evening log": "evening-hand" in uids,
    }


def test_each_feature_is_left_out_in_turn_and_put_back(db, postgres, tmp_path, capsys):
    season_make(club_slug="season-club", players=40, evenings=3, hands=300, seed=5)
    plan = tmp_path / "plan.json"
    phases.phase_prepare_load(argparse.Namespace(club="season-club", clients=TABLES, plan=plan))
    before = _switched_on()
    assert before["triggers"] == "origin" and before["outbox"] and before["evening log"]
    hands = Hand.objects.count()

    figures = ablate.main([
        "--plan", str(plan), "--hands", str(HANDS), "--rounds", str(ROUNDS),
        "--warm", "2", "--tables", str(TABLES),
    ])  # fmt: skip

    printed = capsys.readouterr().out
    assert list(figures) == list(ablate.variants())
    for name, runs in figures.items():
        assert len(runs) == ROUNDS and all(python > 0 for python, _ in runs), name
        assert name in printed
    # Every hand of every variant was recorded: a feature left out refuses nothing.
    assert Hand.objects.count() == hands + 2 + ROUNDS * len(figures) * (TABLES + HANDS)
    assert _switched_on() == before


def test_each_variant_leaves_its_feature_out_and_only_while_it_runs(db, postgres, tmp_path):
    season_make(club_slug="season-club", players=40, evenings=3, hands=300, seed=5)
    plan = tmp_path / "plan.json"
    phases.phase_prepare_load(argparse.Namespace(club="season-club", clients=1, plan=plan))
    play = in_process_tables(json.loads(plan.read_text()), 1)
    history = Hand._meta.get_field("history").related_model
    counted = {
        "no Idempotency-Key": IdempotencyRecord.objects,
        "no triggers (audit, foreign keys)": history.objects,
        "no standings outbox": StandingsDirty.objects,
        "no evening log": EveningEvent.objects,
    }

    def written() -> dict:
        StandingsDirty.objects.all().delete()  # so that a hand's outbox rows are new rows
        before = {name: rows.count() for name, rows in counted.items()}
        play(1)
        return {name: rows.count() - before[name] for name, rows in counted.items()}

    everything = written()
    assert all(everything.values()), everything  # each feature writes its rows
    for name, leave_out in ablate.variants().items():
        with leave_out():
            if name in ("no throttles", "none of them"):
                assert APIView().get_throttles() == []
            rows = written()
        for feature, count in rows.items():
            assert (count == 0) == (name in (feature, "none of them")), (name, rows)
    assert written() == everything
