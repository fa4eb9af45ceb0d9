"""A lone hand made is one that scored, and a Euchre lone hand's points may be lost: when
the lone side's own revoke (five, law 63, scored first, law 4) has won the adversaries the
game, the hand's points are lost (ruling E6); when the adversaries' revoke has already won
the lone side the rubber's last game, they are its lap, and lost (ruling E2). Hands
recorded before counted such a lone hand as made; their flags are mended here from the
points the hand gave the lone side, less the revoke points it was given first, and their
rubbers' seats rolled up afresh (tournaments 0012 then marks the standings for
recalculation).

The rule is written out here, not imported, so that this migration keeps meaning what it
meant when the code moves on.
"""

from django.db import migrations

EUCHRE = "euchre-somerset-1888"


def _revoke_points(data: dict, side: str) -> int:
    """Ruling E7: what the revokes gave `side`, five each in a lone hand."""
    revokes = data.get("revokes") or []
    other = "EW" if side == "NS" else "NS"
    net = revokes.count(other) - revokes.count(side)
    return max(net, 0) * (5 if data.get("alone") else 3)


def forwards(apps, schema_editor):
    Hand = apps.get_model("scoring", "Hand")
    HandScore = apps.get_model("scoring", "HandScore")
    mended = set()
    made = Hand.objects.filter(rubber__ruleset=EUCHRE, facts__lone_made=True)
    for hand in made.only("pk", "rubber_id", "data", "points", "facts").iterator(chunk_size=2000):
        side = hand.facts.get("lone")
        if side not in ("NS", "EW"):
            continue
        if hand.points.get(side, 0) - _revoke_points(hand.data, side) > 0:
            continue  # the hand itself scored
        hand.facts = {**hand.facts, "lone_made": False}
        hand.save(update_fields=["facts"])
        HandScore.objects.filter(hand_id=hand.pk).update(lone_made=0)
        mended.add(hand.rubber_id)
    if mended:
        from scoring.rollup import rollup_rubbers

        rollup_rubbers(mended)


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0011_lone_hands_that_scored'),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
