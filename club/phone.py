"""What the phone at a table shows besides the score sheet: who sits where and who deals
next, the number of the next hand, and the entry and correction forms' values.

The phone's own views are in club/views_board.py (`table_phone`, `table_record`); this
module only reads. The forms are one template for entry and correction
(templates/club/_table_hand_fields.html), filled from `scoring.hand_input`'s `to_form`,
so a correction starts from everything the hand had (its revokes and irregularities
included) and loses nothing the player does not take off.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from django.utils.dateparse import parse_datetime
from django.utils.text import capfirst

from club.evenings import evening_state, sitting_dealer
from club.formation.state import SEATS
from club.models import Table
from core.echo import Typed, after_label, refusal, typed_again
from core.errors import Conflict, UserError
from core.inputs import NOT_DIGITS, whole_number
from core.text import clean_reason
from scoring.hand_input import hand_input
from scoring.models import Rubber
from scoring.rules import get_ruleset
from scoring.rules.games import get_game
from scoring.services import taken_back_since
from scoring.views import describe_play

SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}

#: A rubber's status in words, for the phone's heading.
RUBBER_STATUS = {
    Rubber.Status.IN_PROGRESS: "in play",
    Rubber.Status.COMPLETE: "finished",
    Rubber.Status.ABANDONED: "abandoned (the table broke up)",
}


def settled_sitting(rubber: Rubber | None) -> bool:
    """Is `rubber` a Call-Ace sitting closed and settled (ruling C5)? A sitting is complete
    only once closed: none of its deals is the table's to correct or take back then, and
    the table's next deal is deal 1 of a new sitting."""
    return (
        rubber is not None
        and rubber.status == Rubber.Status.COMPLETE
        and not get_ruleset(rubber.ruleset).partnership
    )


def rubber_hands(sheet: dict | None) -> list[dict]:
    """The rubber's hands in order, as its score sheet (scoring.selectors.rubber_scoresheet)
    already read them: number, hand (its data), lines, corrected."""
    if not sheet:
        return []
    return list(sheet.get(get_ruleset(sheet["ruleset"]).hands_key) or [])


def table_seats(*, table: Table, rubber: Rubber | None, hands: list[dict]) -> dict:
    """The table round from the dealer's point of view: each seat (North, East, South,
    West; at Call-Ace the order round the table) with its player, the substitute sitting
    in for him (law 18), and who deals the next hand (the deal passes to the left).

    Returns {"seats": [{"seat", "player", "substitute", "deals"}], "dealer": name or None,
    "dealer_law": the law, with a dealer "dealer_order" (who sits round the table, as the
    seats name them, in JSON) and "dealer_at" (the dealer's place in it), and for partners seated
    "sides": {"NS": "Ann & Bob", ...}}.
    Empty seats when the table is not yet seated."""
    rules = get_ruleset(table.evening.ruleset)
    engine_table = evening_state(table.evening).table(table.number)
    result: dict = {"seats": [], "dealer": None, "dealer_law": rules.deal_law}
    if engine_table is None or not engine_table.playing:
        return result
    order = list(engine_table.playing)
    if engine_table.seated:
        labels = [SEAT_NAMES[seat] for seat in SEATS]
    elif rules.partnership:
        return result  # partners not cut yet (ruling T4): no seats to show
    else:
        labels = [f"{n}." for n in range(1, len(order) + 1)]
    dealer = None
    played = [hand["hand"] for hand in hands]
    if engine_table.dealer and (rubber is None or rubber.status == Rubber.Status.IN_PROGRESS):
        first = (rubber.first_dealer if rubber is not None else "") or engine_table.dealer
        dealer = rules.dealer(order, first, played)
    elif engine_table.dealer and settled_sitting(rubber):
        # Deal 1 of the next sitting: the deal passes on in rotation from the settled
        # one's last deal (law 3), as the sitting will be begun (club.evenings).
        dealer = sitting_dealer(rubber, order, engine_table.dealer) or None
    for label, player in zip(labels, order, strict=True):
        result["seats"].append(
            {
                "seat": label,
                "player": player,
                "substitute": engine_table.substitutes.get(player),
                "deals": player == dealer,
            }
        )
    if dealer is not None:
        result["dealer"] = engine_table.occupant(dealer)
        # Who deals after hands still waiting on the phone: the queue passes the deal on
        # from here (static/js/phone-queue.js, followQueue).
        result["dealer_order"] = json.dumps([engine_table.occupant(player) for player in order])
        result["dealer_at"] = order.index(dealer)
    if engine_table.seated:
        # The partnerships as they sit: a substitute named, with whom he plays for.
        def sitting(player: str) -> str:
            occupant = engine_table.occupant(player)
            return occupant if occupant == player else f"{occupant} (for {player})"

        seats = engine_table.seats or {}
        result["sides"] = {
            "NS": f"{sitting(seats['N'])} & {sitting(seats['S'])}",
            "EW": f"{sitting(seats['E'])} & {sitting(seats['W'])}",
        }
    return result


