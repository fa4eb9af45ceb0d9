"""Properties of the rule sets over random valid scoresheets (hypothesis).

- ruling E4: a finished Euchre rubber is worth 0 to 10;
- ruling M1 / C5: ledgers and Call-Ace settlements add to exactly zero;
- score_sheet equals the hand-by-hand start / validate_hand / apply / summary / settle fold;
- any malformed input is a ScoringError (a user error), never another exception (a bug).
"""

from decimal import Decimal
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.rules import ScoringError, get_ruleset
from scoring.sheet import score_sheet

EUCHRE = get_ruleset("euchre-somerset-1888")
BRIDGE = get_ruleset("bridge-elwell-1907")
CALL_ACE = get_ruleset("call-ace-foster-1905")
PAIRS = {"NS": ["ann", "bob"], "EW": ["cy", "di"]}
NAMES = ["ann", "bob", "cy", "di", "ed", "flo", "gus"]
SIDES = st.sampled_from(["NS", "EW"])
STAKES = st.decimals(
    min_value=0, max_value=100, places=2, allow_nan=False, allow_infinity=False
).map(str)
SLOW = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def euchre_hand(draw):
    alone = draw(st.booleans())
    raw = {"makers": draw(SIDES), "alone": alone, "tricks": draw(st.integers(0, 5))}
    if draw(st.integers(0, 4)) == 0:
        raw["revokes"] = draw(st.lists(SIDES, max_size=3))
    if draw(st.integers(0, 9)) == 0:
        raw["law90"] = draw(SIDES)
    if alone:
        raw["law102"] = draw(st.integers(0, 5)) == 0
        raw["law50"] = draw(st.integers(0, 9)) == 0
    return raw


