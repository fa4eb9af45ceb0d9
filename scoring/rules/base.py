"""What every rule set shares: the user error, explanation lines, hand results, the RuleSet base.

Nothing here imports Django: the rule sets are pure functions of (state, hand) -> (state, result),
so they can be unit-tested without a database and replayed from a stored scoresheet.
"""

from __future__ import annotations

import abc
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Context, Decimal, Inexact, InvalidOperation, Overflow
from typing import Any

from core.amounts import in_digits
from core.quoted import quoted

#: The two partnerships, in the order every tuple indexed by side uses (0 = NS, 1 = EW).
SIDES = ("NS", "EW")
SIDE_INDEX = {"NS": 0, "EW": 1}
#: The partnerships as a score sheet names them to people ("N-S"): pages and exports.
SIDE_NAMES = {"NS": "N-S", "EW": "E-W"}


def side_name(side) -> str:
    """A partnership in words ("NS" -> "N-S"); anything else (a Call-Ace player's name)
    as it is."""
    return SIDE_NAMES.get(str(side), str(side))

#: Number words for explanation lines ("five tricks"), index = count.
WORDS = (
    "no",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
)

# Money is exact (ruling M1): a context that refuses to round rather than silently losing a cent.
_MONEY = Context(prec=60, traps=[Inexact, InvalidOperation, Overflow])


class ScoringError(Exception):
    """A user error: the input breaks a law or ruling, or is malformed. Never changes stored data.

    ``field`` is the dotted path of the offending value in the scoresheet (``hands[3].tricks``,
    ``options.odd_trick_cap``, ``ruleset``); ``law`` names the law or ruling (``law 3``,
    ``ruling B6``) when one applies. ``code`` is the API's error code when it is not
    "invalid": ``UNKNOWN_KEY`` for a key a hand does not take, as a body's unknown key is
    coded (core.inputs.BodyInput).
    """

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        law: str | None = None,
        code: str | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.field = field
        self.law = law
        self.code = code

    def as_dict(self) -> dict:
        """The error as the API's JSON body shows it."""
        return {
            "code": "scoring_error",
            "message": self.message,
            "field": self.field,
            "law": self.law,
        }

    def __str__(self) -> str:
        where = f" [{self.field}]" if self.field else ""
        law = f" ({self.law})" if self.law else ""
        return f"{self.message}{law}{where}"


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a score's explanation, naming the law or ruling behind it."""

    law: str
    text: str

    def __str__(self) -> str:
        return f"{self.law}: {self.text}"


@dataclass(slots=True, eq=False)
class HandResult:
    """What one hand (or Call-Ace deal) scored.

    ``points``: Euchre ``{"NS": int, "EW": int}``; Bridge ``{"NS": {"below", "above"}, "EW": ...}``;
    Call-Ace ``{player: int}``. ``game_won``: the side that won a game on this hand.
    ``facts``: countable facts for standings. ``lines`` (the explanation) is built on first access
    by replaying the same scoring code with explanation switched on, so scoring a million hands
    does not format a million strings, yet every hand can still explain itself.
    """

    points: dict
    game_won: str | None
    rubber_complete: bool
    facts: dict
    _rules: RuleSet | None = field(default=None, repr=False)
    _state: Any = field(default=None, repr=False)
    _hand: Any = field(default=None, repr=False)
    _lines: list[Line] | None = field(default=None, repr=False)

    @property
    def lines(self) -> list[Line]:
        """The explanation: one Line per law or ruling applied, in the order applied."""
        if self._lines is None:
            self._lines = self._rules.explain(self._state, self._hand)
        return self._lines

    def as_dict(self) -> dict:
        """JSON-able form: points, lines (as strings), game_won, rubber_complete, facts."""
        return {
            "points": self.points,
            "lines": [str(line) for line in self.lines],
            "game_won": self.game_won,
            "rubber_complete": self.rubber_complete,
            "facts": self.facts,
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandResult):
            return NotImplemented
        return (
            self.points == other.points
            and self.game_won == other.game_won
            and self.rubber_complete == other.rubber_complete
            and self.facts == other.facts
            and self.lines == other.lines
        )

    __hash__ = None  # type: ignore[assignment]  # mutable cache; equality is by value


