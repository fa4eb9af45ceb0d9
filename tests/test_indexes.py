"""The tables keep no index that nothing needs, on PostgreSQL and SQLite alike.

Every index costs each insert its entry (a recorded hand writes a hand, four scores, its
history row, an event and the standings' outbox rows; each seat's roll-up is rewritten)
and make_season's load its build. Three kinds were found and dropped: a foreign key's
own index where a unique constraint or another index leads with its column (Django
makes one for every foreign key) and the audit history's indexes on the foreign keys it
copies from the row it records, which nothing reads it by (config/settings.py:
PGHISTORY_FOREIGN_KEY_FIELD), both in the migrations `indexes_led_by_constraints`; and
the standings' outbox's index by player (`outbox_not_indexed_by_player`).
"""

import pghistory.models
import pytest
from django.apps import apps
from django.db import connection

PROJECT = ("core", "scoring", "club", "tournaments")


def _indexes(model) -> dict[str, dict]:
    """The table's indexes, unique ones and the primary key included: name -> the
    introspection's description (its columns in order, covering ones after the key's)."""
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, model._meta.db_table)
    return {name: about for name, about in found.items() if about["index"] or about["unique"]}


def _project_models(*, history: bool):
    for model in apps.get_models():
        if model._meta.app_label not in PROJECT or model._meta.auto_created:
            continue
        if issubclass(model, pghistory.models.Event) == history:
            yield model


@pytest.mark.django_db
def test_no_index_is_led_by_another():
    led = []
    for model in _project_models(history=False):
        indexes = _indexes(model)
        for name, about in indexes.items():
            columns = about["columns"]
            if about["unique"] or None in columns or name.endswith("_like"):
                # A constraint, an index on an expression, or the twin PostgreSQL's
                # backend makes of a text column's index for LIKE (another operator class)
                continue
            for other, by in indexes.items():
                if other in (name, f"{name}_like"):
                    continue
                if by["columns"][: len(columns)] == columns:
                    led.append(f"{model._meta.db_table}: {name} {columns} is led by {other}")
    assert led == []


@pytest.mark.django_db
def test_history_is_indexed_only_by_the_row_it_records_and_its_context():
    history = list(_project_models(history=True))
    assert {m._meta.db_table for m in history} >= {"scoring_handhistory", "scoring_rubberhistory"}
    extra = []
    for model in history:
        for name, about in _indexes(model).items():
            if about["primary_key"] or about["columns"] in (["pgh_obj_id"], ["pgh_context_id"]):
                continue
            extra.append(f"{model._meta.db_table}: {name} {about['columns']}")
    assert extra == []


@pytest.mark.django_db
def test_a_hands_history_is_still_read_by_its_index():
    """The history a hand's page reads (scoring.selectors: by pgh_obj) keeps its index."""
    from scoring.models import HandHistory

    columns = [about["columns"] for about in _indexes(HandHistory).values()]
    assert ["pgh_obj_id"] in columns and ["pgh_context_id"] in columns


@pytest.mark.django_db
def test_the_standings_outbox_is_indexed_by_its_key_and_tournament_alone():
    """Every recorded hand writes the outbox a row a player and tournament, and the worker
    reads it by tournament and deletes it by key: nothing else is indexed there."""
    from tournaments.models import StandingsDirty

    indexes = _indexes(StandingsDirty).values()
    assert [about["columns"] for about in indexes if not about["primary_key"]] == [
        ["tournament_id", "member_id"]
    ]