def next_hand_number(rubber: Rubber | None) -> int:
    """The number the next hand recorded at the table will have (a new Call-Ace sitting
    starts at 1): the phone sends it, and the service refuses it once taken."""
    if rubber is None or rubber.status != Rubber.Status.IN_PROGRESS:
        return 1
    return rubber.hand_count + 1


def last_hand(rubber: Rubber | None, hands: list[dict]) -> dict | None:
    """The rubber's last hand, for the phone to show and offer to correct or take back: its
    number, what it scored (its lines), the form's fields holding it, and when it was
    recorded (the take-back sends it: a hand taken back and entered again since is another,
    club.recording.hand_remove). `followed`: a later hand was recorded after it and taken
    back since, so the table may change it no more (ruling E9: only the secretary now),
    and neither form is offered. `passes_deal`: whether the deal passed on after it, for
    the phone's queue to put the dealer back right while its take-back waits. None for a
    settled sitting (ruling C5): its deals are no longer the table's to change."""
    if rubber is None or not hands or settled_sitting(rubber):
        return None
    hand = hands[-1]
    return {
        "followed": taken_back_since(rubber_id=rubber.pk, hand=hand),
        "number": hand["number"],
        "lines": hand["lines"],
        "corrected": hand["corrected"],
        "recorded_at": hand["recorded_at"],
        "changed_at": hand["changed_at"],
        "values": hand_input(rubber.ruleset).to_form(hand["hand"]),
        "reason": "",
        # Whether the deal passed to the left after it (not after a Call-Ace deal its
        # dealer deals again, laws 6, 42, 50): taken back, the dealer goes back only then.
        "passes_deal": get_ruleset(rubber.ruleset).deal_passes(hand["hand"]),
    }


def hand_forms(
    rubber: Rubber | None,
    hands: list[dict],
    *,
    error: dict | None = None,
    entered: dict | None = None,
    correcting: int | None = None,
    taking_back: int | None = None,
) -> dict:
    """The values of a table's phone's hand forms, the same at an evening's table and a
    progressive's: the entry form's for the next hand, and the last hand with its
    correction form's and its take-back's (`last_hand`). A refused form's values
    (`entered`) are shown again in the correction form when it was correcting the last
    hand (`correcting`, its number; its panel then open), in the take-back's when it was
    taking back the last hand (`taking_back`: its reason; its panel open), else in the
    entry form. A door passes neither for a refused correction of another rubber's hand,
    which is not to be offered as this rubber's."""
    last = last_hand(rubber, hands)
    if last is not None and entered is not None and correcting == last["number"]:
        if error and error.get("code") in CHANGED_SINCE:
            # Changed by the other phone (or the secretary) since this phone read it: the
            # form starts from the hand as it now reads, and what the player had entered
            # is said beside it, so a second tap sends only what they choose after
            # reading it, never the old fields over the new correction (ruling E9).
            # A legal hand in a few words; any other in the form's own controls (shown
            # only), every field and tick box as it was entered.
            last["entered_words"] = entered_words(rubber.ruleset, entered)
            if not last["entered_words"]:
                last["entered_values"] = entered
        else:
            last["values"] = entered
    if last is not None and entered is not None and taking_back == last["number"]:
        last["reason"] = entered.get("reason", "")
    return {
        "entry_values": (
            entered if entered is not None and correcting is None and taking_back is None else {}
        ),
        "last_hand": last,
        "correcting": correcting if error else None,
        # Open again only on the hand it was taking back: a take-back refused because the
        # other phone recorded the next hand leaves that hand's "Yes" a tap further away.
        "taking_back": (
            taking_back if error and last is not None and taking_back == last["number"] else None
        ),
    }


