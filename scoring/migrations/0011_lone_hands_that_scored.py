"""A lone hand made is one that scored: not the law-90 offender's lone hand in Euchre
(ruling E8: it "scores nothing that its play made"), nor a Call-Ace lone maker's who
scored nothing that deal (his side revoked, law 38 and ruling C3; laws 20 and 27, ruling
C4). Hands recorded before counted them; their flags are mended here and their rubbers'
seats rolled up afresh (tournaments 0010 then marks the standings for recalculation).

The rule is written out here, not imported, so that this migration keeps meaning what it
meant when the code moves on.
"""

from django.db import migrations

CALL_ACE = "call-ace-foster-1905"


def forwards(apps, schema_editor):
    Hand = apps.get_model("scoring", "Hand")
    HandScore = apps.get_model("scoring", "HandScore")
    mended = set()
    # Euchre: the lone side was the law-90 offender.
    euchre = Hand.objects.exclude(rubber__ruleset=CALL_ACE).filter(
        facts__lone_made=True, facts__law90__isnull=False
    )
    for hand in euchre.only("pk", "rubber_id", "facts").iterator(chunk_size=2000):
        if hand.facts.get("law90") != hand.facts.get("lone"):
            continue
        hand.facts = {**hand.facts, "lone_made": False}
        hand.save(update_fields=["facts"])
        HandScore.objects.filter(hand_id=hand.pk).update(lone_made=0)
        mended.add(hand.rubber_id)
    # Call-Ace: the lone maker scored nothing that deal.
    call_ace = HandScore.objects.filter(rubber__ruleset=CALL_ACE, lone_made=1, points=0)
    mended.update(call_ace.values_list("rubber_id", flat=True).distinct())
    call_ace.update(lone_made=0)
    if mended:
        from scoring.rollup import rollup_rubbers

        rollup_rubbers(mended)


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0010_indexes_led_by_constraints'),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
