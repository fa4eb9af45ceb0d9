"""A progressive's stake per point (ruling P2) and the "rounds won" total; every standing
is marked for recalculation (the outbox), so the sweep fills the new total and the honours
that now count chicane (ruling B4, scoring 0007)."""

import pgtrigger.compiler
import pgtrigger.migrations
from django.db import migrations, models


def mark_all_dirty(apps, schema_editor):
    TournamentTotal = apps.get_model("tournaments", "TournamentTotal")
    StandingsDirty = apps.get_model("tournaments", "StandingsDirty")
    rows = TournamentTotal.objects.values_list("tournament_id", "member_id")
    StandingsDirty.objects.bulk_create(
        [StandingsDirty(tournament_id=t, member_id=m) for t, m in rows.iterator()],
        ignore_conflicts=True,
        batch_size=2000,
    )


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0005_requested_byes'),
        ('scoring', '0007_round_won_and_chicane'),
    ]

    operations = [
        pgtrigger.migrations.RemoveTrigger(
            model_name='tournament',
            name='insert_insert',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='tournament',
            name='update_update',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='tournament',
            name='delete_delete',
        ),
        migrations.AddField(
            model_name='tournament',
            name='stake',
            field=models.DecimalField(decimal_places=2, default=0, max_digits=12),
        ),
        migrations.AddField(
            model_name='tournamenthistory',
            name='stake',
            field=models.DecimalField(decimal_places=2, default=0, max_digits=12),
        ),
        migrations.AddField(
            model_name='tournamenttotal',
            name='rounds_won',
            field=models.IntegerField(default=0),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='tournament',
            trigger=pgtrigger.compiler.Trigger(name='insert_insert', sql=pgtrigger.compiler.UpsertTriggerSql(func='INSERT INTO "tournaments_tournamenthistory" ("club_id", "created_at", "deals_per_round", "id", "is_public", "kind", "movement", "name", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "precedence", "rounds_planned", "ruleset", "slug", "stake", "standings_round", "standings_version") VALUES (NEW."club_id", NEW."created_at", NEW."deals_per_round", NEW."id", NEW."is_public", NEW."kind", NEW."movement", NEW."name", _pgh_attach_context(), NOW(), \'insert\', NEW."id", NEW."precedence", NEW."rounds_planned", NEW."ruleset", NEW."slug", NEW."stake", NEW."standings_round", NEW."standings_version"); RETURN NULL;', hash='5765db4b1e84785b2ebcab45ba3f9e77997e1c79', operation='INSERT', pgid='pgtrigger_insert_insert_622d8', table='tournaments_tournament', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='tournament',
            trigger=pgtrigger.compiler.Trigger(name='update_update', sql=pgtrigger.compiler.UpsertTriggerSql(condition='WHEN (OLD.* IS DISTINCT FROM NEW.*)', func='INSERT INTO "tournaments_tournamenthistory" ("club_id", "created_at", "deals_per_round", "id", "is_public", "kind", "movement", "name", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "precedence", "rounds_planned", "ruleset", "slug", "stake", "standings_round", "standings_version") VALUES (NEW."club_id", NEW."created_at", NEW."deals_per_round", NEW."id", NEW."is_public", NEW."kind", NEW."movement", NEW."name", _pgh_attach_context(), NOW(), \'update\', NEW."id", NEW."precedence", NEW."rounds_planned", NEW."ruleset", NEW."slug", NEW."stake", NEW."standings_round", NEW."standings_version"); RETURN NULL;', hash='3b2b6dfa0db5684ef9d6c6d3074f42006f4d77ab', operation='UPDATE', pgid='pgtrigger_update_update_fa62d', table='tournaments_tournament', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='tournament',
            trigger=pgtrigger.compiler.Trigger(name='delete_delete', sql=pgtrigger.compiler.UpsertTriggerSql(func='INSERT INTO "tournaments_tournamenthistory" ("club_id", "created_at", "deals_per_round", "id", "is_public", "kind", "movement", "name", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "precedence", "rounds_planned", "ruleset", "slug", "stake", "standings_round", "standings_version") VALUES (OLD."club_id", OLD."created_at", OLD."deals_per_round", OLD."id", OLD."is_public", OLD."kind", OLD."movement", OLD."name", _pgh_attach_context(), NOW(), \'delete\', OLD."id", OLD."precedence", OLD."rounds_planned", OLD."ruleset", OLD."slug", OLD."stake", OLD."standings_round", OLD."standings_version"); RETURN NULL;', hash='f70bc6cf0cc4899200dc9bd7cf31d15a872e11cc', operation='DELETE', pgid='pgtrigger_delete_delete_839dc', table='tournaments_tournament', when='AFTER')),
        ),
        migrations.RunPython(mark_all_dirty, migrations.RunPython.noop),
    ]
