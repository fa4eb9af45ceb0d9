"""Lone hands made were recounted (scoring 0011: one that scored nothing is not one); every
standing is marked for recalculation (the outbox), so the sweep counts them afresh."""

from importlib import import_module

from django.db import migrations


# The same marking as 0006's, which stays as it was.
mark_all_dirty = import_module("tournaments.migrations.0006_stake_and_rounds_won").mark_all_dirty


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0009_outbox_not_indexed_by_player'),
        ('scoring', '0011_lone_hands_that_scored'),
    ]

    operations = [
        migrations.RunPython(mark_all_dirty, migrations.RunPython.noop),
    ]