@st.composite
def bridge_hand(draw):
    trump = draw(st.sampled_from(["S", "C", "D", "H", "NT"]))
    ns = draw(st.integers(0, 13))
    raw = {
        "declarer": draw(SIDES),
        "trump": trump,
        "doubles": draw(st.integers(0, 3)),
        "tricks": {"NS": ns, "EW": 13 - ns},
    }
    held = draw(st.sampled_from([0, 3, 4])) if trump == "NT" else draw(st.integers(3, 5))
    if held:
        side = draw(SIDES)
        in_one = draw(st.integers((held + 1) // 2, held))
        raw["honours"] = {"side": side, "held": held, "in_one_hand": in_one}
        if trump != "NT":
            other = "EW" if side == "NS" else "NS"
            raw["chicane"] = {
                other: draw(st.integers(0, 2 if held == 5 else 1)),
                side: draw(st.integers(0, 1)) if in_one == held else 0,
            }
    else:
        raw["honours"] = None
    raw["revokes"] = {"NS": draw(st.integers(0, 2)), "EW": draw(st.integers(0, 2))}
    return raw


@st.composite
def call_ace_deal(draw, n):
    seats = NAMES[:n]
    if draw(st.integers(0, 19)) == 0:
        return {"void": True}
    maker = draw(st.sampled_from(seats))
    alone = draw(st.booleans())
    partner = None
    if not alone and draw(st.integers(0, 5)):
        partner = draw(st.sampled_from([s for s in seats if s != maker]))
    raw = {
        "maker": maker,
        "partner": partner,
        "alone": alone,
        "tricks": draw(st.integers(0, 5)),
        "revoke": draw(st.sampled_from([None] * 8 + ["makers", "adversaries", "both"])),
    }
    if draw(st.integers(0, 9)) == 0:
        raw["no_score"] = draw(st.lists(st.sampled_from(seats), max_size=2, unique=True))
    if draw(st.integers(0, 9)) == 0:
        raw["wrong_cards"] = draw(st.lists(st.sampled_from(seats), max_size=1))
    return raw


def rubber(data, rules, strategy, limit=400):
    """Draw hands until the rubber is complete (or ``limit`` hands, for safety)."""
    state = rules.start(rules.validate_options(None))
    raws = []
    while not rules.is_complete(state) and len(raws) < limit:
        raw = data.draw(strategy)
        state, _ = rules.apply(state, rules.validate_hand(state, raw))
        raws.append(raw)
    return raws


def fold(rules, options, players, raws, stake):
    """What recording the sheet hand by hand gives, built from the rule set's own calls."""
    state = rules.start(rules.validate_options(options), players)
    results = []
    for raw in raws:
        state, result = rules.apply(state, rules.validate_hand(state, raw))
        results.append(result)
    if not rules.partnership:
        state = rules.close(state)
    out = {
        "ruleset": rules.key,
        "options": rules.validate_options(options),
        "players": players,
        "stake": stake,
        rules.hands_key: [{"number": i, **r.as_dict()} for i, r in enumerate(results, 1)],
        **rules.summary(state),
        "ledger": None,
    }
    if stake is not None and rules.is_complete(state) and not isinstance(players, int):
        # A Call-Ace sitting ended before any deal settles nothing (ruling C5).
        settled = rules.settle(state, Decimal(stake), players) if raws else {}
        out["ledger"] = {k: str(v) for k, v in settled.items()}
    return state, results, out


@SLOW
@given(st.data(), STAKES)
def test_ruling_E4_a_euchre_rubber_is_worth_nothing_to_ten_and_M1_ledger_adds_to_zero(data, stake):
    raws = rubber(data, EUCHRE, euchre_hand())
    state, results, expected = fold(EUCHRE, None, PAIRS, raws, stake)
    assert EUCHRE.is_complete(state)
    value = EUCHRE.rubber_value(state)
    assert 0 <= value <= 10
    assert expected["rubber"]["value"] == value
    # Law 1 / ruling E1: three or four games; the winners took two of the first three.
    games = expected["games"]
    assert len(games) in (3, 4)
    assert [g["winner"] for g in games[:3]].count(expected["rubber"]["winner"]) >= 2
    assert (len(games) == 4) == (games[2]["lap"] > 0)
    ledger = {k: Decimal(v) for k, v in expected["ledger"].items()}
    assert sum(ledger.values()) == 0
    for side, names in PAIRS.items():
        sign = 1 if side == expected["rubber"]["winner"] else -1
        assert all(ledger[name] == sign * value * Decimal(stake) for name in names)
    sheet = {"ruleset": EUCHRE.key, "players": PAIRS, "stake": stake, "hands": raws}
    assert score_sheet(sheet) == expected
    for r in results:
        assert r.lines and all(line.law.startswith(("law ", "ruling ")) for line in r.lines)


@SLOW
@given(st.data())
def test_ruling_E6_each_game_is_won_at_exactly_five_and_laps_carry(data):
    raws = rubber(data, EUCHRE, euchre_hand())
    state = EUCHRE.start({})
    carried = 0
    for raw in raws:
        before = state
        state, r = EUCHRE.apply(state, EUCHRE.validate_hand(state, raw))
        if r.game_won:
            game = state.games[-1]
            assert max(game.ns, game.ew) == 5 and min(game.ns, game.ew) < 5
            carried = game.lap if not state.complete else 0
            assert (state.ns, state.ew) == ((carried, 0) if game.winner == 0 else (0, carried))
        else:
            assert (state.ns, state.ew) == (before.ns + r.points["NS"], before.ew + r.points["EW"])
            assert max(state.ns, state.ew) < 5


@SLOW
@given(st.data(), STAKES, st.sampled_from([None, 100, 200]))
def test_ruling_B7_bridge_ledger_adds_to_zero_and_sheet_equals_fold(data, stake, cap):
    options = {"odd_trick_cap": cap}
    state = BRIDGE.start(BRIDGE.validate_options(options))
    raws = []
    while not state.complete:
        raw = data.draw(bridge_hand())
        try:
            hand = BRIDGE.validate_hand(state, raw)
        except ScoringError as err:  # too many doubles for the club's cap
            assert err.law == "ruling B1"
            continue
        state, _ = BRIDGE.apply(state, hand)
        raws.append(raw)
    state, results, expected = fold(BRIDGE, options, PAIRS, raws, stake)
    totals = expected["rubber"]["totals"]
    below = sum(r.points[s]["below"] for r in results for s in ("NS", "EW"))
    above = sum(r.points[s]["above"] for r in results for s in ("NS", "EW"))
    assert totals["NS"] + totals["EW"] == below + above + 100
    assert len(expected["games"]) in (2, 3)
    assert sum(Decimal(v) for v in expected["ledger"].values()) == 0
    sheet = {
        "ruleset": BRIDGE.key,
        "options": options,
        "players": PAIRS,
        "stake": stake,
        "hands": raws,
    }
    assert score_sheet(sheet) == expected


@SLOW
@given(st.data(), st.integers(4, 7), STAKES)
def test_ruling_C5_call_ace_settlement_adds_to_zero_and_sheet_equals_fold(data, n, stake):
    raws = data.draw(st.lists(call_ace_deal(n), max_size=40))
    players = NAMES[:n]
    _, _, expected = fold(CALL_ACE, None, players, raws, stake)
    assert sum(expected["settlement"].values()) == 0
    ledger = {k: Decimal(v) for k, v in expected["ledger"].items()}
    assert sum(ledger.values()) == 0
    # Every pair settles its difference (Foster's "settling up").
    pair_net = dict.fromkeys(players, 0)
    for a, b in combinations(players, 2):
        d = expected["totals"][a] - expected["totals"][b]
        pair_net[a] += d
        pair_net[b] -= d
    assert pair_net == expected["settlement"]
    assert (
        score_sheet({"ruleset": CALL_ACE.key, "players": players, "stake": stake, "deals": raws})
        == expected
    )


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 20)
    | st.floats(allow_nan=False)
    | st.sampled_from(["NS", "EW", "NT", "H", "ann", "makers", ""]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["NS", "EW", "side", "held", "in_one_hand", "x"]), inner, max_size=3
        )
    ),
    max_leaves=6,
)
EUCHRE_KEYS = ["makers", "alone", "tricks", "revokes", "law90", "law102", "law50", "extra"]
BRIDGE_KEYS = ["declarer", "trump", "doubles", "tricks", "honours", "chicane", "revokes"]
CALL_KEYS = ["maker", "partner", "alone", "tricks", "revoke", "void", "no_score", "wrong_cards"]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([(EUCHRE, EUCHRE_KEYS), (BRIDGE, BRIDGE_KEYS), (CALL_ACE, CALL_KEYS)]),
    st.data(),
)
def test_malformed_hands_are_always_user_errors_never_crashes(pair, data):
    rules, keys = pair
    raw = data.draw(st.one_of(JSON, st.dictionaries(st.sampled_from(keys), JSON, max_size=7)))
    state = rules.start(rules.validate_options(None), NAMES[:5] if not rules.partnership else None)
    try:
        hand = rules.validate_hand(state, raw, field_prefix="x[0]")
    except ScoringError as err:
        assert err.message and err.field.startswith("x[0]")
        return
    _, result = rules.apply(state, hand)
    assert result.lines


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(
            ["ruleset", "options", "players", "stake", "hands", "deals", "closed", "x"]
        ),
        JSON,
        max_size=6,
    )
)
def test_malformed_sheets_are_always_user_errors(sheet):
    sheet.setdefault("ruleset", "euchre-somerset-1888")
    try:
        score_sheet(sheet)
    except ScoringError as err:
        assert err.message