#: The refusals of a correction whose hand changed since the phone read it
#: (club.recording.hand_correct): the form is then given the hand as it now reads.
CHANGED_SINCE = {"hand_corrected", "hand_replaced"}


def entered_words(ruleset: str, entered: dict) -> str:
    """A refused correction's fields in a few words, as the sheet shows a hand ("E-W
    make, 3 tricks"), or "" when they do not make a hand the laws take (nothing is
    checked before the version is): the page then shows them in the form's own controls
    (templates/club/_table_last_hand.html), where no tick box is lost."""
    inputs = hand_input(ruleset)
    try:
        checked = inputs.serializer(data=inputs.from_form(entered))
        if checked.is_valid():
            return describe_play(ruleset, dict(checked.validated_data))
    except UserError:
        pass
    return ""


def done_words(
    *, label: str, hand, correcting: int | None, taking_back: int | None = None
) -> list[str]:
    """What a table's phone says once a hand is recorded (its number and lines), corrected
    (`correcting`, its number) or taken back (`taking_back`, its number), with the game's
    `label` for a hand."""
    label = label.capitalize()
    if taking_back is not None:
        return [
            f"{label} {taking_back} taken back: it is off the sheet and the score is as it was "
            "before it; it stays on record as taken back (ruling E9)."
        ]
    if correcting is not None:
        return [f"{label} {correcting} corrected."]
    return [f"{label} {hand.number} recorded.", *hand.lines]


@dataclass(frozen=True)
class TakeBack:
    """A take-back posted from a table's phone (templates/club/_table_last_hand.html): the
    hand's number (the "Yes, take back hand N" button's value), when the hand was recorded
    as the phone's sheet showed it, and the players' reason, if they gave one."""

    number: int
    recorded_at: datetime
    reason: str


def take_back_form(post, *, ruleset: str) -> TakeBack | None:
    """The take-back a phone's form posted, or None when the form is not one (a hand, a
    correction). Law 5 and ruling E9 ask no reason of the players for their table's last
    hand; one given is kept with the hand taken back and shown in the evening's history."""
    number = whole_number(post, "take_back")
    if number is None:
        return None
    label = get_game(ruleset).hand_label
    try:
        recorded_at = parse_datetime(post.get("recorded_at", ""))
    except ValueError:
        recorded_at = None
    if recorded_at is None:
        raise UserError(
            f"The take-back does not say which {label} {number} it is, as the sheet showed it "
            f"(when it was recorded): reload the page and take the {label} back again.",
            field="recorded_at",
        )
    reason = clean_reason(post.get("reason"))
    return TakeBack(number=number, recorded_at=recorded_at, reason=reason)


def correction_seen(post, *, ruleset: str, number: int) -> datetime | None:
    """The version of hand `number` a phone's correction form corrects: when the hand was
    last changed as the phone's sheet showed it (its hidden `changed_at`), so a hand the
    other phone corrected first is refused, not overwritten (club.recording.hand_correct).
    None from a form that does not say (a page older than the field): the correction is
    then made to the hand as it is, as before."""
    sent = post.get("changed_at")
    if sent is None:
        return None
    try:
        seen = parse_datetime(sent)
    except ValueError:
        seen = None
    if seen is None or seen.tzinfo is None:
        label = get_game(ruleset).hand_label
        raise UserError(
            f"The correction does not say which version of {label} {number} it corrects, "
            f"as the sheet showed it (when it was last changed): reload the page and "
            f"correct the {label} again.",
            field="changed_at",
        )
    return seen


