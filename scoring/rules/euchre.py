"""Four-hand partnership Euchre, the Somerset Club laws of 1888 (laws 1-7, 50, 63, 70, 71, 90, 102).

Sides are indexed 0 (NS) and 1 (EW) inside the engine and named "NS"/"EW" at its edges (the
hands' data, points and facts); the explanation lines, for people, name them in words as the
pages do ("N-S make, three tricks": `side_name`).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, NamedTuple

from .base import (
    SIDE_INDEX,
    SIDES,
    WORDS,
    HandResult,
    Line,
    RuleSet,
    ScoringError,
    check_bool,
    check_int,
    check_mapping,
    check_partnership_players,
    check_side,
    money,
    side_name,
)

#: Points that win a game (law 2).
GAME = 5
#: Law 62 makes a revoke possible only for a player following to a lead: three per trick, and
#: five tricks, so no hand can hold more than fifteen.
MAX_REVOKES = 15

# A hand's keys, in the order a refusal lists them (docs/scoresheet.md).
_HAND_KEYS = ("makers", "alone", "tricks", "revokes", "law90", "law102", "law50")


class EuchreHand(NamedTuple):
    """A validated hand. ``makers`` and ``law90`` are side indexes (``law90`` -1 when none)."""

    makers: int
    alone: bool
    tricks: int
    revokes_ns: int
    revokes_ew: int
    law90: int = -1
    law102: bool = False
    law50: bool = False

    def as_dict(self) -> dict:
        """The hand in the scoresheet's raw shape (revokes listed NS first)."""
        return {
            "makers": SIDES[self.makers],
            "alone": self.alone,
            "tricks": self.tricks,
            "revokes": ["NS"] * self.revokes_ns + ["EW"] * self.revokes_ew,
            "law90": SIDES[self.law90] if self.law90 >= 0 else None,
            "law102": self.law102,
            "law50": self.law50,
        }


class EuchreGame(NamedTuple):
    """A finished game: its winner (side index), value (law 7), lap, and the final scores."""

    winner: int
    value: int
    lap: int
    ns: int
    ew: int
    last_hand: int


class EuchreState(NamedTuple):
    """A rubber in progress. ``ns``/``ew`` are the current game's scores (lap included)."""

    ns: int = 0
    ew: int = 0
    games: tuple[EuchreGame, ...] = ()
    winner: int = -1
    complete: bool = False
    hands: int = 0


