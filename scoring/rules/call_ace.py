"""Call-Ace Euchre, R. F. Foster 1905: four to seven players, each for himself (laws 20, 27, 36-38,
42-46; rulings C1-C5).

Players are seats 0..n-1. When the sitting is started with a list of names, every deal names
its players by those names and points are keyed by name; when started with a number, deals name
players by seat index (0 to n-1) and points are keyed by the index as a string ("0", "1", ...),
since JSON object keys are strings. The explanation lines are for people, who count from one:
they call an unnamed seat "Player 1" to "Player 7" (seat 0 is Player 1), as Foster's laws name
no seat (law 1: "their positions at the table being unimportant"; the dealer, the eldest hand
and the pone move round with the deal).

The laws set no target score: "In settling up the scores at the end" (Foster's Scoring) and
"during a three hours' sitting" show that a sitting simply ends when the players stop. So a
sitting is complete only when closed (``close``); it is then settled by ruling C5.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, NamedTuple

from core.quoted import quoted

from .base import (
    WORDS,
    HandResult,
    Line,
    RuleSet,
    ScoringError,
    check_bool,
    check_int,
    check_mapping,
    check_name,
    money,
)

# A deal's keys, in the order a refusal lists them (docs/scoresheet.md).
_DEAL_KEYS = ("maker", "partner", "alone", "tricks", "revoke", "void", "no_score", "wrong_cards")
_REVOKES = ("makers", "adversaries", "both")
# Unnamed seats are keyed by their index as a string, since JSON object keys are strings.
_SEAT_KEYS = {n: tuple(str(i) for i in range(n)) for n in range(4, 8)}


class CallAceDeal(NamedTuple):
    """A validated deal. Players are seat indexes; -1 means none (no maker of a void deal,
    no partner). ``alone`` is True when the maker declared alone (law 23)."""

    void: bool
    maker: int
    partner: int
    alone: bool
    tricks: int
    revoke: str | None
    no_score: tuple[int, ...]
    wrong_cards: tuple[int, ...]
    #: The sitting's names, so that ``as_dict`` can name the players as the sheet did.
    names: tuple[str, ...] | None = None

    def as_dict(self) -> dict:
        """The deal in the scoresheet's raw shape (players by name, or by seat index)."""
        names = self.names

        def ref(seat: int) -> str | int | None:
            if seat < 0:
                return None
            return names[seat] if names is not None else seat

        return {
            "maker": ref(self.maker),
            "partner": ref(self.partner),
            "alone": self.alone,
            "tricks": self.tricks if self.tricks >= 0 else None,
            "revoke": self.revoke,
            "void": self.void,
            "no_score": [ref(seat) for seat in self.no_score],
            "wrong_cards": [ref(seat) for seat in self.wrong_cards],
        }


class CallAceState(NamedTuple):
    """A sitting: the number of players, their names (or None), each player's score."""

    n: int
    names: tuple[str, ...] | None
    scores: tuple[int, ...]
    deals: int = 0
    closed: bool = False


#: A sitting ended before any deal was played, as the pages say it: it settles nothing, for
#: Foster settles "the scores at the end" and there are none (ruling C5); no law of his
#: speaks of a sitting without a deal. It is not counted among the sittings played.
UNPLAYED_SITTING = "ended before any deal was played: it settles nothing (ruling C5)"


