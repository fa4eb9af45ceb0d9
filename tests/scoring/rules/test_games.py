"""The game registry: each game one object, looked up by its rule set's key, and ruling T1's
cutting order written once, read the same way by table formation and by the movements."""

import itertools

import pytest

from club.formation import FormationError
from club.formation import cards as formation_cards
from club.formation.rules import get_rule_set
from scoring.rules import GAMES, RULESETS, ScoringError, get_game, get_ruleset
from scoring.rules.games import BRIDGE, CALL_ACE, EUCHRE
from tournaments.movements import MovementError, movement_for
from tournaments.movements.cutting import PACKS, pack_for

KEYS = ["euchre-somerset-1888", "call-ace-foster-1905", "bridge-elwell-1907"]


def test_each_game_is_registered_once_by_its_rule_set_key():
    assert list(GAMES) == KEYS
    for key, game in GAMES.items():
        assert game.key == key == game.rules.key == game.tables.key
        assert RULESETS[key] is game.rules is get_ruleset(key)
        assert get_rule_set(key) is game.tables
        assert game.title == game.rules.title
    assert [g.name for g in GAMES.values()] == ["Euchre", "Call-Ace", "Bridge"]
    assert [g.kind for g in GAMES.values()] == ["euchre", "call_ace", "bridge"]
    assert (CALL_ACE.rubber_label, CALL_ACE.hand_label) == ("sitting", "deal")
    assert (EUCHRE.rubber_label, EUCHRE.hand_label) == ("rubber", "hand")


@pytest.mark.parametrize("key", ["whist-1900", None, 7])
def test_an_unknown_game_is_refused_on_the_field_that_named_it(key):
    with pytest.raises(ScoringError) as scoring_error:
        get_game(key)
    assert scoring_error.value.field == "ruleset"
    with pytest.raises(FormationError) as formation_error:
        get_rule_set(key)
    assert formation_error.value.field == "rule_set"


def test_the_packs():
    assert len(EUCHRE.pack()) == 32
    assert {rank for rank, _ in EUCHRE.pack()} == {"7", "8", "9", "10", "J", "Q", "K", "A"}
    assert len(BRIDGE.pack()) == 52
    assert [len(CALL_ACE.pack(n)) for n in (4, 5, 6, 7)] == [24, 28, 32, 36]
    assert ("8", "S") not in CALL_ACE.pack(4)
    assert ("8", "S") in CALL_ACE.pack(5)


@pytest.mark.parametrize("game", [EUCHRE, BRIDGE], ids=lambda g: g.name)
def test_ruling_t1_is_read_the_same_way_by_formation_and_by_the_movements(game):
    """Formation ranks a cut card by precedence (higher is stronger); a movement's pack by a
    sort key (smaller wins). For every two cards of the pack both must name the same winner,
    or a tie for both."""
    pack = pack_for(game.key)
    assert sorted(pack.cards) == sorted(rank + suit for rank, suit in game.pack())
    for a, b in itertools.combinations(pack.cards, 2):
        strength_a = formation_cards.precedence(formation_cards.parse_card(a), game.key)
        strength_b = formation_cards.precedence(formation_cards.parse_card(b), game.key)
        key_a, key_b = pack.precedence(a), pack.precedence(b)
        assert (strength_a > strength_b) == (key_a < key_b), (a, b)
        assert (strength_a == strength_b) == (key_a == key_b), (a, b)


def test_euchre_favours_the_knave_and_bridge_the_ace_and_the_heart():
    assert pack_for(EUCHRE.key).cards[0][:-1] == "J"
    assert pack_for(BRIDGE.key).cards[0] == "AS"  # the pack's order; the cut is by precedence
    assert min(pack_for(BRIDGE.key).cards, key=pack_for(BRIDGE.key).precedence) == "AH"
    assert not BRIDGE.tables.highest_plays and EUCHRE.tables.highest_plays


def test_call_ace_seats_are_not_cut():
    assert CALL_ACE.cutting is None
    assert set(PACKS) == {EUCHRE.key, BRIDGE.key}
    with pytest.raises(MovementError, match="not played in partnerships"):
        movement_for("rotation", rule_set=CALL_ACE.key)
    with pytest.raises(ValueError, match="seats are not cut"):
        formation_cards.cutting_value(formation_cards.Card("J", "S"), CALL_ACE.key)
