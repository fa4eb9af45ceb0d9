"""A progressive's tables' phone links (tournaments.table_links), one a table number for the
whole tournament, with their audit history; every table number a progressive has seated so
far is given its link, as seating a round now does."""

import club.models
import django.db.models.deletion
import django.utils.timezone
import pgtrigger.compiler
import pgtrigger.migrations
from django.db import migrations, models


def issue_links(apps, schema_editor):
    RoundTable = apps.get_model("tournaments", "RoundTable")
    TournamentTable = apps.get_model("tournaments", "TournamentTable")
    seated = RoundTable.objects.values_list("round__tournament_id", "number").distinct()
    TournamentTable.objects.bulk_create(
        TournamentTable(tournament_id=tournament, number=number)
        for tournament, number in sorted(set(seated))
    )


class Migration(migrations.Migration):

    dependencies = [
        ('pghistory', '0007_auto_20250421_0444'),
        ('tournaments', '0012_lone_hands_not_lost_recounted'),
    ]

    operations = [
        migrations.CreateModel(
            name='TournamentTable',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('token', models.CharField(default=club.models.new_table_token, editable=False, max_length=64, unique=True)),
                ('link_issued_at', models.DateTimeField(default=django.utils.timezone.now, editable=False)),
                ('replaced_token', models.CharField(blank=True, default=None, editable=False, max_length=64, null=True, unique=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('tournament', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='table_links', to='tournaments.tournament')),
            ],
            options={
                'ordering': ['tournament', 'number'],
            },
        ),
        migrations.CreateModel(
            name='TournamentTableHistory',
            fields=[
                ('pgh_id', models.AutoField(primary_key=True, serialize=False)),
                ('pgh_created_at', models.DateTimeField(auto_now_add=True)),
                ('pgh_label', models.TextField(help_text='The event label.')),
                ('id', models.BigIntegerField()),
                ('number', models.PositiveSmallIntegerField()),
                ('token', models.CharField(default=club.models.new_table_token, editable=False, max_length=64)),
                ('link_issued_at', models.DateTimeField(default=django.utils.timezone.now, editable=False)),
                ('replaced_token', models.CharField(blank=True, default=None, editable=False, max_length=64, null=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('pgh_context', models.ForeignKey(db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='pghistory.context')),
                ('pgh_obj', models.ForeignKey(db_constraint=False, on_delete=django.db.models.deletion.DO_NOTHING, related_name='history', to='tournaments.tournamenttable')),
                ('tournament', models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', related_query_name='+', to='tournaments.tournament')),
            ],
            options={
                'abstract': False,
            },
        ),
        migrations.AddConstraint(
            model_name='tournamenttable',
            constraint=models.UniqueConstraint(models.F('tournament'), models.F('number'), name='tournamenttable_unique_number'),
        ),
        migrations.AddConstraint(
            model_name='tournamenttable',
            constraint=models.CheckConstraint(condition=models.Q(('number__gte', 1)), name='tournamenttable_number_gte_1'),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='tournamenttable',
            trigger=pgtrigger.compiler.Trigger(name='insert_insert', sql=pgtrigger.compiler.UpsertTriggerSql(func='INSERT INTO "tournaments_tournamenttablehistory" ("created_at", "id", "link_issued_at", "number", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "replaced_token", "token", "tournament_id") VALUES (NEW."created_at", NEW."id", NEW."link_issued_at", NEW."number", _pgh_attach_context(), NOW(), \'insert\', NEW."id", NEW."replaced_token", NEW."token", NEW."tournament_id"); RETURN NULL;', hash='f07ee3757d75d7542cdd03a308f88925a0e71f3c', operation='INSERT', pgid='pgtrigger_insert_insert_d5264', table='tournaments_tournamenttable', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='tournamenttable',
            trigger=pgtrigger.compiler.Trigger(name='update_update', sql=pgtrigger.compiler.UpsertTriggerSql(condition='WHEN (OLD.* IS DISTINCT FROM NEW.*)', func='INSERT INTO "tournaments_tournamenttablehistory" ("created_at", "id", "link_issued_at", "number", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "replaced_token", "token", "tournament_id") VALUES (NEW."created_at", NEW."id", NEW."link_issued_at", NEW."number", _pgh_attach_context(), NOW(), \'update\', NEW."id", NEW."replaced_token", NEW."token", NEW."tournament_id"); RETURN NULL;', hash='6c1470655e6abea3ae76f6eb239b11a2904ce95d', operation='UPDATE', pgid='pgtrigger_update_update_b7dac', table='tournaments_tournamenttable', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='tournamenttable',
            trigger=pgtrigger.compiler.Trigger(name='delete_delete', sql=pgtrigger.compiler.UpsertTriggerSql(func='INSERT INTO "tournaments_tournamenttablehistory" ("created_at", "id", "link_issued_at", "number", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "replaced_token", "token", "tournament_id") VALUES (OLD."created_at", OLD."id", OLD."link_issued_at", OLD."number", _pgh_attach_context(), NOW(), \'delete\', OLD."id", OLD."replaced_token", OLD."token", OLD."tournament_id"); RETURN NULL;', hash='06373967691e41db13f5781a6bed46c67d66e5d6', operation='DELETE', pgid='pgtrigger_delete_delete_6f65b', table='tournaments_tournamenttable', when='AFTER')),
        ),
        migrations.RunPython(issue_links, migrations.RunPython.noop),
    ]
