"""On PostgreSQL the ORM's statements are bound by the server and prepared by psycopg
once they have run twice on a connection (config/settings.py: DB_PREPARED_STATEMENTS),
so PostgreSQL plans a hand's statements once a connection, not on every hand."""

import json
import os
import subprocess
import sys

import pytest
from django.db import connection

from club.models import Member

pytestmark = pytest.mark.django_db(transaction=True)


def _prepared_here() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_a_query_run_again_is_prepared_and_answers_as_before(club, postgres):
    ames = Member.objects.create(club=club, name="Ames")
    brook = Member.objects.create(club=club, name="Brook")
    mine = [s for s in _prepared_here() if "club_member" in s and '"name" = $1' in s]
    assert mine == []
    names = [Member.objects.filter(name=name).values_list("pk", flat=True).get()
             for name in ("Ames", "Brook", "Ames")]  # fmt: skip
    assert names == [ames.pk, brook.pk, ames.pk]
    mine = [s for s in _prepared_here() if "club_member" in s and '"name" = $1' in s]
    assert len(mine) == 1  # one statement, its value a parameter: $1, not 'Ames'


def _options(*environs: dict) -> list[list[str]]:
    """server_side_binding and prepare_threshold as the settings read them from each of
    these environments. Settings are read once a process, so one process of its own reads
    config/settings.py afresh for each (its environment as a new process would have it),
    where a process each (django.setup() and all) took three times as long."""
    code = (
        "import importlib, json, os, sys\n"
        "base = dict(os.environ)\n"
        "for given in json.loads(sys.argv[1]):\n"
        "    os.environ.clear(); os.environ.update(base, **given)\n"
        "    sys.modules.pop('config.settings', None)\n"
        "    o = importlib.import_module('config.settings').DATABASES['default']\n"
        "    o = o.get('OPTIONS', {})\n"
        "    print(o.get('server_side_binding'), o.get('prepare_threshold'))\n"
    )
    environ = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    run = subprocess.run([sys.executable, "-c", code, json.dumps(environs)], env=environ,
                         capture_output=True, text=True, check=True)  # fmt: skip
    return [line.split() for line in run.stdout.splitlines()]


@pytest.mark.django_db(transaction=False)
def test_they_can_be_turned_off_for_a_pooler():
    """DB_PREPARED_STATEMENTS=false gives Django's default (values quoted in, nothing
    prepared), for PgBouncer before 1.21 in transaction mode; SQLite has neither."""
    postgres = "postgres://u@h/db"
    assert _options(
        {"DATABASE_URL": postgres},
        {"DATABASE_URL": postgres, "DB_PREPARED_STATEMENTS": "false"},
        {"DATABASE_URL": "sqlite:///x.db"},
    ) == [["True", "2"], ["None", "None"], ["None", "None"]]
