"""Bridge before auction, Elwell's revised laws of 1907 (rulings B1-B7).

The dealer or his partner declares the trump, the adversaries may double, and whichever side
takes more than six tricks scores them. Sides are indexed 0 (NS) and 1 (EW) inside the engine.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, NamedTuple

from .base import (
    SIDES,
    WORDS,
    HandResult,
    Line,
    RuleSet,
    ScoringError,
    check_int,
    check_mapping,
    check_partnership_players,
    check_side,
    side_name,
)
from .euchre import settle_partnership

#: Each trick above six (ruling B1; the law's table, first row).
TRICK_VALUE = {"S": 2, "C": 4, "D": 6, "H": 8, "NT": 12}
TRUMP_NAMES = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts", "NT": "no trumps"}
#: A trump not one of the five (ruling B1), in the phone's words with the API's codes beside
#: them; it goes on after the field's name ("The trump: must be spades ...").
_TRUMPS = [f'{name} ("{code}")' for code, name in TRUMP_NAMES.items()]
TRUMP_REFUSAL = f"must be {', '.join(_TRUMPS[:-1])} or {_TRUMPS[-1]}"
#: Thirty by tricks wins a game (ruling B2).
GAME = 30
#: A revoking side's score toward game stops here (ruling B6).
REVOKE_CEILING = 28
RUBBER_BONUS = 100
GRAND_SLAM = 40
LITTLE_SLAM = 20
#: The laws let re-doubling go on "indefinitely"; the service stops at forty doubles so that
#: every score stays an exact integer any JSON client can hold (below 2**53).
MAX_DOUBLES = 40
ODD_TRICK_CAPS = (None, 100, 200)

# A hand's keys, in the order a refusal lists them (docs/scoresheet.md).
_HAND_KEYS = ("declarer", "trump", "doubles", "tricks", "honours", "chicane", "revokes")
_HONOUR_KEYS = ("side", "held", "in_one_hand")
_PAIR_KEYS = frozenset({"NS", "EW"})


def honour_value(trump: str, held: int, in_one_hand: int) -> int:
    """Ruling B3, the 1907 honour table: the value of ``held`` honours (aces at no trumps)."""
    if trump == "NT":
        if held == 3:
            return 30
        return 100 if in_one_hand == 4 else 40
    v = TRICK_VALUE[trump]
    if held == 3:
        return 2 * v
    if held == 4:
        return 8 * v if in_one_hand == 4 else 4 * v
    if in_one_hand == 5:
        return 10 * v
    return 9 * v if in_one_hand == 4 else 5 * v


def chicane_value(trump: str, voids: int) -> int:
    """Ruling B4: one hand void of trumps is three honours (2v); double chicane four (4v)."""
    return (2 if voids == 1 else 4) * TRICK_VALUE[trump] if voids else 0


def honours_scored(facts: dict[str, Any]) -> dict[str, int]:
    """Each side's honours as the rubber's score counts them (rulings B3, B4), from a hand's
    facts: the honours held, with chicane added to its side's honours when that side
    scored honours, otherwise deducted from the adversaries' (which may fall below nothing).
    The standings' honours metric sums this, so it agrees with the score."""
    held = facts.get("honours") or {}
    scored = {side: held.get(side, 0) for side in SIDES}
    chicane = facts.get("chicane") or {}
    for side in SIDES:
        if chicane.get(side):
            value = chicane_value(facts["trump"], chicane[side])
            other = SIDES[1 - SIDES.index(side)]
            if held.get(side, 0) > 0:
                scored[side] += value
            else:
                scored[other] -= value
    return scored


class BridgeHand(NamedTuple):
    """A validated hand. ``tricks_ns`` are NS's tricks in play; honours_side -1 when none."""

    declarer: int
    trump: str
    doubles: int
    tricks_ns: int
    honours_side: int = -1
    honours_held: int = 0
    honours_in_one: int = 0
    chicane_ns: int = 0
    chicane_ew: int = 0
    revokes_ns: int = 0
    revokes_ew: int = 0

    def as_dict(self) -> dict:
        """The hand in the scoresheet's raw shape."""
        honours = None
        if self.honours_side >= 0:
            honours = {"side": SIDES[self.honours_side], "held": self.honours_held,
                       "in_one_hand": self.honours_in_one}
        return {
            "declarer": SIDES[self.declarer],
            "trump": self.trump,
            "doubles": self.doubles,
            "tricks": {"NS": self.tricks_ns, "EW": 13 - self.tricks_ns},
            "honours": honours,
            "chicane": {"NS": self.chicane_ns, "EW": self.chicane_ew},
            "revokes": {"NS": self.revokes_ns, "EW": self.revokes_ew},
        }


