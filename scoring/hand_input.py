"""A hand as it arrives, per rule set: the API's documented shape, and the HTML forms'.

One validation layer serves every door. A hand posted to the API (JSON, in the shape of
docs/scoresheet.md) and a hand typed into the phone's entry or correction form both end
in the same place: the rule set's ``validate_hand``, called by the scoring service,
which names the field (``hand.tricks``), what was wrong and the law. The form's input
object below only turns the form's strings into that JSON shape (whole numbers written
in ASCII digits, ticked boxes as booleans, counts as the API's lists); it decides no
law of its own, so a rule written once in ``scoring/rules/`` holds for both doors.

The input objects are found by the rule set's key (``hand_input``); a view never asks
which game it is scoring.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from core.errors import UserError
from core.inputs import MAX_DIGITS, BodyInput, WholeNumberField, whole_number
from scoring.rules.bridge import TRUMP_NAMES
from scoring.rules.euchre import MAX_REVOKES as EUCHRE_MAX_REVOKES

SIDES = ("NS", "EW")


def side(**kwargs) -> serializers.ChoiceField:
    """A partnership field, "NS" or "EW" (a new field each time: DRF binds fields)."""
    return serializers.ChoiceField(choices=list(SIDES), **kwargs)


# --- the API's shapes (OpenAPI schema; the laws validate) -----------------------------------


class EuchreHandInput(BodyInput):
    """A hand of Euchre (Somerset Club, 1888), as in docs/scoresheet.md."""

    makers = side()
    alone = serializers.BooleanField(default=False)
    tricks = WholeNumberField(min_value=0, max_value=5, help_text="taken by the makers")
    revokes = serializers.ListField(child=side(), required=False, help_text="one entry a revoke")
    law90 = side(allow_null=True, required=False, help_text="the side at fault (law 90)")
    law102 = serializers.BooleanField(default=False)
    law50 = serializers.BooleanField(default=False)


class HonoursInput(BodyInput):
    side = side()
    held = WholeNumberField(min_value=0, max_value=5)
    in_one_hand = WholeNumberField(min_value=0, max_value=5)


class SidesCount(BodyInput):
    NS = WholeNumberField(min_value=0)
    EW = WholeNumberField(min_value=0)


class BridgeHandInput(BodyInput):
    """A hand of Bridge (Elwell, 1907), as in docs/scoresheet.md."""

    declarer = side()
    trump = serializers.ChoiceField(choices=["S", "C", "D", "H", "NT"])
    doubles = WholeNumberField(min_value=0, default=0)
    tricks = SidesCount(help_text="tricks taken by each side, adding to thirteen")
    honours = HonoursInput(allow_null=True, required=False)
    chicane = SidesCount(required=False)
    revokes = SidesCount(required=False)


class CallAceDealInput(BodyInput):
    """A deal of Call-Ace Euchre (Foster, 1905), as in docs/scoresheet.md."""

    maker = serializers.CharField()
    partner = serializers.CharField(allow_null=True, required=False)
    alone = serializers.BooleanField(default=False)
    tricks = WholeNumberField(min_value=0, max_value=5)
    revoke = serializers.ChoiceField(
        choices=["makers", "adversaries", "both"], allow_null=True, required=False
    )
    void = serializers.BooleanField(default=False)
    no_score = serializers.ListField(child=serializers.CharField(), required=False)
    wrong_cards = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="law 27: wrong number of cards"
    )


# --- the forms ------------------------------------------------------------------------------


def _text(form: Mapping[str, Any], name: str) -> str | None:
    """A text field as typed (surrounding blanks dropped); None when empty or missing."""
    value = form.get(name)
    if value is None:
        return None
    value = str(value).strip()
    return value or None


def _ticked(form: Mapping[str, Any], name: str) -> bool:
    """A checkbox: ticked when the browser sent "on"."""
    return form.get(name) == "on"


def _tricks(form: Mapping[str, Any], name: str) -> int | str | None:
    """A trick count as typed: a whole number in ASCII digits as the number, and anything
    else as its text, for the laws to refuse (`check_int`), in the words, with the field
    and the law, they give a hand sent to the API (the numeral "٣" at both doors: "must be
    a whole number from 0 to 5, written in the digits 0 to 9", law 2). None when empty."""
    text = _text(form, name)
    if text is None:
        return None
    digits = text[1:] if text.startswith("-") else text
    if digits.isascii() and digits.isdigit() and len(digits) <= MAX_DIGITS:
        return int(text)
    return text


def _shown(value: Any) -> str:
    """A recorded value as a form field holds it: "" for none."""
    return "" if value is None else str(value)


def _put(hand: dict, key: str, value: Any) -> None:
    """Leave a key out when the form left it empty, so the laws say what is missing."""
    if value is not None:
        hand[key] = value


# A hand's field as a refusal names it: "hand.tricks" (a hand sent to a rubber), or
# "hands[2].tricks" and "deals[2].tricks" (the third of a rubber's hands replayed, as a
# correction does, or of a scoresheet's), with a list's entries ("revokes[1]").
_HAND_FIELD = re.compile(r"(?:hand|(?:hands|deals)\[(\d+)\])(?:\.(.+))?")


class HandInput(ABC):
    """One rule set's hand: the API's serializer (its documented shape) and the form's
    fields turned into that shape (``from_form``), for the laws to validate, and the
    form's fields in words (``words``), for a refusal to say which it refused."""

    ruleset: str
    serializer: type[serializers.Serializer]
    #: The hand's fields as the form's labels name them, by their path in the API's shape
    #: ("tricks", "honours.held"; a list's entries by the list's).
    words: dict[str, str]
    #: A list's choices as the form offers them, by the field's path and the value the
    #: hand keeps ("trump": "NT" is "No trumps"): the phone's list and the CSV export read
    #: them here.
    choices: dict[str, dict[str, str]] = {}

    def field_words(self, field: str | None) -> tuple[str, int | None] | None:
        """A refusal's field (`hand.tricks`, `hands[0].honours.held`, `hand.revokes[2]`) as
        the form names it, with the number of the hand it is of when the field says
        (`hands[0]`: 1): ("the tricks taken by the makers", 1). None for a field that is
        not one of the hand's (`rubber`), or the whole hand."""
        match = _HAND_FIELD.fullmatch(field or "")
        if match is None or match[2] is None:
            return None
        path = re.sub(r"\[\d+\]", "", match[2])
        number = int(match[1]) + 1 if match[1] is not None else None
        while path:
            if path in self.words:
                return self.words[path], number
            path = path.rpartition(".")[0]
        return None

    @abstractmethod
    def from_form(self, form: Mapping[str, Any]) -> dict:
        """The hand in the API's shape from the form's fields; a UserError on a field that
        does not even hold a value of its kind (a count of revokes not written in digits).
        A trick count not written in digits is left to the laws, which refuse it as they
        refuse it sent to the API (`_tricks`)."""

    @abstractmethod
    def to_form(self, hand: Mapping[str, Any]) -> dict:
        """The form's fields holding a recorded hand (the inverse of ``from_form``), so a
        correction starts from the hand as it is: field name -> the value as the form
        shows it (a string; True for a ticked box; a list for a group of boxes)."""


class EuchreForm(HandInput):
    ruleset = "euchre-somerset-1888"
    serializer = EuchreHandInput
    words = {
        "makers": "the makers", "alone": "played alone",
        "tricks": "the tricks taken by the makers", "revokes": "the revokes",
        "law90": "the side at fault (wrong number of cards)",
        "law102": "the lone player's partner exposed a card",
        "law50": "an adversary abandoned their hand",
    }  # fmt: skip

    def from_form(self, form):
        hand: dict = {"alone": _ticked(form, "alone")}
        _put(hand, "makers", _text(form, "makers"))
        _put(hand, "tricks", _tricks(form, "tricks"))
        revokes = []
        for s in SIDES:
            count = whole_number(form, f"revokes_{s}", field="hand.revokes", default=0)
            # One past the law's most is enough for the law to refuse (law 62); a form
            # never makes a list of a million entries out of one typed number.
            revokes += [s] * min(count, EUCHRE_MAX_REVOKES + 1)
        hand["revokes"] = revokes
        hand["law90"] = _text(form, "law90")
        hand["law102"] = _ticked(form, "law102")
        hand["law50"] = _ticked(form, "law50")
        return hand

    def to_form(self, hand):
        revokes = list(hand.get("revokes") or [])
        return {
            "makers": _shown(hand.get("makers")),
            "alone": bool(hand.get("alone")),
            "tricks": _shown(hand.get("tricks")),
            **{f"revokes_{s}": str(revokes.count(s)) for s in SIDES},
            "law90": _shown(hand.get("law90")),
            "law102": bool(hand.get("law102")),
            "law50": bool(hand.get("law50")),
        }


#: The phone's choice that neither side counts honours (ruling B3: at no trumps only).
NO_HONOURS = "none"


class BridgeForm(HandInput):
    ruleset = "bridge-elwell-1907"
    serializer = BridgeHandInput
    words = {
        "declarer": "the declarer's side", "trump": "the trump", "doubles": "the doubles",
        "tricks": "the tricks taken", "tricks.NS": "the tricks taken by N-S",
        "tricks.EW": "the tricks taken by E-W", "honours": "the honours",
        "honours.side": "the side holding honours", "honours.held": "how many honours",
        "honours.in_one_hand": "the most honours in one hand", "chicane": "chicane",
        "chicane.NS": "chicane N-S", "chicane.EW": "chicane E-W", "revokes": "the revokes",
        "revokes.NS": "the revokes by N-S", "revokes.EW": "the revokes by E-W",
    }  # fmt: skip
    # The trumps as the laws name them (Declaring Trumps), capitalised as a list's choices.
    choices = {"trump": {key: name.capitalize() for key, name in TRUMP_NAMES.items()}}

    def from_form(self, form):
        hand: dict = {}
        _put(hand, "declarer", _text(form, "declarer"))
        _put(hand, "trump", _text(form, "trump"))
        hand["doubles"] = whole_number(form, "doubles", field="hand.doubles", default=0)
        ns = _tricks(form, "tricks_ns")
        if ns is not None:
            # E-W took the rest; a count the laws refuse is theirs to refuse, as N-S's.
            hand["tricks"] = {"NS": ns, "EW": 13 - ns if isinstance(ns, int) else ns}
        hand["honours"] = None
        # "none": the phone's "neither side counts" (at no trumps, the aces two and two);
        # a blank, as from a page before that choice, is neither too (ruling B3).
        if (honours_side := _text(form, "honours_side")) and honours_side != NO_HONOURS:
            hand["honours"] = {"side": honours_side}
            for name in ("held", "in_one_hand"):
                number = whole_number(form, f"honours_{name}", field=f"hand.honours.{name}")
                _put(hand["honours"], name, number)
        for what in ("chicane", "revokes"):
            hand[what] = {
                s: whole_number(form, f"{what}_{s}", field=f"hand.{what}.{s}", default=0)
                for s in SIDES
            }
        return hand

    def to_form(self, hand):
        tricks = hand.get("tricks") or {}
        honours = hand.get("honours") or {}
        fields = {
            "declarer": _shown(hand.get("declarer")),
            "trump": _shown(hand.get("trump")),
            "doubles": _shown(hand.get("doubles", 0)),
            "tricks_ns": _shown(tricks.get("NS")),
            "honours_side": _shown(honours.get("side")) if honours else NO_HONOURS,
            "honours_held": _shown(honours.get("held")),
            "honours_in_one_hand": _shown(honours.get("in_one_hand")),
        }
        for what in ("chicane", "revokes"):
            counts = hand.get(what) or {}
            fields.update({f"{what}_{s}": _shown(counts.get(s, 0)) for s in SIDES})
        return fields


#: Call-Ace's two void deals, as the phone offers them: the data keeps one `void`, the two
#: told apart by the maker (scoring.rules.call_ace, deal_passes): none named under law 17,
#: the deal passing to the left; one named under laws 6 and 50, the same dealer dealing again.
VOID_NO_TRUMP, VOID_FACED = "no_trump", "faced"


def _void(form: Mapping[str, Any], *, maker: str | None) -> bool:
    """The phone's choice of void deal, checked against the maker: no trump named has no
    maker (law 17), a faced card or an imperfect pack has one (laws 6, 50). "on" is the
    single box of a page loaded before the choice was split (its maker decides)."""
    why = _text(form, "void")
    if why == VOID_NO_TRUMP and maker is not None:
        raise UserError(
            "The void deal: no one named a trump (law 17), so no one made it: leave the "
            "maker empty, or choose a card found faced or an imperfect pack (laws 6, 50).",
            field="hand.void",
            law="law 17",
        )
    if why == VOID_FACED and maker is None:
        raise UserError(
            "The void deal: a card found faced or an imperfect pack (laws 6, 50) voids a "
            "deal whose trump was made: say who made it, as the maker.",
            field="hand.maker",
            law="laws 6, 50",
        )
    return why in {VOID_NO_TRUMP, VOID_FACED, "on"}


class CallAceForm(HandInput):
    ruleset = "call-ace-foster-1905"
    serializer = CallAceDealInput
    words = {
        "maker": "the maker", "partner": "the partner called", "alone": "played alone",
        "tricks": "the tricks taken by the maker and partner", "revoke": "the revoke",
        "void": "the void deal", "no_score": "the players scoring nothing",
        "wrong_cards": "the players with the wrong number of cards",
    }  # fmt: skip

    def from_form(self, form):
        hand: dict = {}
        _put(hand, "maker", _text(form, "maker"))
        hand["partner"] = _text(form, "partner")
        hand["alone"] = _ticked(form, "alone")
        _put(hand, "tricks", _tricks(form, "tricks"))
        hand["revoke"] = _text(form, "revoke")
        hand["void"] = _void(form, maker=hand.get("maker"))
        getlist = getattr(form, "getlist", None)
        names = getlist("no_score") if getlist else form.get("no_score") or []
        hand["no_score"] = [str(name).strip() for name in names if str(name).strip()]
        # Law 27 (a player with more or fewer than five cards), only when ticked: a deal
        # recorded without it keeps the shape it always had.
        names = getlist("wrong_cards") if getlist else form.get("wrong_cards") or []
        if wrong := [str(name).strip() for name in names if str(name).strip()]:
            hand["wrong_cards"] = wrong
        return hand

    def to_form(self, hand):
        return {
            "maker": _shown(hand.get("maker")),
            "partner": _shown(hand.get("partner")),
            "alone": bool(hand.get("alone")),
            "tricks": _shown(hand.get("tricks")),
            "revoke": _shown(hand.get("revoke")),
            "void": (
                ("faced" if hand.get("maker") is not None else "no_trump")
                if hand.get("void")
                else ""
            ),
            "no_score": [str(name) for name in hand.get("no_score") or []],
            "wrong_cards": [str(name) for name in hand.get("wrong_cards") or []],
        }


#: The hand's input object of each rule set, by its key.
HAND_INPUTS: dict[str, HandInput] = {
    form.ruleset: form for form in (EuchreForm(), BridgeForm(), CallAceForm())
}


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="HandInput",
        serializers=[form.serializer for form in HAND_INPUTS.values()],
        resource_type_field_name=None,
    )
)
class HandField(serializers.DictField):
    """A hand in the scoresheet's shape, documented as each game's hand; the laws validate
    it in the service (`validate_hand`), by the rubber's rule set."""


class HandRecordInput(BodyInput):
    """The body that records a hand, the same at every door (a rubber's hands, a table's
    hands): the hand in the scoresheet's shape, and the number it is meant to have."""

    hand = HandField(help_text="the hand, in the scoresheet's shape")
    expected_number = WholeNumberField(
        required=False,
        min_value=1,
        help_text=(
            "the number this hand is meant to have in the rubber; when that hand is already "
            "recorded (another device, a retry) the hand is refused with 409 (code "
            "hand_already_recorded) naming the hand recorded"
        ),
    )


def hand_input(ruleset: str) -> HandInput:
    """The input object of a rule set's hand (a ScoringError for an unknown key)."""
    from scoring.rules import get_ruleset

    return HAND_INPUTS[get_ruleset(ruleset).key]