class RuleSet(abc.ABC):
    """One game's laws as a pure rule set.

    A rubber (Call-Ace: a sitting) is an immutable state: ``start`` makes a fresh one,
    ``validate_hand`` turns a raw JSON hand into a checked hand for that state, and ``apply``
    returns the next state and what the hand scored, never mutating its input.
    """

    key: str
    title: str
    partnership: bool
    min_players: int
    max_players: int
    #: The file under the shared ``laws/`` folder this rule set follows.
    source: str
    #: The law or ruling limiting when the players may correct a recorded score, and its gist.
    correction_law: str | None
    correction_text: str
    #: Key of the list of hands in a scoresheet: "hands" (Euchre, Bridge) or "deals" (Call-Ace).
    hands_key: str = "hands"
    #: The law by which the deal passes to the left, hand by hand, as the phone's heading
    #: cites it: "law 28" (Euchre), "law 3" (Call-Ace), "Bridge laws, The Deal" (Elwell's
    #: laws are not numbered: "Each player deals in his turn; the order of dealing goes to
    #: the left"). Each rule set names its own.
    deal_law: str

    def deal_passes(self, hand: dict) -> bool:
        """Does the deal pass to the left after this recorded hand (as its JSON data)? Yes,
        unless the rule set has the same dealer deal again."""
        return True

    def dealer(self, order: Sequence[str], first: str, hands: Iterable[dict]) -> str | None:
        """Who deals the next hand: ``order`` is the players round the table, each on the
        left of the one before (N, E, S, W; at Call-Ace the order round the table), ``first``
        who dealt the rubber's first hand, ``hands`` the hands recorded so far. The deal
        passes to the left after each hand that ``deal_passes``. None when ``first`` is
        not at the table."""
        if first not in order:
            return None
        seat = list(order).index(first)
        for hand in hands:
            if self.deal_passes(hand):
                seat = (seat + 1) % len(order)
        return order[seat]

    def dealer_after(
        self, order: Sequence[str], first: str, hands: Iterable[dict], players: Sequence[str]
    ) -> str | None:
        """Who deals first for ``players`` once ``hands`` have been dealt round ``order``
        from ``first``: the deal passes in regular rotation to the left (Call-Ace law 3),
        from one sitting to the next; the player due to deal, if no longer among
        ``players``, is passed over to his left. None when no one of ``order`` plays on."""
        due = self.dealer(order, first, hands)
        if due is None:
            return None
        at = list(order).index(due)
        turn = [order[(at + step) % len(order)] for step in range(len(order))]
        return next((player for player in turn if player in players), None)

    @abc.abstractmethod
    def validate_options(self, options: dict | None) -> dict:
        """Check a club's options for this rule set and return them with defaults filled."""

    @abc.abstractmethod
    def validate_players(self, players: Any, *, field: str = "players") -> Any:
        """Check the sheet's ``players`` value and return it normalised (None when absent)."""

    @abc.abstractmethod
    def start(self, options: dict, players: Any = None) -> Any:
        """A fresh rubber (Call-Ace: a sitting) under already validated options."""

    @abc.abstractmethod
    def validate_hand(self, state: Any, data: dict, *, field_prefix: str = "hand") -> Any:
        """Check one raw hand against ``state``; raise ScoringError naming the field."""

    @abc.abstractmethod
    def apply(self, state: Any, hand: Any) -> tuple[Any, HandResult]:
        """Score a validated hand: return the next state and the hand's result (pure)."""

    def explain(self, state: Any, hand: Any) -> list[Line]:
        """The explanation lines ``apply(state, hand)`` scores by, built by the same code."""
        lines: list[Line] = []
        self._play(state, hand, lines)
        return lines

    @abc.abstractmethod
    def _play(self, state: Any, hand: Any, lines: list[Line] | None) -> tuple[Any, HandResult]:
        """Score a hand; with ``lines`` a list, also append the explanation to it.

        One code path both scores and explains, so an explanation can never disagree
        with the score it explains.
        """

    @abc.abstractmethod
    def is_complete(self, state: Any) -> bool:
        """True when no further hand may be recorded in this rubber or sitting."""

    @abc.abstractmethod
    def summary(self, state: Any) -> dict:
        """JSON-able {"games": [...], "rubber": {complete, winner, totals, value}, ...}."""

    @abc.abstractmethod
    def settle(self, state: Any, stake: Decimal, players: Any) -> dict[str, Decimal]:
        """The money each named player wins (+) or loses (-); the amounts add to exactly zero."""

    @abc.abstractmethod
    def may_correct(self, state: Any, hand_number: int, *, kind: str = "tricks",
                    agreed: bool = False) -> bool:
        """Whether the players may still correct the score of hand ``hand_number`` (1-based).

        False means only the club's referee (the secretary) may correct it now, and the
        correction is kept beside the original. ``kind`` is "tricks" or "honours" (Bridge
        distinguishes them); ``agreed`` says whether the rubber's score has been agreed.
        """

    def close(self, state: Any) -> Any:
        """End the rubber or sitting. A partnership rubber ends only when won (E1, B7)."""
        if not self.is_complete(state):
            raise ScoringError(
                "a rubber ends only when it has been won; it cannot be closed early",
                field="hands",
                law=self.rubber_law,
            )
        return state

    #: The ruling that says when a rubber is over (E1, B7, C5); used in "rubber is over" errors.
    rubber_law: str = ""

    def __repr__(self) -> str:
        return f"<RuleSet {self.key}>"


# --- Validation helpers shared by the rule sets --------------------------------------------------


#: The code of the refusal of a key a mapping does not take: the API's code for a body's
#: unknown key (core.inputs.UNKNOWN_KEY, which this pure module cannot import).
UNKNOWN_KEY = "unknown_key"