class CallAceRules(RuleSet):
    """Call-Ace Euchre (Foster, 1905) for four to seven players."""

    key = "call-ace-foster-1905"
    title = "Call-Ace Euchre (Foster, 1905)"
    partnership = False
    min_players = 4
    max_players = 7
    source = "laws/call-ace-euchre-foster-1905.txt"
    hands_key = "deals"
    deal_law = "law 3"
    rubber_law = "ruling C5"
    correction_law = None
    correction_text = (
        "Foster's laws set no limit on correcting a score (his Description says only 'any one "
        "can keep the score'), and no house ruling adds one. The service lets the players "
        "correct any deal until the sitting is closed and settled (ruling C5); after that only "
        "the club's referee may."
    )

    # --- options and players -------------------------------------------------------------------

    def deal_passes(self, hand: dict) -> bool:
        """The same dealer deals again after a deal made void by both sides revoking (laws
        6, 42) or under law 6 (a faced card, an imperfect pack: a void deal that has its
        maker); a deal void because no one named a trump passes to the left (law 17)."""
        if hand.get("revoke") == "both":
            return False
        return not (hand.get("void") and hand.get("maker") is not None)

    def validate_options(self, options: dict | None) -> dict:
        """Call-Ace has no club options (the pack follows from the number of players, law 2)."""
        if options is None:
            return {}
        check_mapping(options, "options", frozenset())
        return {}

    def validate_players(self, players: Any, *, field: str = "players") -> int | list[str]:
        """A list of 4 to 7 distinct names, or the number of players (law 1) when unnamed."""
        if players is None:
            raise ScoringError("give the players' names, or their number (4 to 7)", field=field,
                               law="law 1")
        if type(players) is int:
            return check_int(players, field, 4, 7, law="law 1")
        if not isinstance(players, list):
            raise ScoringError("a list of 4 to 7 player names, or their number", field=field,
                               law="law 1")
        if not 4 <= len(players) <= 7:
            raise ScoringError(f"{len(players)} players: Call-Ace is for four to seven",
                               field=field, law="law 1")
        seen: set[str] = set()
        for i, name in enumerate(players):
            check_name(name, f"{field}[{i}]")
            if name in seen:
                raise ScoringError(f"{quoted(name)} is named twice", field=f"{field}[{i}]")
            seen.add(name)
        return list(players)

    def start(self, options: dict, players: Any = None) -> CallAceState:
        """A fresh sitting for ``players``: a number 4-7 (seats by index) or a list of names."""
        players = self.validate_players(players)
        if isinstance(players, int):
            return CallAceState(players, None, (0,) * players)
        return CallAceState(len(players), tuple(players), (0,) * len(players))

    # --- deals ---------------------------------------------------------------------------------

    def _player(self, state: CallAceState, value: Any, field: str) -> int:
        """A player reference: a name when the sitting is named, else a seat index."""
        if state.names is not None:
            if isinstance(value, str) and value in state.names:
                return state.names.index(value)
            raise ScoringError(f"{quoted(value)} is not a player at this sitting", field=field)
        return check_int(value, field, 0, state.n - 1)

    def _players(self, state: CallAceState, value: Any, field: str) -> tuple[int, ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            raise ScoringError("a list of players", field=field)
        out = []
        for i, ref in enumerate(value):
            seat = self._player(state, ref, f"{field}[{i}]")
            if seat in out:
                raise ScoringError("a player is listed twice", field=f"{field}[{i}]")
            out.append(seat)
        return tuple(out)

    def validate_hand(self, state: CallAceState, data: dict, *, field_prefix: str = "hand"
                      ) -> CallAceDeal:
        """Check one raw deal (see docs/scoresheet.md) against the sitting."""
        p = field_prefix
        if state.closed:
            raise ScoringError("the sitting is closed and settled: no further deal can be scored",
                               field=p, law="ruling C5")
        check_mapping(data, p, _DEAL_KEYS, what=f"a deal of {self.title}")
        void = check_bool(data.get("void", False), f"{p}.void")
        revoke = data.get("revoke")
        if revoke is not None and revoke not in _REVOKES:
            raise ScoringError('revoke is null, "makers", "adversaries" or "both"',
                               field=f"{p}.revoke", law="law 36")
        maker_raw = data.get("maker")
        if maker_raw is None:
            # Law 17: when no one makes the trump the deal is void; only then is there no maker.
            if not void:
                raise ScoringError("say who made the trump", field=f"{p}.maker", law="law 15")
            maker = -1
        else:
            maker = self._player(state, maker_raw, f"{p}.maker")
        partner_raw = data.get("partner")
        partner = -1 if partner_raw is None else self._player(state, partner_raw, f"{p}.partner")
        if partner >= 0 and maker < 0:
            raise ScoringError("a partner needs a maker", field=f"{p}.partner", law="law 19")
        if partner >= 0 and partner == maker:
            raise ScoringError(
                "the maker cannot also be the partner: holding the best card called, the maker "
                "has none",
                field=f"{p}.partner",
                law="law 22",
            )
        alone_raw = data.get("alone", False)
        if alone_raw is True or alone_raw is False:
            alone = alone_raw
        else:
            # A player named as playing alone must be the maker (law 24).
            if self._player(state, alone_raw, f"{p}.alone") != maker:
                raise ScoringError("no one but the maker of the trump can play alone",
                                   field=f"{p}.alone", law="law 24")
            alone = True
        if alone and partner >= 0:
            raise ScoringError("a player who plays alone has no partner", field=f"{p}.partner",
                               law="law 23")
        if alone and maker < 0:
            raise ScoringError("only the maker of the trump can play alone", field=f"{p}.alone",
                               law="law 24")
        tricks_raw = data.get("tricks")
        if tricks_raw is None:
            # Tricks are needed unless the deal is void or stopped by a revoke (law 36: the hands
            # are abandoned at once).
            if not void and revoke is None:
                raise ScoringError("give the tricks the maker and partner took",
                                   field=f"{p}.tricks", law="law 43")
            tricks = -1
        else:
            tricks = check_int(tricks_raw, f"{p}.tricks", 0, 5, law="law 43")
        if revoke is not None and maker < 0:
            raise ScoringError("a revoke is scored against the maker's side or for it",
                               field=f"{p}.revoke", law="law 36")
        no_score = self._players(state, data.get("no_score"), f"{p}.no_score")
        wrong_cards = self._players(state, data.get("wrong_cards"), f"{p}.wrong_cards")
        return CallAceDeal(void, maker, partner, alone, tricks, revoke, no_score, wrong_cards,
                           state.names)

    def apply(self, state: CallAceState, hand: CallAceDeal) -> tuple[CallAceState, HandResult]:
        """Score one deal (laws 36-38, 42-46, 20, 27; rulings C2-C4)."""
        if state.closed:
            raise ScoringError("the sitting is closed and settled: no further deal can be scored",
                               field="hand", law="ruling C5")
        return self._play(state, hand, None)

    def _play(self, state: CallAceState, deal: CallAceDeal, lines: list[Line] | None
              ) -> tuple[CallAceState, HandResult]:
        n = state.n
        pts = [0] * n
        maker = deal.maker
        partner = deal.partner
        name = self._namer(state)
        key = self._key(state)
        # Law 45: a maker who called but found no partner scores exactly as a lone hand.
        lone = partner < 0
        side = (maker,) if lone else (maker, partner)
        march = False
        euchred = False
        void = deal.void or deal.revoke == "both"
        if void:
            if lines is not None:
                if deal.revoke == "both":
                    lines.append(Line("law 42", "both sides revoked: the deal is void (ruling C3)"))
                else:
                    lines.append(Line("law 17", (
                        "the deal is void (no trump made; or under law 6 or 50): nothing is "
                        "scored")))
        elif deal.revoke == "adversaries":
            # Laws 36-37, ruling C3: the maker's side scores a march, even after losing a trick.
            each = n if lone else (2 if n == 4 else 3)
            for seat in side:
                pts[seat] = each
            if lines is not None:
                law = "law 37" if lone else "law 36"
                what = f"a lone march, {each}" if lone else f"a march, {each} each"
                lines.append(Line(law, (
                    f"an adversary revoked: {_who(name, side)} score{'s' if lone else ''} "
                    f"{what} (ruling C3)")))
        elif deal.revoke == "makers":
            for seat in range(n):
                if seat not in side:
                    pts[seat] = 2
            if lines is not None:
                lines.append(Line("law 38", "the maker's side revoked: each adversary scores 2"))
        elif deal.tricks >= 3:
            tricks = deal.tricks
            if tricks == 5:
                march = True
                each = n if lone else (2 if n == 4 else 3)
            else:
                each = 1
            for seat in side:
                pts[seat] = each
            if lines is not None:
                words = WORDS[tricks]
                if lone:
                    why = "alone" if deal.alone else "without a partner (law 45)"
                    if march:
                        lines.append(Line("law 44", (
                            f"{name(maker)} {why}, five tricks: {each}, one for each of the "
                            f"{WORDS[n]} players")))
                    else:
                        lines.append(Line("law 44", f"{name(maker)} {why}, {words} tricks: 1"))
                elif march:
                    lines.append(Line("law 43", (
                        f"{_who(name, side)}, five tricks (march) with {WORDS[n]} playing: "
                        f"{each} each")))
                else:
                    lines.append(Line("law 43", f"{_who(name, side)}, {words} tricks: 1 each"))
        else:
            euchred = True
            for seat in range(n):
                if seat not in side:
                    pts[seat] = 2
            if lines is not None:
                lines.append(Line("law 46", (
                    f"{_who(name, side)} euchred with {WORDS[deal.tricks]} "
                    f"trick{'' if deal.tricks == 1 else 's'}: every other player scores 2 "
                    "(ruling C2)")))

        if deal.no_score or deal.wrong_cards:
            self._no_score(deal, side, pts, name, lines)

        scores = state.scores
        if any(pts):
            scores = tuple(a + b for a, b in zip(scores, pts, strict=True))
        new = CallAceState(n, state.names, scores, state.deals + 1, False)
        keys = state.names if state.names is not None else _SEAT_KEYS[n]
        facts = {
            "maker": key(maker) if maker >= 0 else None,
            "partner": key(partner) if partner >= 0 else None,
            "march": march,
            "alone": maker >= 0 and lone,
            "euchred": euchred,
            "void": void,
            "revoke": deal.revoke,
        }
        return new, HandResult(dict(zip(keys, pts, strict=True)), None, False, facts,
                               self, state, deal)

    @staticmethod
    def _no_score(deal: CallAceDeal, side: tuple[int, ...], pts: list[int], name,
                  lines: list[Line] | None) -> None:
        # Ruling C4: law 20 (a partner who showed himself) and law 27 (wrong number of cards,
        # played on) each stop a player scoring; law 27 stops his partner too.
        silenced = list(deal.no_score)
        for seat in deal.wrong_cards:
            if seat not in silenced:
                silenced.append(seat)
            if seat in side and len(side) == 2:
                other = side[1] if seat == side[0] else side[0]
                if other not in silenced:
                    silenced.append(other)
        for seat in silenced:
            lost = pts[seat]
            pts[seat] = 0
            if lines is not None:
                text = f"{name(seat)} scores nothing this deal"
                if lost:
                    text += f" ({lost} not counted)"
                if seat in deal.no_score:
                    lines.append(Line("ruling C4", f"{text}, under law 20 or law 27"))
                elif seat in deal.wrong_cards:
                    lines.append(Line("law 27", f"{text}: wrong number of cards (ruling C4)"))
                else:
                    lines.append(Line("law 27", f"{text}: their partner held the wrong number of "
                                                "cards (ruling C4)"))

    @staticmethod
    def _namer(state: CallAceState):
        """A seat as the explanation lines name it: the player's name, or "Player 3" for
        seat 2 of a sitting without names."""
        if state.names is not None:
            return state.names.__getitem__
        return lambda seat: f"Player {seat + 1}"

    @staticmethod
    def _key(state: CallAceState):
        """A seat as the deal's facts hold it, as the sheet named it: a name, or its index."""
        if state.names is not None:
            return state.names.__getitem__
        return int

    # --- the sitting ---------------------------------------------------------------------------

    def close(self, state: CallAceState) -> CallAceState:
        """End the sitting (the players have stopped); it can then be settled (ruling C5)."""
        return state._replace(closed=True)

    def is_complete(self, state: CallAceState) -> bool:
        """A sitting is over only when the players stop and it is closed (no target score)."""
        return state.closed

    def settlement_points(self, state: CallAceState) -> list[int]:
        """Ruling C5 in points: player i's net is n x own score - sum of all scores."""
        total = sum(state.scores)
        return [state.n * own - total for own in state.scores]

    def summary(self, state: CallAceState) -> dict:
        """Totals per player, net settlement points (C5), and the sitting's status."""
        keys = state.names if state.names is not None else _SEAT_KEYS[state.n]
        totals = dict(zip(keys, state.scores, strict=True))
        nets = dict(zip(keys, self.settlement_points(state), strict=True))
        return {
            "games": [],
            "rubber": {
                "complete": state.closed,
                # Each player settles with every other (ruling C5): no single winner is named.
                "winner": None,
                "totals": totals,
                "value": None,
            },
            "totals": totals,
            "settlement": nets,
            "played": state.deals,
        }

    def settle(self, state: CallAceState, stake: Decimal, players: Any = None
               ) -> dict[str, Decimal]:
        """Ruling C5: each player's net is (n x own - sum of all) x stake; the nets add to zero.

        ``players`` names the seats (a list of names) when the sitting was started unnamed;
        by default the sitting's own names are used.
        """
        if not state.closed:
            raise ScoringError("the sitting is settled only when it is closed", field="deals",
                               law="ruling C5")
        names = state.names if players is None else self.validate_players(players)
        if not isinstance(names, list | tuple) or len(names) != state.n:
            raise ScoringError(f"name the {state.n} players to settle the sitting",
                               field="players", law="ruling C5")
        return {nm: money(net, stake)
                for nm, net in zip(names, self.settlement_points(state), strict=True)}

    def may_correct(self, state: CallAceState, hand_number: int, *, kind: str = "tricks",
                    agreed: bool = False) -> bool:
        """No law limits corrections in Call-Ace; the players may correct until it is closed."""
        if not 1 <= hand_number <= state.deals:
            raise ScoringError(f"there is no deal {hand_number} in this sitting", field="hand")
        return not state.closed


def _who(name, side: tuple[int, ...]) -> str:
    if len(side) == 1:
        return f"{name(side[0])}"
    return f"{name(side[0])} and {name(side[1])}"


RULES = CallAceRules()
