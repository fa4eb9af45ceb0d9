"""A Call-Ace sitting ended before any deal was played settles nothing (ruling C5,
scoring.rules.call_ace.UNPLAYED_SITTING), as the service now writes it: no settlement at
all. One closed before writes a row of 0.00 for each of its players, which the evening's
ledgers (the board, the results page, the ledger CSV, the API) listed as money settled.
Those rows are taken away; each seat's stake won was 0 with them and stays 0 without."""

from django.db import migrations

CALL_ACE = "call-ace-foster-1905"


def forwards(apps, schema_editor):
    Settlement = apps.get_model("scoring", "Settlement")
    Settlement.objects.filter(
        rubber__ruleset=CALL_ACE, rubber__status="complete", rubber__hand_count=0
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0015_explanation_lines_without_his"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
