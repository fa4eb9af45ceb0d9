"""The workers' heartbeats and the idempotency records move from club to core: in
Django's state only. Their tables, made by club's migrations, keep their names."""

from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("club", "0004_clubhistory_cuthistory_eveninghistory_memberhistory_and_more"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="WorkerHeartbeat",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                                   serialize=False, verbose_name="ID")),
                        ("worker", models.CharField(max_length=200, unique=True)),
                        ("task_id", models.CharField(max_length=64)),
                        ("at", models.DateTimeField()),
                    ],
                    options={
                        "ordering": ["-at"],
                        "get_latest_by": "at",
                        "db_table": "club_workerheartbeat",
                    },
                ),
                migrations.CreateModel(
                    name="IdempotencyRecord",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                                   serialize=False, verbose_name="ID")),
                        ("key", models.CharField(max_length=255)),
                        ("principal", models.CharField(max_length=64)),
                        ("method", models.CharField(max_length=10)),
                        ("path", models.CharField(max_length=500)),
                        ("fingerprint", models.CharField(max_length=64)),
                        ("state", models.CharField(choices=[("running", "Running"),
                                                            ("done", "Done")],
                                                   default="running", max_length=8)),
                        ("status", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("content_type", models.CharField(blank=True, max_length=100)),
                        ("body", models.BinaryField(blank=True, default=b"")),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        "db_table": "club_idempotencyrecord",
                        "indexes": [models.Index(fields=["created_at"],
                                                 name="club_idempo_created_608d57_idx")],
                        "constraints": [models.UniqueConstraint(
                            models.F("key"), models.F("principal"), models.F("method"),
                            models.F("path"), name="idempotency_once")],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
