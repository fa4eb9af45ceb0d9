"""A progressive's results declared final by its director (`Tournament.results_final_at`),
with its audit history: none is, until its director says so (tournaments.rounds)."""

import pgtrigger.compiler
import pgtrigger.migrations
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0013_table_links'),
    ]

    operations = [
        pgtrigger.migrations.RemoveTrigger(
            model_name='tournament',
            name='insert_insert',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='tournament',
            name='delete_delete',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='tournament',
            name='update_update',
        ),
        migrations.AddField(
            model_name='tournament',
            name='results_final_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='tournamenthistory',
            name='results_final_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='tournament',
            trigger=pgtrigger.compiler.Trigger(name='insert_insert', sql=pgtrigger.compiler.UpsertTriggerSql(func='INSERT INTO "tournaments_tournamenthistory" ("club_id", "created_at", "deals_per_round", "id", "is_public", "kind", "movement", "name", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "precedence", "results_final_at", "rounds_planned", "ruleset", "slug", "stake", "standings_round", "standings_version") VALUES (NEW."club_id", NEW."created_at", NEW."deals_per_round", NEW."id", NEW."is_public", NEW."kind", NEW."movement", NEW."name", _pgh_attach_context(), NOW(), \'insert\', NEW."id", NEW."precedence", NEW."results_final_at", NEW."rounds_planned", NEW."ruleset", NEW."slug", NEW."stake", NEW."standings_round", NEW."standings_version"); RETURN NULL;', hash='0162325efe066105cdf4eb4e3f19abde3c225192', operation='INSERT', pgid='pgtrigger_insert_insert_622d8', table='tournaments_tournament', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='tournament',
            trigger=pgtrigger.compiler.Trigger(name='update_update', sql=pgtrigger.compiler.UpsertTriggerSql(condition='WHEN (OLD."club_id" IS DISTINCT FROM (NEW."club_id") OR OLD."created_at" IS DISTINCT FROM (NEW."created_at") OR OLD."deals_per_round" IS DISTINCT FROM (NEW."deals_per_round") OR OLD."id" IS DISTINCT FROM (NEW."id") OR OLD."is_public" IS DISTINCT FROM (NEW."is_public") OR OLD."kind" IS DISTINCT FROM (NEW."kind") OR OLD."movement" IS DISTINCT FROM (NEW."movement") OR OLD."name" IS DISTINCT FROM (NEW."name") OR OLD."precedence" IS DISTINCT FROM (NEW."precedence") OR OLD."results_final_at" IS DISTINCT FROM (NEW."results_final_at") OR OLD."rounds_planned" IS DISTINCT FROM (NEW."rounds_planned") OR OLD."ruleset" IS DISTINCT FROM (NEW."ruleset") OR OLD."slug" IS DISTINCT FROM (NEW."slug") OR OLD."stake" IS DISTINCT FROM (NEW."stake") OR OLD."standings_round" IS DISTINCT FROM (NEW."standings_round"))', func='INSERT INTO "tournaments_tournamenthistory" ("club_id", "created_at", "deals_per_round", "id", "is_public", "kind", "movement", "name", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "precedence", "results_final_at", "rounds_planned", "ruleset", "slug", "stake", "standings_round", "standings_version") VALUES (NEW."club_id", NEW."created_at", NEW."deals_per_round", NEW."id", NEW."is_public", NEW."kind", NEW."movement", NEW."name", _pgh_attach_context(), NOW(), \'update\', NEW."id", NEW."precedence", NEW."results_final_at", NEW."rounds_planned", NEW."ruleset", NEW."slug", NEW."stake", NEW."standings_round", NEW."standings_version"); RETURN NULL;', hash='7bd430da1d3496709905cfc09b6de3c5353aaf62', operation='UPDATE', pgid='pgtrigger_update_update_fa62d', table='tournaments_tournament', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='tournament',
            trigger=pgtrigger.compiler.Trigger(name='delete_delete', sql=pgtrigger.compiler.UpsertTriggerSql(func='INSERT INTO "tournaments_tournamenthistory" ("club_id", "created_at", "deals_per_round", "id", "is_public", "kind", "movement", "name", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "precedence", "results_final_at", "rounds_planned", "ruleset", "slug", "stake", "standings_round", "standings_version") VALUES (OLD."club_id", OLD."created_at", OLD."deals_per_round", OLD."id", OLD."is_public", OLD."kind", OLD."movement", OLD."name", _pgh_attach_context(), NOW(), \'delete\', OLD."id", OLD."precedence", OLD."results_final_at", OLD."rounds_planned", OLD."ruleset", OLD."slug", OLD."stake", OLD."standings_round", OLD."standings_version"); RETURN NULL;', hash='eac92595e52c6a42ea4d0670656bae10d6dac081', operation='DELETE', pgid='pgtrigger_delete_delete_839dc', table='tournaments_tournament', when='AFTER')),
        ),
    ]
