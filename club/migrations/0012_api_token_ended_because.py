"""An API token's end, with its reason: `logged_out_at` becomes `ended_at`, beside
`ended_because` (a logout, or a password change saved through the model, which now
writes its moment too; club.secretary_tokens)."""

from django.db import migrations, models


def logouts_say_so(apps, schema_editor):
    """Every token ended so far was ended by a logout: a password change was seen only by
    its stamp, which goes on seeing it."""
    ApiToken = apps.get_model("club", "ApiToken")
    ApiToken.objects.filter(ended_at__isnull=False).update(ended_because="logged_out")


def only_logouts_are_kept(apps, schema_editor):
    """Backwards, `logged_out_at` holds logouts alone: a password change's moment is let go
    (the token's stamp still ends it)."""
    ApiToken = apps.get_model("club", "ApiToken")
    ApiToken.objects.exclude(ended_because="logged_out").update(ended_at=None)


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0011_api_tokens"),
    ]

    operations = [
        migrations.RenameField(
            model_name="apitoken",
            old_name="logged_out_at",
            new_name="ended_at",
        ),
        migrations.AddField(
            model_name="apitoken",
            name="ended_because",
            field=models.CharField(
                blank=True,
                choices=[
                    ("logged_out", "logged out"),
                    ("password_changed", "the account's password changed"),
                ],
                default="",
                max_length=20,
            ),
        ),
        migrations.RunPython(logouts_say_so, only_logouts_are_kept),
        migrations.AddConstraint(
            model_name="apitoken",
            constraint=models.CheckConstraint(
                condition=(
                    models.Q(("ended_at__isnull", True), ("ended_because", ""))
                    | models.Q(
                        ("ended_at__isnull", False),
                        models.Q(("ended_because", ""), _negated=True),
                    )
                ),
                name="api_token_ended_with_a_reason",
            ),
        ),
    ]
