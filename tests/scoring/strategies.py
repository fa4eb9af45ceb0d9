"""Hypothesis strategies for random valid scoresheets, folded through the rule sets so
that every hand is legal where it stands (a hand after the rubber is over never is)."""

from hypothesis import strategies as st

from scoring.rules import RULESETS

SIDES = ["NS", "EW"]

euchre_hand = st.fixed_dictionaries(
    {"makers": st.sampled_from(SIDES), "alone": st.booleans(), "tricks": st.integers(0, 5)}
)


@st.composite
def bridge_hand(draw):
    ns = draw(st.integers(0, 13))
    trump = draw(st.sampled_from(["S", "C", "D", "H", "NT"]))
    hand = {
        "declarer": draw(st.sampled_from(SIDES)),
        "trump": trump,
        "doubles": draw(st.integers(0, 2)),
        "tricks": {"NS": ns, "EW": 13 - ns},
        "honours": None,
    }
    # Ruling B3: with a trump suit one side always holds three of the five honours or
    # more; at no trumps the aces may split two and two (nothing to score).
    if trump != "NT" or draw(st.booleans()):
        held = draw(st.integers(3, 4) if trump == "NT" else st.integers(3, 5))
        hand["honours"] = {
            "side": draw(st.sampled_from(SIDES)),
            "held": held,
            # Two partners share what the side held: one of them has at least half.
            "in_one_hand": draw(st.integers((held + 1) // 2, held)),
        }
    return hand


def call_ace_deal(names):
    @st.composite
    def deal(draw):
        maker = draw(st.sampled_from(names))
        alone = draw(st.booleans())
        partner = (
            None if alone else draw(st.sampled_from([None, *[n for n in names if n != maker]]))
        )
        return {
            "maker": maker,
            "partner": partner,
            "alone": alone,
            "tricks": draw(st.integers(0, 5)),
        }

    return deal()


@st.composite
def scoresheet(draw, ruleset: str, players, *, max_hands: int = 40):
    """A valid sheet: random hands, each kept only while the rubber is still in play."""
    rules = RULESETS[ruleset]
    options = rules.validate_options(None)
    state = rules.start(options, players)
    if ruleset == "euchre-somerset-1888":
        hand_strategy = euchre_hand
    elif ruleset == "bridge-elwell-1907":
        hand_strategy = bridge_hand()
    else:
        hand_strategy = call_ace_deal(players)
    hands = []
    for _ in range(draw(st.integers(0, max_hands))):
        if rules.is_complete(state):
            break
        raw = draw(hand_strategy)
        checked = rules.validate_hand(state, raw)
        state, _ = rules.apply(state, checked)
        hands.append(raw)
    return {
        "ruleset": ruleset,
        "players": players,
        "stake": draw(st.sampled_from(["0.25", "1.00", "0.05"])),
        rules.hands_key: hands,
    }
