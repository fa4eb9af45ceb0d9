"""Lone hands made were recounted again (scoring 0012: a lone hand whose points were lost
under rulings E6 and E2 scored nothing, so is not one); every standing is marked for
recalculation (the outbox), so the sweep counts them afresh."""

from importlib import import_module

from django.db import migrations

# The same marking as 0006's, which stays as it was.
mark_all_dirty = import_module("tournaments.migrations.0006_stake_and_rounds_won").mark_all_dirty


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0011_fixed_deal_rounds_won_early'),
        ('scoring', '0012_lone_hands_not_lost'),
    ]

    operations = [
        migrations.RunPython(mark_all_dirty, migrations.RunPython.noop),
    ]
