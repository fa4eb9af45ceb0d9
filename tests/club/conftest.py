"""Fixtures the API tests of a table's hands share (tests/club/test_api_*.py). A module
with a `world` of its own uses its own.

Nothing of Django is imported here at the module's top: CI runs the pure engines'
tests under tests/club/formation without Django (`pytest -p no:django`, .ci/run), and
they load this file too."""

import pytest


@pytest.fixture
def world(db, django_capture_on_commit_callbacks):
    """Table 1's rubber with hand 1 (N-S, three tricks) recorded (tests.worlds.club_in_play)."""
    from tests.worlds import club_in_play

    return club_in_play(django_capture_on_commit_callbacks)


@pytest.fixture
def world_secretary(world):
    """The API as the club's secretary (a token of his)."""
    from tests.conftest import token_client

    return token_client(world.secretary)


@pytest.fixture
def world_table(world):
    """The API as table 1's phone."""
    from tests.conftest import table_client

    return table_client(world.table)