#: The fields of the hand's form (templates/club/_table_hand_fields.html) and of the
#: secretary's correction on the rubber's page (its reason), in words: a refusal says which
#: was too long to show again whole (core.echo).
TYPED_WORDS = {
    "makers": "the makers", "declarer": "the declarer's side", "maker": "the maker",
    "partner": "the partner called", "trump": "the trump", "tricks": "the tricks taken",
    "tricks_ns": "the tricks taken by N-S", "doubles": "the doubles",
    "revokes_NS": "the revokes by N-S", "revokes_EW": "the revokes by E-W",
    "revoke": "the revoke", "law90": "the side at fault",
    "honours_side": "the side holding honours", "honours_held": "the honours held",
    "honours_in_one_hand": "the most honours in one hand",
    "chicane_NS": "chicane N-S", "chicane_EW": "chicane E-W",
    "wrong_cards": "the wrong number of cards", "no_score": "the players scoring nothing",
    "reason": "the reason",
}  # fmt: skip


def form_values(post) -> Typed:
    """A posted entry or correction form's fields as the form shows them again after a
    refusal, so nothing typed is lost (ticked boxes True, groups of boxes as lists), each
    text cut to ECHO_MAX characters with the note saying which was (core.echo)."""
    values: dict = {}
    for name in post:
        items = post.getlist(name)
        if name in {"no_score", "wrong_cards"}:
            values[name] = items
        elif items and items[-1] == "on":
            values[name] = True
        elif items:
            values[name] = items[-1]
    return typed_again(values, TYPED_WORDS)


#: The phone's own fields that are not the hand's (the form's hidden fields and the other
#: side's answer), in words, for the one refusal of them whose message names no field: a
#: value not written in digits (core.inputs.NOT_DIGITS, only from a post not made by the
#: page). Every other refusal of them is a sentence naming the hand, the rubber or the
#: table it refuses ("This rubber has no hand 5.").
OWN_FIELDS = {
    "correct": "the {hand} to correct", "expected_number": "the number of the {hand}",
    "rubber": "the {rubber} the {hand} is for", "number": "the {hand} answered for",
    "take_back": "the {hand} to take back",
}  # fmt: skip


def field_words(field: str | None, *, ruleset: str, code: str | None = None) -> str | None:
    """The field a refusal names (its `field`, a path in the API's shape), as the phone's
    form names it, to say before a message that does not: a field of the hand as its
    form labels it ("the tricks taken by the makers"; "in hand 3, the maker" for one of a
    rubber's hands replayed, as a correction does), or one of the phone's own fields
    refused for not being written in digits. None when the message names it itself."""
    inputs = hand_input(ruleset)
    found = inputs.field_words(field)
    game = get_game(ruleset)
    if found is not None:
        words, number = found
        return words if number is None else f"in {game.hand_label} {number}, {words}"
    if code == NOT_DIGITS and field in OWN_FIELDS:
        return OWN_FIELDS[field].format(hand=game.hand_label, rubber=game.rubber_label)
    return None


def named_refusal(exc: Exception, *, ruleset: str, note: str = "") -> dict:
    """A refusal as a table's phone shows it (core.echo's `refusal`), its field named in
    words before its message (`label`, templates/_refusal.html) where the message does not
    name it: "The tricks taken by the makers: 6 is out of range: must be from 0 to 5
    (law 2)", never the field's path (`hands[0].tricks`), which is kept for scripts."""
    error = refusal(exc, note=note)
    code = getattr(exc, "code", None)
    words = field_words(error["field"], ruleset=ruleset, code=code)
    error["label"] = f"{capfirst(words)}:" if words else None
    if words and code == NOT_DIGITS:
        # After its field's name and a colon, the refusal goes on as one sentence.
        error["message"] = after_label(error["message"])
    return error


