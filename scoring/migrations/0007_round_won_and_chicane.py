"""Seats learn whether they won their table (the "rounds won" metric, ruling P1), and the
honours kept per player count chicane as the rubber's score does (ruling B4).

The honours rule is written out here, not imported, so that this migration keeps meaning
what it meant when the code moves on; the seats are then rolled up afresh (see below).
"""

from django.db import migrations, models

TRICK_VALUE = {"S": 2, "C": 4, "D": 6, "H": 8, "NT": 12}
SIDES = ("NS", "EW")


def _honours_scored(facts):
    """scoring.rules.bridge.honours_scored as it stood (rulings B3, B4)."""
    held = facts.get("honours") or {}
    scored = {side: held.get(side, 0) for side in SIDES}
    chicane = facts.get("chicane") or {}
    for index, side in enumerate(SIDES):
        voids = chicane.get(side) or 0
        if voids and facts.get("trump") in TRICK_VALUE:
            value = (2 if voids == 1 else 4) * TRICK_VALUE[facts["trump"]]
            if held.get(side, 0) > 0:
                scored[side] += value
            else:
                scored[SIDES[1 - index]] -= value
    return scored


def forwards(apps, schema_editor):
    Hand = apps.get_model("scoring", "Hand")
    HandScore = apps.get_model("scoring", "HandScore")
    RubberPlayer = apps.get_model("scoring", "RubberPlayer")
    bridge = Hand.objects.filter(rubber__ruleset="bridge-elwell-1907").values_list("pk", "facts")
    for hand_id, facts in bridge.iterator(chunk_size=2000):
        if not any((facts.get("chicane") or {}).values()):
            continue
        for side, value in _honours_scored(facts).items():
            HandScore.objects.filter(hand_id=hand_id, side=side).update(honours=value)
    # Every seat's totals from its rubber's rows, with the honours above and whether it
    # won its table. The roll-up's SQL writes every column of the seats as the code has
    # them, so a later migration adding a seat total must move this call to itself.
    if RubberPlayer.objects.exists():
        from scoring.rollup import rollup_rubbers

        rollup_rubbers()


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0006_seat_totals'),
    ]

    operations = [
        migrations.AddField(
            model_name='rubberplayer',
            name='round_won',
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
