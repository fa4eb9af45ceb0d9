"""Fixtures the API tests of a table's hands share (tests/club/test_api_*.py). A module
with a `world` of its own uses its own: so must one whose other tests make club
"somerset" (the `club` fixture), since the world made for the module's first test that
asks for it stays in the database until the module's last test is done.

Nothing of Django is imported here at the module's top: CI runs the pure engines'
tests under tests/club/formation without Django (`pytest -p no:django`, .ci/run), and
they load this file too."""

import pytest

from tests.conftest import rows_for_the_module


def _club_in_play(capture_on_commit):
    from tests.worlds import club_in_play

    return club_in_play(capture_on_commit)


# Made once for a module's tests (about a second of evening log and hand each time); each
# test's changes are rolled back to its own savepoint (tests.conftest.rows_for_the_module).
_world = rows_for_the_module(_club_in_play)


@pytest.fixture
def world(db, _world):
    """Table 1's rubber with hand 1 (N-S, three tricks) recorded (tests.worlds.club_in_play),
    its rows read afresh for the test (tests.worlds.reloaded)."""
    from tests.worlds import reloaded

    return reloaded(_world)


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


@pytest.fixture
def played(django_capture_on_commit_callbacks):
    """Table 1 of a Euchre evening: N Ann, E Cora, S Bob, W Dan; Ann dealt hand 1 (N-S,
    three tricks), which is recorded (tests.worlds.club_in_play). Made for each test, as
    the phones' browser tests need (the live server reads it committed); a module of
    tests that only read it uses `world`."""
    return _club_in_play(django_capture_on_commit_callbacks)


@pytest.fixture
def call_ace(club, secretary):
    """A Call-Ace evening of club "somerset": five at table 1, one deal of the first
    sitting recorded (tests.worlds.call_ace_first_deal)."""
    from club import evenings
    from tests.worlds import call_ace_first_deal

    evening = evenings.evening_open(
        club=club, date="1905-11-21", ruleset="call-ace-foster-1905", stake=1
    )
    call_ace_first_deal(evening, ["Ann", "Bob", "Cora", "Dan", "Edith"])
    evening.refresh_from_db()
    return evening