class BridgeGame(NamedTuple):
    """A finished game: its winner and both sides' trick scores below the line in it."""

    winner: int
    ns: int
    ew: int
    last_hand: int


class BridgeState(NamedTuple):
    """A rubber: the current game's scores below the line and the running totals."""

    odd_trick_cap: int | None = None
    ns: int = 0
    ew: int = 0
    games: tuple[BridgeGame, ...] = ()
    below_ns: int = 0
    below_ew: int = 0
    above_ns: int = 0
    above_ew: int = 0
    winner: int = -1
    complete: bool = False
    hands: int = 0


class BridgeRules(RuleSet):
    """Bridge (Elwell's laws, 1907): tricks, honours, chicane, slams, revokes, the rubber."""

    key = "bridge-elwell-1907"
    title = "Bridge (Elwell's laws, revised 1907)"
    partnership = True
    min_players = 4
    max_players = 4
    source = "laws/bridge-elwell-1907.txt"
    rubber_law = "ruling B7"
    correction_law = "laws of scoring (erroneous score)"
    deal_law = "Bridge laws, The Deal"
    correction_text = (
        "An erroneous score affecting tricks must be corrected before the game in which it "
        "occurred is concluded, and that game is not concluded until the following deal has "
        "been completed and the trump declared; in the last game of the rubber the score is "
        "open to inquiry until the sides agree the rubber's value. An erroneous score affecting "
        "honours, chicane or slam may be corrected at any time before the rubber's score has "
        "been made up and agreed upon."
    )

    # --- options and players -------------------------------------------------------------------

    def validate_options(self, options: dict | None) -> dict:
        """``odd_trick_cap``: None (default), 100 or 200; the club option of ruling B1."""
        if options is None:
            options = {}
        check_mapping(options, "options", frozenset({"odd_trick_cap"}))
        cap = options.get("odd_trick_cap")
        if cap not in ODD_TRICK_CAPS or type(cap) not in (int, type(None)):
            raise ScoringError("odd_trick_cap is null, 100 or 200", field="options.odd_trick_cap",
                               law="ruling B1")
        return {"odd_trick_cap": cap}

    def validate_players(self, players: Any, *, field: str = "players") -> dict | None:
        """``{"NS": [a, b], "EW": [c, d]}``, or None."""
        return check_partnership_players(players, field)

    def start(self, options: dict, players: Any = None) -> BridgeState:
        """A fresh rubber: nothing scored, game 1 about to begin."""
        if players is not None and players != 4 and not isinstance(players, dict):
            raise ScoringError("Bridge is played by four, two against two", field="players")
        options = self.validate_options(options)
        return BridgeState(options["odd_trick_cap"])

    # --- hands ---------------------------------------------------------------------------------

    def validate_hand(self, state: BridgeState, data: dict, *, field_prefix: str = "hand"
                      ) -> BridgeHand:
        """Check one raw hand (see docs/scoresheet.md) against the rubber so far."""
        p = field_prefix
        if state.complete:
            raise ScoringError("the rubber is over: no further hand can be scored in it",
                               field=p, law="ruling B7")
        check_mapping(data, p, _HAND_KEYS, what=f"a hand of {self.title}")
        if "declarer" not in data:
            raise ScoringError("say which side declared the trump", field=f"{p}.declarer")
        declarer = check_side(data["declarer"], f"{p}.declarer")
        trump = data.get("trump")
        if not isinstance(trump, str) or trump not in TRICK_VALUE:
            raise ScoringError(TRUMP_REFUSAL, field=f"{p}.trump", law="ruling B1")
        doubles = check_int(data.get("doubles", 0), f"{p}.doubles", 0, MAX_DOUBLES,
                            law="ruling B1")
        cap = state.odd_trick_cap
        # The law's footnote: in clubs with a limit, "doubling ceases whenever the value of the
        # odd trick exceeds" it; so a double is legal only while the value is within the limit.
        if cap is not None and doubles and TRICK_VALUE[trump] << (doubles - 1) > cap:
            raise ScoringError(
                f"doubling ceased once one odd trick was worth more than {cap} "
                "(the club's limit)",
                field=f"{p}.doubles",
                law="ruling B1",
            )
        tricks = data.get("tricks")
        check_mapping(tricks, f"{p}.tricks", _PAIR_KEYS)
        for side in SIDES:
            if side not in tricks:
                raise ScoringError("give both sides' tricks", field=f"{p}.tricks.{side}",
                                   law="ruling B1")
        ns = check_int(tricks["NS"], f"{p}.tricks.NS", 0, 13, law="ruling B1")
        ew = check_int(tricks["EW"], f"{p}.tricks.EW", 0, 13, law="ruling B1")
        if ns + ew != 13:
            raise ScoringError(f"the tricks add to {ns + ew}, not thirteen", field=f"{p}.tricks",
                               law="ruling B1")
        chicane = self._pair(data.get("chicane"), f"{p}.chicane", 2, "ruling B4")
        revokes = self._pair(data.get("revokes"), f"{p}.revokes", 26, "ruling B6")
        # Dummy is not liable to the revoke penalty, so the declaring side has one player who
        # can revoke, once in each of thirteen tricks at most.
        if revokes[declarer] > 13:
            raise ScoringError("dummy cannot revoke: the declaring side has one player liable",
                               field=f"{p}.revokes.{SIDES[declarer]}", law="ruling B6")
        h_side, held, in_one = self._honours(data, trump, p)
        if trump == "NT" and (chicane[0] or chicane[1]):
            raise ScoringError("there is no chicane at no trumps", field=f"{p}.chicane",
                               law="ruling B4")
        self._check_chicane(chicane, h_side, held, in_one, p)
        return BridgeHand(declarer, trump, doubles, ns, h_side, held, in_one,
                          chicane[0], chicane[1], revokes[0], revokes[1])

    @staticmethod
    def _pair(value: Any, field: str, high: int, law: str) -> tuple[int, int]:
        if value is None:
            return 0, 0
        check_mapping(value, field, _PAIR_KEYS)
        return (check_int(value.get("NS", 0), f"{field}.NS", 0, high, law=law),
                check_int(value.get("EW", 0), f"{field}.EW", 0, high, law=law))

    @staticmethod
    def _honours(data: dict, trump: str, p: str) -> tuple[int, int, int]:
        raw = data.get("honours")
        f = f"{p}.honours"
        if raw is None:
            if trump != "NT":
                # Five honours between two sides: one side always holds three or more.
                raise ScoringError(
                    "with a trump suit one side always holds three or more of the five honours; "
                    "say which",
                    field=f,
                    law="ruling B3",
                )
            return -1, 0, 0  # the aces were divided two and two
        check_mapping(raw, f, _HONOUR_KEYS, what="a hand's honours")
        if "side" not in raw:
            raise ScoringError("say which side held the honours", field=f"{f}.side",
                               law="ruling B3")
        side = check_side(raw["side"], f"{f}.side", law="ruling B3")
        most = 4 if trump == "NT" else 5
        what = "aces" if trump == "NT" else "honours"
        if "held" not in raw:
            raise ScoringError(f"say how many {what} the side held", field=f"{f}.held",
                               law="ruling B3")
        held = check_int(raw["held"], f"{f}.held", 3, most, law="ruling B3")
        # Two hands hold ``held`` honours between them, so one holds at least half.
        low = (held + 1) // 2
        if "in_one_hand" not in raw:
            raise ScoringError(f"say the most {what} held in one hand",
                               field=f"{f}.in_one_hand", law="ruling B3")
        in_one = check_int(raw["in_one_hand"], f"{f}.in_one_hand", low, held, law="ruling B3")
        return side, held, in_one

    @staticmethod
    def _check_chicane(chicane: tuple[int, int], h_side: int, held: int, in_one: int,
                       p: str) -> None:
        # With three hands void the fourth holds every trump: the two checks in the loop
        # (double chicane gives the other side all five; a single void puts them in one hand)
        # already demand that.
        f = f"{p}.chicane"
        if chicane[0] + chicane[1] > 3:
            raise ScoringError("thirteen trumps cannot all be missing from four hands", field=f,
                               law="ruling B4")
        for s in (0, 1):
            if chicane[s] == 2 and (h_side == s or held != 5):
                # Both of that side's hands are void, so the adversaries hold every honour.
                raise ScoringError(
                    f"{side_name(SIDES[s])} hold no trumps (double chicane): "
                    f"{side_name(SIDES[1 - s])} must hold all five honours",
                    field=f"{p}.honours",
                    law="ruling B4",
                )
            if chicane[s] == 1 and h_side == s and in_one != held:
                raise ScoringError(
                    f"one {side_name(SIDES[s])} hand is void of trumps: all their honours are in "
                    "the other",
                    field=f"{p}.honours.in_one_hand",
                    law="ruling B4",
                )

    def apply(self, state: BridgeState, hand: BridgeHand) -> tuple[BridgeState, HandResult]:
        """Score a hand: revoke transfers first (the penalty "takes precedence of all other
        counts"), then tricks, honours, chicane and slam; then the game and the rubber."""
        if state.complete:
            raise ScoringError("the rubber is over: no further hand can be scored in it",
                               field="hand", law="ruling B7")
        return self._play(state, hand, None)

    def _play(self, state: BridgeState, hand: BridgeHand, lines: list[Line] | None
              ) -> tuple[BridgeState, HandResult]:
        # One code path both scores and (when ``lines`` is a list) explains.
        trump = hand.trump
        v = TRICK_VALUE[trump]
        played = (hand.tricks_ns, 13 - hand.tricks_ns)
        revokes = (hand.revokes_ns, hand.revokes_ew)
        # Ruling B6: each revoke moves three tricks to the adversaries, never more than the
        # revoking side took.
        moved = (min(3 * revokes[0], played[0]), min(3 * revokes[1], played[1]))
        tricks = (played[0] - moved[0] + moved[1], played[1] - moved[1] + moved[0])
        if lines is not None:
            for s in (0, 1):
                if revokes[s]:
                    n = revokes[s]
                    lines.append(Line("ruling B6", (
                        f"{n} revoke{'s' if n > 1 else ''} by {side_name(SIDES[s])}: "
                        f"{moved[s]} trick{' moves' if moved[s] == 1 else 's move'} to "
                        f"{side_name(SIDES[1 - s])} ({side_name('NS')} {tricks[0]}, "
                        f"{side_name('EW')} {tricks[1]})")))

        # Ruling B1: the side with more than six tricks scores each above six at the trump's
        # value, doubled once for each double or redouble.
        odd_side = 0 if tricks[0] > 6 else 1
        odd = tricks[odd_side] - 6
        per = v << hand.doubles
        trick_pts = odd * per
        current = (state.ns, state.ew)
        below = [0, 0]
        scored = trick_pts
        if revokes[odd_side]:
            # Ruling B6: the revoking side cannot win the game on this hand.
            scored = min(trick_pts, max(0, REVOKE_CEILING - current[odd_side]))
        below[odd_side] = scored
        if lines is not None:
            self._explain_tricks(hand, odd_side, odd, per, trick_pts, scored, lines)

        above = [0, 0]
        h_side = hand.honours_side
        value = 0
        if h_side >= 0:
            value = honour_value(trump, hand.honours_held, hand.honours_in_one)
            above[h_side] += value
            if lines is not None:
                self._explain_honours(hand, value, lines)
        chicane = (hand.chicane_ns, hand.chicane_ew)
        if chicane[0] or chicane[1]:
            for s in (0, 1):
                if chicane[s]:
                    # Ruling B4: added to the side's honours when it scores them; otherwise
                    # taken from the adversaries' honours, which may fall below nothing.
                    c = chicane_value(trump, chicane[s])
                    if h_side == s:
                        above[s] += c
                    else:
                        above[1 - s] -= c
                    if lines is not None:
                        what = "double chicane" if chicane[s] == 2 else "chicane"
                        how = (f"added to {side_name(SIDES[s])}'s honours" if h_side == s
                               else f"deducted from {side_name(SIDES[1 - s])}'s honours")
                        lines.append(Line("ruling B4", (
                            f"{what} for {side_name(SIDES[s])}, "
                            f"{'four' if chicane[s] == 2 else 'three'} "
                            f"honours' worth: {c} {how}")))

        # Ruling B5: slam counts only tricks won in play and not lost by the side's own revoke.
        slam = None
        for s in (0, 1):
            own = played[s] - moved[s]
            if own >= 12:
                bonus = GRAND_SLAM if own == 13 else LITTLE_SLAM
                above[s] += bonus
                slam = {"side": SIDES[s], "tricks": own}
                if lines is not None:
                    name = "grand slam" if own == 13 else "little slam"
                    lines.append(Line("ruling B5", (
                        f"{side_name(SIDES[s])} took {WORDS[own]} tricks: {name}, {bonus}")))

        hands = state.hands + 1
        below_ns = state.below_ns + below[0]
        below_ew = state.below_ew + below[1]
        above_ns = state.above_ns + above[0]
        above_ew = state.above_ew + above[1]
        game = [current[0] + below[0], current[1] + below[1]]
        points = {"NS": {"below": below[0], "above": above[0]},
                  "EW": {"below": below[1], "above": above[1]}}
        facts = {
            "game": len(state.games) + 1,
            "declarer": SIDES[hand.declarer],
            "trump": trump,
            "doubles": hand.doubles,
            "tricks": {"NS": tricks[0], "EW": tricks[1]},
            "odd_tricks": {"side": SIDES[odd_side], "count": odd},
            "honours": {"NS": value if h_side == 0 else 0, "EW": value if h_side == 1 else 0},
            "chicane": {"NS": chicane[0], "EW": chicane[1]},
            "slam": slam,
            "revokes": {"NS": revokes[0], "EW": revokes[1]},
        }
        if game[odd_side] < GAME:
            new = BridgeState(state.odd_trick_cap, game[0], game[1], state.games,
                              below_ns, below_ew, above_ns, above_ew, state.winner, False, hands)
            return new, HandResult(points, None, False, facts, self, state, hand)

        # Ruling B2: thirty by tricks wins the game; both sides start the next from nothing.
        won = odd_side
        games = (*state.games, BridgeGame(won, game[0], game[1], hands))
        wins = sum(1 for g in games if g.winner == won)
        complete = wins == 2
        if lines is not None:
            lines.append(Line("ruling B2", (
                f"{side_name(SIDES[won])} reach {game[won]}: game {len(games)} is theirs "
                "(the excess over thirty counts)")))
        new = BridgeState(state.odd_trick_cap, 0, 0, games, below_ns, below_ew, above_ns,
                          above_ew, won if complete else -1, complete, hands)
        if complete and lines is not None:
            totals = _totals(new)
            lines.append(Line("ruling B7", (
                f"{side_name(SIDES[won])} win two games and the rubber: {RUBBER_BONUS} added; "
                f"the rubber is worth {totals[won] - totals[1 - won]} ({side_name('NS')} "
                f"{totals[0]}, {side_name('EW')} {totals[1]})")))
        return new, HandResult(points, SIDES[won], complete, facts, self, state, hand)

    @staticmethod
    def _explain_tricks(hand: BridgeHand, odd_side: int, odd: int, per: int, trick_pts: int,
                        scored: int, lines: list[Line]) -> None:
        dbl = ""
        if hand.doubles == 1:
            dbl = f", doubled: {per}"
        elif hand.doubles == 2:
            dbl = f", redoubled: {per}"
        elif hand.doubles > 2:
            dbl = f", doubled {hand.doubles} times: {per}"
        side = side_name(SIDES[odd_side])
        lines.append(Line("ruling B1", (
            f"{side} take {WORDS[odd + 6]} tricks, {WORDS[odd]} above six at "
            f"{TRUMP_NAMES[hand.trump]} ({TRICK_VALUE[hand.trump]} each{dbl}): "
            f"{trick_pts} below the line")))
        if scored != trick_pts:
            lines.append(Line("ruling B6", (
                f"{side} revoked: their score toward game stops at {REVOKE_CEILING}; "
                f"{trick_pts - scored} of the trick points are not scored")))

    @staticmethod
    def _explain_honours(hand: BridgeHand, value: int, lines: list[Line]) -> None:
        held = hand.honours_held
        in_one = hand.honours_in_one
        if hand.trump == "NT":
            what = f"{WORDS[held]} aces"
            if held == 4 and in_one == 4:
                what += ", all in one hand,"
        else:
            what = f"{WORDS[held]} honours"
            if held == in_one and held >= 4:
                what += ", all in one hand,"
            elif held == 5 and in_one == 4:
                what += ", four in one hand,"
        note = " (doubling does not touch honours)" if hand.doubles else ""
        lines.append(Line("ruling B3", (
            f"{side_name(SIDES[hand.honours_side])} held {what} at {TRUMP_NAMES[hand.trump]}: "
            f"{value}{note}")))

    # --- the rubber ----------------------------------------------------------------------------

    def is_complete(self, state: BridgeState) -> bool:
        """True once a side has won two games (ruling B7)."""
        return state.complete

    def summary(self, state: BridgeState) -> dict:
        """Games (number, winner, scores below), and the rubber's totals and value (B7)."""
        games = [
            {"number": i, "winner": SIDES[g.winner], "scores": {"NS": g.ns, "EW": g.ew},
             "last_hand": g.last_hand}
            for i, g in enumerate(state.games, 1)
        ]
        totals = _totals(state)
        value = totals[state.winner] - totals[1 - state.winner] if state.complete else None
        return {
            "games": games,
            "current": None if state.complete else {
                "number": len(state.games) + 1, "scores": {"NS": state.ns, "EW": state.ew}},
            "rubber": {
                "complete": state.complete,
                "winner": SIDES[state.winner] if state.winner >= 0 else None,
                "totals": {"NS": totals[0], "EW": totals[1]},
                "value": value,
                "below": {"NS": state.below_ns, "EW": state.below_ew},
                "above": {"NS": state.above_ns, "EW": state.above_ew},
                "bonus": RUBBER_BONUS if state.complete else 0,
            },
            "played": state.hands,
        }

    def rubber_value(self, state: BridgeState) -> int:
        """Ruling B7: the winners' total (with the 100) less the losers'; it may be negative."""
        if not state.complete:
            raise ScoringError("the rubber is not over yet", field="hands", law="ruling B7")
        totals = _totals(state)
        return totals[state.winner] - totals[1 - state.winner]

    def settle(self, state: BridgeState, stake: Decimal, players: Any) -> dict[str, Decimal]:
        """Ruling M1: each winner receives the rubber's value times the stake from one loser."""
        return settle_partnership(self, state.winner, self.rubber_value(state), stake, players)

    def may_correct(self, state: BridgeState, hand_number: int, *, kind: str = "tricks",
                    agreed: bool = False) -> bool:
        """The laws' limits on correcting an erroneous score (see ``correction_text``).

        ``kind="tricks"``: until the game it was in is concluded, i.e. until a deal after the
        game's last hand has been recorded; in the rubber's last game, until ``agreed``.
        ``kind="honours"`` (honours, chicane, slam): until the rubber's score is ``agreed``.
        """
        if not 1 <= hand_number <= state.hands:
            raise ScoringError(f"there is no hand {hand_number} in this rubber", field="hand")
        if kind == "honours":
            return not agreed
        if kind != "tricks":
            raise ScoringError('kind is "tricks" or "honours"', field="kind")
        for i, g in enumerate(state.games):
            if hand_number <= g.last_hand:
                if state.complete and i == len(state.games) - 1:
                    return not agreed
                return state.hands <= g.last_hand
        return True


def _totals(state: BridgeState) -> list[int]:
    """Ruling B7: tricks (excess included), honours, chicane, slams, and 100 to the winners."""
    totals = [state.below_ns + state.above_ns, state.below_ew + state.above_ew]
    if state.complete:
        totals[state.winner] += RUBBER_BONUS
    return totals


RULES = BridgeRules()