def check_mapping(
    data: Any,
    field: str,
    allowed: Collection[str],
    *,
    what: str = "",
    law: str | None = None,
) -> dict:
    """Require a JSON object whose keys are all in ``allowed``; name the first unknown key.

    With ``what`` (``"a hand of Euchre (...)"``) the refusal lists in words the keys it
    takes, in the order ``allowed`` gives them (a set's sorted), as an API body's unknown
    key is refused (core.inputs.BodyInput); ``law`` is cited when one applies."""
    if not isinstance(data, dict):
        raise ScoringError("must be a JSON object", field=field or None, law=law)
    for key in data:
        if key not in allowed:
            message = f"unknown key {quoted(key)}"
            if what:
                keys = sorted(allowed) if isinstance(allowed, (set, frozenset)) else list(allowed)
                message += (
                    f": {what} takes {_listed(keys)} (no other key is read)"
                    if keys
                    else f": {what} takes no keys"
                )
            raise ScoringError(
                message, field=f"{field}.{key}" if field else key, law=law, code=UNKNOWN_KEY
            )
    return data


def _listed(items: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def check_int(value: Any, field: str, low: int, high: int, law: str | None = None) -> int:
    """An integer count in [low, high]. ``True`` is an int in Python, but never a count here.

    A count written in another script's digits ("٣", an Arabic-Indic three; a superscript or
    a full-width three) is refused saying so: to the one who typed it, it is a number."""
    if type(value) is not int:
        other_digits = isinstance(value, str) and value.strip().isdigit() and not value.isascii()
        written = ", written in the digits 0 to 9" if other_digits else ""
        raise ScoringError(
            f"must be a whole number from {low} to {high}{written}", field=field, law=law
        )
    if not low <= value <= high:
        raise ScoringError(
            f"{value} is out of range: must be from {low} to {high}", field=field, law=law
        )
    return value


def check_bool(value: Any, field: str) -> bool:
    """A JSON boolean; 0 and 1 are refused so that a count is never mistaken for a flag."""
    if type(value) is not bool:
        raise ScoringError("must be true or false", field=field)
    return value


#: The refusal of a side that is not one (`check_side`): the sides in words, for a
#: table's phone, whose form names them so, and their keys, for the API; one sentence at
#: every door (tests/scoring/test_hand_input.py).
SIDE_REFUSAL = 'must be North-South ("NS") or East-West ("EW")'


def check_side(value: Any, field: str, law: str | None = None) -> int:
    """A partnership, "NS" or "EW"; returns its index (0 or 1)."""
    if not isinstance(value, str) or value not in SIDE_INDEX:
        raise ScoringError(SIDE_REFUSAL, field=field, law=law)
    return SIDE_INDEX[value]


def check_name(value: Any, field: str) -> str:
    """A player's name: a non-empty string."""
    if not isinstance(value, str) or not value.strip():
        raise ScoringError("a player's name must be a non-empty string", field=field)
    return value


def check_partnership_players(players: Any, field: str = "players") -> dict | None:
    """``{"NS": [a, b], "EW": [c, d]}`` with four distinct names, or None when not given."""
    if players is None:
        return None
    check_mapping(players, field, SIDE_INDEX.keys())
    seen: set[str] = set()
    out = {}
    for side in SIDES:
        pair = players.get(side)
        if not isinstance(pair, list) or len(pair) != 2:
            raise ScoringError("each side is a list of two player names", field=f"{field}.{side}")
        for i, name in enumerate(pair):
            check_name(name, f"{field}.{side}[{i}]")
            if name in seen:
                raise ScoringError(f"{quoted(name)} is named twice", field=f"{field}.{side}[{i}]")
            seen.add(name)
        out[side] = list(pair)
    return out


def parse_stake(value: Any, field: str = "stake") -> Decimal:
    """A stake per point as an exact decimal (ruling M1): a decimal string or int, never a float."""
    if isinstance(value, Decimal):
        stake = value
    elif isinstance(value, str):
        try:
            stake = Decimal(value.strip())
        except InvalidOperation:
            stake = None
        if stake is None and value.isascii():
            raise ScoringError(
                f"{quoted(value)} is not a decimal amount", field=field, law="ruling M1"
            )
        # Decimal reads more than digits and a point: other scripts' digits as ours, "1e3"
        # as 1000, "NaN", "Infinity", "1_000" (core.amounts).
        if not in_digits(value):
            raise ScoringError(
                'give the stake in the digits 0 to 9, with a point before the pence, such as '
                '"0.25"',
                field=field,
                law="ruling M1",
            )
    elif type(value) is int:
        stake = Decimal(value)
    else:
        raise ScoringError(
            'give the stake as a decimal string such as "0.25" (never a float)',
            field=field,
            law="ruling M1",
        )
    if not stake.is_finite() or stake < 0:
        raise ScoringError("the stake must be a finite amount, not below nothing", field=field,
                           law="ruling M1")
    if stake.adjusted() > 12 or -stake.as_tuple().exponent > 12:
        raise ScoringError("the stake is too large or too finely divided", field=field,
                           law="ruling M1")
    return stake


def money(points: int, stake: Decimal) -> Decimal:
    """``points * stake`` exactly; a zero is never negative (no "-0.00" in a ledger)."""
    amount = _MONEY.multiply(Decimal(points), stake)
    return amount if amount else abs(amount)