class EuchreRules(RuleSet):
    """Somerset Club Euchre (1888): hand scores, the game of five, laps, and the rubber."""

    key = "euchre-somerset-1888"
    title = "Euchre (Somerset Club laws, 1888)"
    partnership = True
    min_players = 4
    max_players = 4
    source = "laws/euchre-somerset-1888.txt"
    rubber_law = "ruling E1"
    correction_law = "law 5"
    deal_law = "law 28"
    correction_text = (
        "Law 5: an error in the score can be rectified at any time before the trump card is turned "
        "in the next deal. Ruling E9: the players may correct a hand's score until the next hand "
        "at that table is recorded; after that only the club's referee (the secretary) may "
        "correct it, and the correction is kept in the record beside the original."
    )

    # --- options and players -------------------------------------------------------------------

    def validate_options(self, options: dict | None) -> dict:
        """Euchre has no club options under the house rulings; any key given is refused."""
        if options is None:
            return {}
        check_mapping(options, "options", frozenset())
        return {}

    def validate_players(self, players: Any, *, field: str = "players") -> dict | None:
        """``{"NS": [a, b], "EW": [c, d]}`` (law 11: two against two), or None."""
        return check_partnership_players(players, field)

    def start(self, options: dict, players: Any = None) -> EuchreState:
        """A fresh rubber: nothing scored, game 1 about to begin (law 1)."""
        if players is not None and players != 4 and not isinstance(players, dict):
            raise ScoringError("Euchre is played by four, two against two", field="players",
                               law="law 11")
        return EuchreState()

    # --- hands ---------------------------------------------------------------------------------

    def validate_hand(self, state: EuchreState, data: dict, *, field_prefix: str = "hand"
                      ) -> EuchreHand:
        """Check one raw hand (see docs/scoresheet.md) against the rubber so far."""
        p = field_prefix
        if state.complete:
            raise ScoringError("the rubber is over: no further hand can be scored in it",
                               field=p, law="ruling E1")
        check_mapping(data, p, _HAND_KEYS, what=f"a hand of {self.title}")
        if "makers" not in data:
            raise ScoringError("say which side made the trump", field=f"{p}.makers", law="law 2")
        makers = check_side(data["makers"], f"{p}.makers")
        alone_raw = data.get("alone", False)
        if isinstance(alone_raw, str):
            # A side named as playing alone must be the makers: law 95 forbids a lone hand when
            # the adversaries made the trump.
            if check_side(alone_raw, f"{p}.alone") != makers:
                raise ScoringError(
                    "only the side that made the trump can play alone",
                    field=f"{p}.alone",
                    law="law 95",
                )
            alone = True
        else:
            alone = check_bool(alone_raw, f"{p}.alone")
        if "tricks" not in data:
            raise ScoringError("give the tricks the makers took", field=f"{p}.tricks", law="law 2")
        tricks = check_int(data["tricks"], f"{p}.tricks", 0, 5, law="law 2")
        revokes = data.get("revokes", [])
        if revokes is None:
            revokes = []
        if not isinstance(revokes, list):
            raise ScoringError('a list of the revoking sides, one entry per revoke: ["EW"]',
                               field=f"{p}.revokes", law="law 63")
        if len(revokes) > MAX_REVOKES:
            raise ScoringError(
                f"no hand can hold more than {MAX_REVOKES} revokes (three followers, five tricks)",
                field=f"{p}.revokes",
                law="law 62",
            )
        counts = [0, 0]
        for i, side in enumerate(revokes):
            counts[check_side(side, f"{p}.revokes[{i}]", law="law 63")] += 1
        law90_raw = data.get("law90")
        law90 = -1 if law90_raw is None else check_side(law90_raw, f"{p}.law90", law="law 90")
        law102 = check_bool(data.get("law102", False), f"{p}.law102")
        law50 = check_bool(data.get("law50", False), f"{p}.law50")
        if law102 and not alone:
            raise ScoringError("law 102 applies only when a lone hand is played",
                               field=f"{p}.law102", law="law 102")
        if law50 and not alone:
            raise ScoringError("law 50 applies only when a lone hand is played",
                               field=f"{p}.law50", law="law 50")
        return EuchreHand(makers, alone, tricks, counts[0], counts[1], law90, law102, law50)

    def make_hand(self, makers: str, tricks: int, *, alone: bool = False,
                  revokes: tuple[str, ...] | list[str] = (), law90: str | None = None,
                  law102: bool = False, law50: bool = False) -> EuchreHand:
        """Build a hand from Python values, checked as a raw hand would be (no rubber state)."""
        raw = {"makers": makers, "tricks": tricks, "alone": alone, "revokes": list(revokes),
               "law90": law90, "law102": law102, "law50": law50}
        return self.validate_hand(EuchreState(), raw)

    def apply(self, state: EuchreState, hand: EuchreHand) -> tuple[EuchreState, HandResult]:
        """Score ``hand`` on ``state``: revokes first, then the hand (law 4, ruling E6)."""
        if state.complete:
            raise ScoringError("the rubber is over: no further hand can be scored in it",
                               field="hand", law="ruling E1")
        return self._play(state, hand, None)

    def _play(self, state: EuchreState, hand: EuchreHand, lines: list[Line] | None
              ) -> tuple[EuchreState, HandResult]:
        # One code path both scores and (when ``lines`` is a list) explains, so an explanation
        # can never disagree with the score it explains.
        makers = hand.makers
        alone = hand.alone
        tricks = hand.tricks

        # Revokes (law 63, ruling E7): equal numbers on both sides cancel (law 71); the
        # remainder goes to the adversaries of the side with more, three each or five each
        # in a lone hand. Scored before anything else (law 4, ruling E6).
        net = hand.revokes_ns - hand.revokes_ew
        if net:
            per = 5 if alone else 3
            r_side = 1 if net > 0 else 0
            r_pts = per * abs(net)
        else:
            r_side = -1
            r_pts = 0
        if lines is not None:
            self._explain_revokes(hand, net, r_side, r_pts, lines)

        # The hand itself (laws 2, 3, 50, 102; ruling E5). The hand still counts after a revoke
        # (law 70).
        if hand.law50:
            h_side, h_pts = makers, 5
        elif tricks >= 3:
            h_side = makers
            if tricks < 5:
                h_pts = 1
            elif not alone:
                h_pts = 2
            else:
                h_pts = 2 if hand.law102 else 4
        else:
            h_side = 1 - makers
            h_pts = 4 if alone else 2
        if lines is not None:
            self._explain_hand(hand, h_side, h_pts, lines)

        # Law 90, ruling E8: the offending side forfeits two (four in a lone hand) and scores
        # nothing for the hand, so everything the hand scores goes to one side.
        off = hand.law90
        if off >= 0:
            forfeit = 4 if alone else 2
            if lines is not None:
                self._explain_law90(hand, h_side, h_pts, forfeit, lines)
            h_pts = (h_pts if h_side != off else 0) + forfeit
            h_side = 1 - off

        # Ruling E6: points are added in order; once a side reaches five the game is won, its
        # further points from this hand are its lap, and the losers' further points are lost.
        score = [state.ns, state.ew]
        got = [0, 0]
        won = -1
        lap = 0
        # What the hand itself (not its revoke penalties) gave its side: nothing when the
        # adversaries had won the game first with their revoke points (ruling E6).
        hand_got = 0
        for is_hand, side, pts in ((False, r_side, r_pts), (True, h_side, h_pts)):
            if not pts:
                continue
            if is_hand and (won < 0 or side == won):
                hand_got = pts
            if won < 0:
                got[side] += pts
                total = score[side] + pts
                if total >= GAME:
                    won = side
                    lap = total - GAME
                    score[side] = GAME
                else:
                    score[side] = total
            elif side == won:
                got[side] += pts
                lap += pts
            elif lines is not None:
                lines.append(Line("ruling E6", (
                    f"{pts} to {side_name(SIDES[side])} lost: {side_name(SIDES[won])} had "
                    "already reached five")))

        hands = state.hands + 1
        lone = SIDES[makers] if alone else None
        facts = {
            "game": len(state.games) + 1,
            "march": SIDES[makers] if tricks == 5 else None,
            "lone": lone,
            # A lone hand made is one that scored (law 3): not the law-90 offender's, which
            # "scores nothing that its play made on that hand" (ruling E8), nor one whose
            # points were lost because the adversaries' revoke points had won the game
            # first (ruling E6) or as the last game's lap (ruling E2, below).
            "lone_made": alone and (tricks >= 3 or hand.law50) and h_side == makers
            and hand_got > 0,
            "euchred": SIDES[makers] if tricks < 3 and not hand.law50 else None,
            "lap": 0,
            "games_won": 0,
            "revokes": {"NS": hand.revokes_ns, "EW": hand.revokes_ew},
            "law90": SIDES[off] if off >= 0 else None,
        }
        if won < 0:
            new = EuchreState(score[0], score[1], state.games, state.winner, False, hands)
            return new, HandResult({"NS": got[0], "EW": got[1]}, None, False, facts,
                                   self, state, hand)

        # A game is won.
        games, winner, complete, carry = self._end_game(state, won, lap, score, hands, lines)
        facts["lap"] = carry
        facts["games_won"] = len(games) - len(state.games)
        if complete:
            # Ruling E2: the lap made in the last game of the rubber is lost; the hand's
            # points came after its revoke points (law 4), so they are lost first.
            got[won] -= games[-1].lap
            if h_side == won:
                hand_got -= min(hand_got, games[-1].lap)
                facts["lone_made"] = facts["lone_made"] and hand_got > 0
        new = EuchreState(
            carry if won == 0 else 0, carry if won == 1 else 0, games, winner, complete, hands
        )
        return new, HandResult({"NS": got[0], "EW": got[1]}, SIDES[won], complete, facts,
                               self, state, hand)

    def _end_game(self, state: EuchreState, won: int, lap: int, score: list[int], hands: int,
                  lines: list[Line] | None) -> tuple[tuple[EuchreGame, ...], int, bool, int]:
        """Record the game(s) won; return (games, rubber winner, rubber complete, lap carried).

        A lap of five or more (heavy revoke penalties can make one) opens the next game at five
        or more: that game too is won at once, by the same reading of rulings E2 and E6, and
        what is left beyond its five is the lap again.
        """
        games = state.games
        winner = state.winner
        w = side_name(SIDES[won])
        while True:
            loser_score = score[1 - won]
            value = 1 if loser_score else 2  # law 7, ruling E3 (a lap carried in counts)
            games = (*games, EuchreGame(won, value, lap, score[0], score[1], hands))
            number = len(games)
            decided = winner < 0 and number >= 2 and [g.winner for g in games[:3]].count(won) >= 2
            if decided:
                # Ruling E1: two of the first three games win the rubber.
                winner = won
            # Law 1, rulings E1 and E2: the third game is always played; a fourth only when the
            # hand that ended the third left a lap; a lap in the last game played is lost.
            complete = number == 4 or (number == 3 and not lap)
            if lines is not None:
                self._explain_game(games, winner, decided, complete, lines)
            if complete or lap < GAME:
                return games, winner, complete, 0 if complete else lap
            if lines is not None:
                lines.append(Line("ruling E2", (
                    f"{w}'s lap of {lap} opens game {number + 1} at five or more: that game is "
                    "won at once (ruling E6)")))
            lap -= GAME
            score = [GAME, 0] if won == 0 else [0, GAME]

    @staticmethod
    def _explain_game(games: tuple[EuchreGame, ...], winner: int, decided: bool,
                      complete: bool, lines: list[Line]) -> None:
        game = games[-1]
        number = len(games)
        won = game.winner
        w, loser = side_name(SIDES[won]), side_name(SIDES[1 - won])
        loser_score = game.ew if won == 0 else game.ns
        lines.append(Line("ruling E6", f"{w} reach five and win game {number}"))
        if game.value == 2:
            lines.append(Line("law 7", (
                f"game {number} counts two: {loser} failed to score (ruling E3)")))
        else:
            lines.append(Line("law 7", (
                f"game {number} counts one: {loser} scored {loser_score} (ruling E3)")))
        if game.lap and not complete:
            lines.append(Line("ruling E2", (
                f"{w}'s {game.lap} beyond five is a lap, carried into game {number + 1}")))
        elif game.lap:
            lines.append(Line("ruling E2", (
                f"{w}'s lap of {game.lap} is lost: game {number} is the last of the rubber")))
        if decided:
            lines.append(Line("ruling E1", (
                f"{side_name(SIDES[winner])} have won two of the first three games: the rubber "
                "is theirs")))
            if number == 2:
                lines.append(Line("law 1", "the third game is played all the same"))
        if number == 3 and game.lap:
            lines.append(Line("law 1", (
                "the third game ended with a lap: a fourth game is played (ruling E1)")))
        if complete:
            totals = _totals(games, winner)
            lines.append(Line("ruling E4", (
                f"rubber to {side_name(SIDES[winner])}, worth "
                f"{totals[winner] - totals[1 - winner]} ({side_name('NS')} {totals[0]}, "
                f"{side_name('EW')} {totals[1]}, two for the rubber included; law 7)")))

    # --- explanation helpers (only called when explaining) -------------------------------------

    @staticmethod
    def _explain_revokes(hand: EuchreHand, net: int, r_side: int, r_pts: int,
                         lines: list[Line]) -> None:
        both = min(hand.revokes_ns, hand.revokes_ew)
        if both:
            lines.append(Line("law 71", (
                f"{both} revoke{'s' if both > 1 else ''} by each side cancel (ruling E7)")))
        if net:
            n = abs(net)
            offender = side_name(SIDES[1 - r_side])
            per = ", five each in a lone hand" if hand.alone else ""
            lines.append(Line("law 63", (
                f"{n} revoke{'s' if n > 1 else ''} by {offender}{per}: {r_pts} to "
                f"{side_name(SIDES[r_side])}, scored before the hand (law 4, ruling E6)")))
            lines.append(Line("law 70", "the hand is played out and scored all the same"))

    @staticmethod
    def _explain_hand(hand: EuchreHand, h_side: int, h_pts: int, lines: list[Line]) -> None:
        tricks = WORDS[hand.tricks]
        trick_s = "trick" if hand.tricks == 1 else "tricks"
        # The makers as the sheet's Play column names them ("N-S make, three tricks").
        makers = side_name(SIDES[hand.makers])
        scorers = side_name(SIDES[h_side])
        if hand.law50:
            lines.append(Line("law 50", (
                f"an adversary abandoned their hand against {makers}'s lone hand: {h_pts} "
                "(ruling E5)")))
        elif not hand.alone:
            if hand.tricks == 5:
                lines.append(Line("law 2", f"{makers} make, five tricks (march): {h_pts}"))
            elif h_side == hand.makers:
                lines.append(Line("law 2", f"{makers} make, {tricks} tricks: {h_pts}"))
            else:
                lines.append(Line("law 2", (
                    f"{makers} make, {tricks} {trick_s} (euchred): {h_pts} to {scorers}")))
        elif hand.tricks == 5 and hand.law102:
            lines.append(Line("law 102", (
                f"lone hand, five tricks, but the partner exposed a card: {h_pts} (ruling E5)")))
        elif h_side == hand.makers:
            lines.append(Line("law 3", f"lone hand, {tricks} tricks: {h_pts}"))
        else:
            lines.append(Line("law 3", (
                f"lone hand euchred, {tricks} {trick_s}: {h_pts} to {scorers}")))
            if hand.law102:
                lines.append(Line("law 102", "a euchre still scores four (ruling E5)"))

    @staticmethod
    def _explain_law90(hand: EuchreHand, h_side: int, h_pts: int, forfeit: int,
                       lines: list[Line]) -> None:
        off = hand.law90
        offender = side_name(SIDES[off])
        lone = " in a lone hand" if hand.alone else ""
        lines.append(Line("law 90", (
            f"{offender} held the wrong number of cards or failed to discard: they forfeit "
            f"{forfeit}{lone} to {side_name(SIDES[1 - off])} (ruling E8)")))
        if h_side == off and h_pts:
            lines.append(Line("law 90", (
                f"{offender} score nothing on this hand: their {h_pts} is not counted "
                "(ruling E8)")))

    # --- the rubber ----------------------------------------------------------------------------

    def is_complete(self, state: EuchreState) -> bool:
        """True once the third game ended without a lap, or the fourth game is over (E1)."""
        return state.complete

    def summary(self, state: EuchreState) -> dict:
        """Games (number, winner, value, lap, scores) and the rubber (ruling E4's totals)."""
        games = [
            {
                "number": i,
                "winner": SIDES[g.winner],
                "value": g.value,
                "lap": g.lap,
                # Ruling E2: a lap made in the last game played of a rubber is lost.
                "lap_lost": bool(g.lap) and state.complete and i == len(state.games),
                "scores": {"NS": g.ns, "EW": g.ew},
                "last_hand": g.last_hand,
            }
            for i, g in enumerate(state.games, 1)
        ]
        totals = _totals(state.games, state.winner)
        winner = SIDES[state.winner] if state.winner >= 0 else None
        value = totals[state.winner] - totals[1 - state.winner] if state.complete else None
        return {
            "games": games,
            "current": None if state.complete else {
                "number": len(state.games) + 1,
                "scores": {"NS": state.ns, "EW": state.ew},
            },
            "rubber": {
                "complete": state.complete,
                "winner": winner,
                "totals": {"NS": totals[0], "EW": totals[1]},
                "value": value,
            },
            "played": state.hands,
        }

    def rubber_value(self, state: EuchreState) -> int:
        """Ruling E4: the winners' game values plus two, less the losers'; 0 to 10."""
        if not state.complete:
            raise ScoringError("the rubber is not over yet", field="hands", law="ruling E4")
        totals = _totals(state.games, state.winner)
        return totals[state.winner] - totals[1 - state.winner]

    def settle(self, state: EuchreState, stake: Decimal, players: Any) -> dict[str, Decimal]:
        """Ruling M1: each winner receives the rubber's value times the stake from one loser."""
        return settle_partnership(self, state.winner, self.rubber_value(state), stake, players)

    def may_correct(self, state: EuchreState, hand_number: int, *, kind: str = "tricks",
                    agreed: bool = False) -> bool:
        """Law 5, ruling E9: only the latest hand recorded may still be corrected by the players."""
        if not 1 <= hand_number <= state.hands:
            raise ScoringError(f"there is no hand {hand_number} in this rubber", field="hand",
                               law="law 5")
        return hand_number == state.hands


def _totals(games: tuple[EuchreGame, ...], winner: int) -> list[int]:
    """Ruling E4: each side's game values, and two more for the rubber's winners (law 7)."""
    totals = [0, 0]
    for g in games:
        totals[g.winner] += g.value
    if winner >= 0:
        totals[winner] += 2
    return totals


def settle_partnership(rules: RuleSet, winner: int, value: int, stake: Decimal,
                       players: Any) -> dict[str, Decimal]:
    """Ruling M1 for a partnership rubber: each winner +value*stake, each loser the same, less."""
    named = check_partnership_players(players)
    if named is None:
        raise ScoringError("name the four players to settle the rubber", field="players",
                           law="ruling M1")
    amount = money(value, stake)
    loss = money(-value, stake)
    ledger = {}
    for side in SIDES:
        for name in named[side]:
            ledger[name] = amount if SIDE_INDEX[side] == winner else loss
    return ledger


RULES = EuchreRules()
