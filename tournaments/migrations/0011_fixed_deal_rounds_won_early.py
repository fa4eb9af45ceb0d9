"""A round of fixed deals whose rubber was won before its deals ran out is over, won by the
side ahead (ruling P1), and settles at the difference in points (P2): such rubbers' seats
are rolled up afresh, and every standing is marked for recalculation (the outbox)."""

from importlib import import_module

from django.db import migrations

# The same marking as 0006's, which stays as it was.
mark_all_dirty = import_module("tournaments.migrations.0006_stake_and_rounds_won").mark_all_dirty


def forwards(apps, schema_editor):
    Rubber = apps.get_model("scoring", "Rubber")
    ids = list(
        Rubber.objects.filter(deal_limit__isnull=False, status="complete").values_list(
            "pk", flat=True
        )
    )
    if ids:
        from scoring.rollup import rollup_rubbers

        rollup_rubbers(ids)
    mark_all_dirty(apps, schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0010_lone_hands_recounted'),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
