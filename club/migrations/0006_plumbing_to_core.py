"""The workers' heartbeats and the idempotency records now belong to core (its 0001):
dropped from club's state only; the tables stay, core's models use them."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0005_table_links"),
        ("core", "0001_plumbing_from_club"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="WorkerHeartbeat"),
                migrations.DeleteModel(name="IdempotencyRecord"),
            ],
            database_operations=[],
        ),
    ]
