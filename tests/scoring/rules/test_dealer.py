"""Who deals: the deal passes to the left hand by hand (Euchre law 28, Bridge's "The
Deal", Call-Ace law 3), except where a rule set has the same dealer deal again (Call-Ace
laws 6 and 42)."""

from scoring.rules import get_ruleset

SEATS = ["Ann", "Cora", "Bob", "Dan"]  # N, E, S, W: each on the left of the one before


def test_euchre_and_bridge_pass_the_deal_to_the_left_every_hand():
    for key in ("euchre-somerset-1888", "bridge-elwell-1907"):
        rules = get_ruleset(key)
        dealers = [rules.dealer(SEATS, "Ann", [{}] * n) for n in range(6)]
        assert dealers == ["Ann", "Cora", "Bob", "Dan", "Ann", "Cora"], key
        assert rules.dealer(SEATS, "Bob", [{}]) == "Dan"


def test_call_ace_keeps_the_dealer_after_both_sides_revoke_or_a_void_deal_with_a_maker():
    rules = get_ruleset("call-ace-foster-1905")
    order = ["Ann", "Bob", "Cora", "Dan", "Edith"]
    played = {"maker": "Ann", "tricks": 3}
    both_revoke = {"maker": "Bob", "revoke": "both"}  # law 42: the same dealer again
    faced_card = {"maker": "Bob", "void": True}  # law 6: a new deal by the same dealer
    nobody_named = {"void": True}  # law 17: the deal passes to the left
    assert rules.dealer(order, "Dan", [played]) == "Edith"
    assert rules.dealer(order, "Dan", [played, both_revoke]) == "Edith"
    assert rules.dealer(order, "Dan", [played, faced_card]) == "Edith"
    assert rules.dealer(order, "Dan", [played, nobody_named]) == "Ann"


def test_no_dealer_when_the_first_is_not_at_the_table():
    assert get_ruleset("euchre-somerset-1888").dealer(SEATS, "Edith", []) is None