#: The fields of the hand's form that send several values (a group of boxes, one for each
#: player ticked); every other field sends one (`check_once`).
MANY_VALUES = {"no_score", "wrong_cards"}


def check_once(post, *, ruleset: str) -> None:
    """Refuse a form that sends a field twice (makers=NS&makers=EW: never the page's own
    form, whose fields each send one), naming the field in words, rather than take the
    last and record a hand no one chose."""
    game = get_game(ruleset)
    for name in post:
        if name in MANY_VALUES or len(post.getlist(name)) < 2:
            continue
        own = OWN_FIELDS.get(name)
        words = (
            own.format(hand=game.hand_label, rubber=game.rubber_label)
            if own
            else TYPED_WORDS.get(name, f'the field "{name}"')
        )
        raise UserError(
            f"{capfirst(words)} came {len(post.getlist(name))} times in one form, which "
            f"sends it once: nothing was recorded. Send the {game.hand_label} again from "
            "the page.",
            field=name,
        )


@dataclass(frozen=True)
class Refused:
    """A hand's form refused at a phone or a sheet: the refusal in words (`named_refusal`),
    the form's values to show again (None: not offered again), whether the service
    refused it as a conflict (the hand already recorded, the rubber over or busy: 409),
    and the wait to send it again after (a row lock not granted in time: the
    Idempotency-Key keeps no such answer, so the phone's queue sends it again)."""

    error: dict
    typed: Typed | None
    conflict: bool
    retry_after: str | None

    @property
    def status(self) -> int:
        """What every page taking a hand's form answers a refusal with: 409 for a
        conflict, else 400, as the API answers the same refusal. The phone's queue
        (static/js/phone-queue.js) shows either answer's live part and drops the hand,
        unless it says to send it again later (Retry-After)."""
        return 409 if self.conflict else 400


def refused_form(exc: Exception, post, *, ruleset: str, echo: bool = True) -> Refused:
    """What every page that takes a hand's form answers a refusal with (`Refused`): the
    refusal naming its field in words by the hand's `ruleset` (`named_refusal`); the form
    comes back as it was typed (`form_values`), each value cut to ECHO_MAX characters,
    unless `echo` is False. A refused take-back says so first ("Not taken back.")."""
    typed = form_values(post) if echo else None
    conflict = isinstance(exc, Conflict)
    error = named_refusal(exc, ruleset=ruleset, note=typed.note if typed else "")
    error["code"] = exc.code if conflict else None
    if "take_back" in post:
        error["not_done"] = "Not taken back."
    return Refused(
        error=error,
        typed=typed,
        conflict=conflict,
        retry_after="1" if conflict and exc.code == "locked" else None,
    )


#: The choices of the hand's form (templates/club/_table_hand_fields.html): Bridge's trumps
#: and who revoked at Call-Ace, in words.
HAND_CHOICES = {
    "trumps": list(hand_input("bridge-elwell-1907").choices["trump"].items()),
    "revokes": [
        ("makers", "the makers"),
        ("adversaries", "the adversaries"),
        ("both", "both sides"),
    ],
}


def words(*, table: Table, rubber: Rubber | None) -> dict:
    """The labels the page shows in words: the game and laws, what a hand is called,
    the rubber's status, whether it is a settled sitting (`settled_sitting`), and the
    game's citations for forming its tables (`cites`: its cutting in and out, its cut for
    partners, as the board cites them)."""
    game = get_game(table.evening.ruleset)
    return {
        "game_title": game.title,
        "hand_label": game.hand_label,
        "rubber_label": game.rubber_label,
        "rubber_status": RUBBER_STATUS.get(rubber.status, "") if rubber else "",
        "settled": settled_sitting(rubber),
        "cites": game.tables.cites,
        **HAND_CHOICES,
    }
