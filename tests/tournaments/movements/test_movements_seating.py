"""The data a movement reads and writes: validation and the trip through JSON."""

import json

import pytest

from tournaments.movements import (
    Cut,
    Guarantee,
    MovementError,
    Relaxation,
    RoundResult,
    RoundSeating,
    TableSeating,
)
from tournaments.movements.seating import check_request


def a_round() -> RoundSeating:
    return RoundSeating(
        round_number=2,
        tables=(TableSeating.of(1, "ann", "bob", "cora", "dan"),),
        byes=("edith",),
        cuts=(Cut(purpose="tables", player="ann", cards=("JS", "9H")),),
        relaxations=(Relaxation(Guarantee.NEW_PARTNER, "ann and cora partner again"),),
    )


def test_a_table_knows_its_partnerships_and_opponents():
    table = TableSeating.of(1, "ann", "bob", "cora", "dan")
    assert table.partnerships == (frozenset({"ann", "cora"}), frozenset({"bob", "dan"}))
    assert table.side("EW") == ("bob", "dan")
    assert set(table.opponents) == {
        frozenset(pair)
        for pair in (("ann", "bob"), ("ann", "dan"), ("cora", "bob"), ("cora", "dan"))
    }


def test_a_result_goes_through_json_and_back_unchanged():
    result = RoundResult(a_round(), {1: "EW"})
    assert RoundResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result


def test_json_keys_table_numbers_as_strings():
    assert RoundResult(a_round(), {1: "NS"}).to_dict()["winners"] == {"1": "NS"}


@pytest.mark.parametrize(
    "make",
    [
        lambda: TableSeating(number=1, seats={"N": "a", "E": "b", "S": "c"}),
        lambda: TableSeating.of(1, "a", "b", "a", "d"),
        lambda: TableSeating.of(0, "a", "b", "c", "d"),
        lambda: RoundSeating(1, (TableSeating.of(2, "a", "b", "c", "d"),)),
        lambda: RoundSeating(1, (TableSeating.of(1, "a", "b", "c", "d"),), byes=("a",)),
        lambda: RoundResult(a_round(), {2: "NS"}),
        lambda: RoundResult(a_round(), {1: "N"}),
    ],
    ids=[
        "three seats",
        "player twice at a table",
        "table 0",
        "tables not numbered from 1",
        "seated and sitting out",
        "winner at a missing table",
        "no such side",
    ],
)
def test_inconsistent_data_is_refused_loudly(make):
    with pytest.raises(ValueError):
        make()


def test_a_round_out_of_step_is_a_bug():
    with pytest.raises(ValueError, match="round 3 must follow rounds 1 to 0"):
        check_request(round_number=3, players=["a", "b", "c", "d"], previous=[])


@pytest.mark.parametrize(
    ("players", "message"),
    [(["a", "b", "c"], "four players are needed"), (["a", "b", "c", "d", "a"], "a listed")],
)
def test_too_few_or_doubled_players_is_the_directors_to_fix(players, message):
    with pytest.raises(MovementError, match=message):
        check_request(round_number=1, players=players, previous=[])
