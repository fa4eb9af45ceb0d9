"""The engine's refusals of a field missing or of the wrong kind say in words what to send,
never the log's keys: not "'cut' needs 'cards': {player: card, ...}", "'seat' is one of N,
E, S, W" nor "he leaves the table first (leave)". The API's ``field`` still names the key,
and each refusal keeps its law. Every action is walked with each of its fields missing and
sent as each kind of JSON value; each either is refused with a FormationError in words or
is accepted, and never raises anything else.

Beside the engine's own tests rather than among them (tests/club/formation, which CI runs
without Django): the actions' keys are the service's (club.evenings), and the limit of a
chosen text is core.text's."""

from __future__ import annotations

import re

import pytest

from club.evenings import ACTION_KEYS, SECRETARY_EVENTS
from club.formation import BRIDGE, CALL_ACE, EUCHRE, FormationError, apply
from club.formation.engine.wording import CHOICE_MAX
from core.text import TITLE_MAX
from tests.club.formation.formation_walk import Walk

KEYS = sorted({"type", *SECRETARY_EVENTS, *(k for keys in ACTION_KEYS.values() for k in keys)})
RAW = [
    # a key in quotes: "'cut' needs 'cards'"
    re.compile("['\"](" + "|".join(KEYS) + ")['\"]"),
    # an action's key in brackets: "he leaves the table first (leave)"
    re.compile(r"\((" + "|".join(SECRETARY_EVENTS) + r")\)"),
    # a key written as one: "will_return", "cut_id", "broken_by"
    re.compile(r"\b(" + "|".join(k for k in KEYS if "_" in k) + r")\b"),
    # the shape of a JSON value: "{player: card, ...}", "[[player, card], ...]"
    re.compile(r"\{\s*\w+\s*:|\[\[|, \.\.\.[\]}]"),
]
FIVE = ["Ann", "Bob", "Cat", "Dan", "Eve"]
FOUR_CARDS = {"Ann": "JS", "Bob": "AS", "Cat": "KS", "Dan": "QS"}
BAD = [None, "", "  ", 12, True, [], {}, ["Ann"], [["Ann"]], {"Ann": 1}, 1.5]


def has_raw_keys(message: str) -> list[str]:
    return [m.group(0) for pattern in RAW for m in pattern.finditer(message)]


def table_formed(rule_set: str, *players: str) -> Walk:
    """PLAYERS arrive and a table is formed: its cut waits (law 12)."""
    walk = Walk(rule_set)
    walk.arrive(*players)
    walk("form_table")
    return walk


def rubber_seated(rule_set: str, cards: list[str]) -> Walk:
    """Five arrive (FIVE); all cut for table 1 with CARDS, one each in FIVE's order, then
    its four (the first four) cut for partners and deal with the same cards."""
    walk = table_formed(rule_set, *FIVE)
    walk("cut", cards=dict(zip(FIVE, cards, strict=True)))
    walk("cut", cards=dict(zip(FIVE[:4], cards[:4], strict=True)))
    return walk


def euchre_rubber() -> Walk:
    return rubber_seated(EUCHRE, ["JS", "AS", "KS", "QS", "7S"])


def euchre_cut() -> Walk:
    return table_formed(EUCHRE, *FIVE[:4])


def bridge_rubber() -> Walk:
    return rubber_seated(BRIDGE, ["AS", "2S", "3S", "4S", "5S"])


def call_ace_table() -> Walk:
    return table_formed(CALL_ACE, "Abe", "Bea", "Cy", "Di", "Ed")


# (the evening, the action, its other fields as sent, the fields to spoil)
ACTIONS = [
    (euchre_rubber, "arrive", {"player": "Fay"}, ["player"]),
    (euchre_rubber, "depart", {"player": "Eve"}, ["player"]),
    (euchre_rubber, "claim", {"player": "Eve", "table": 1}, ["player", "table"]),
    (euchre_rubber, "withdraw", {"player": "Eve"}, ["player"]),
    (euchre_rubber, "rubber_end", {"table": 1}, ["table"]),
    (
        euchre_rubber,
        "substitute",
        {"table": 1, "player": "Ann", "substitute": "Eve", "consent": ["Bob", "Cat", "Dan"]},
        ["table", "player", "substitute", "consent"],
    ),
    (euchre_rubber, "leave", {"table": 1, "player": "Eve"}, ["table", "player"]),
    (euchre_rubber, "change_table", {"player": "Ann", "table": 1}, ["player", "table"]),
    (euchre_rubber, "break_up", {"table": 1, "broken_by": "Ann"}, ["table", "broken_by"]),
    (
        euchre_rubber,
        "dealer_choice",
        {"table": 1, "seat": "E", "cards": "the red pack", "counters": "the bone ones"},
        ["table", "seat", "cards", "counters"],
    ),
    (
        euchre_cut,
        "cut",
        {"cards": {"Ann": "JS", "Bob": "AS", "Cat": "KS", "Dan": "QS"}, "cut_id": "form-table"},
        ["cards", "cut_id", "exposed"],
    ),
    (bridge_rubber, "announce", {"player": "Eve", "table": 1}, ["player", "table"]),
    (bridge_rubber, "change_table", {"player": "Ann", "table": "new"}, ["will_return"]),
    (
        call_ace_table,
        "deal_jack",
        {"table": 1, "cards": [["Abe", "9H"], ["Bea", "JC"]]},
        ["table", "cards"],
    ),
]


def test_every_refusal_of_a_missing_or_ill_typed_field_is_in_words():
    refused = 0
    for evening, kind, fields, spoiled in ACTIONS:
        walk = evening()
        for key in spoiled:
            sent = [{k: v for k, v in fields.items() if k != key}]
            sent += [{**fields, key: value} for value in BAD]
            for event in sent:
                try:
                    apply(walk.state, {"type": kind, **event})
                except FormationError as error:
                    refused += 1
                    assert not has_raw_keys(error.message), (kind, event, error.message)
                    assert error.field is None or not has_raw_keys(error.message)
    # Most of them are refused: a missing field, a number for a name, a name for a number.
    assert refused > 100


@pytest.mark.parametrize(
    ("evening", "event", "field", "law", "words"),
    [
        (
            euchre_rubber,
            {"type": "claim", "table": 1},
            "player",
            None,
            "a claim of admission needs the player's name",
        ),
        (
            euchre_rubber,
            {"type": "claim", "player": 7, "table": 1},
            "player",
            None,
            "the player's name is written as text",
        ),
        (
            euchre_rubber,
            {"type": "rubber_end"},
            "table",
            None,
            "the end of a rubber needs the table's number",
        ),
        (
            euchre_rubber,
            {"type": "claim", "player": "Eve", "table": "one"},
            "table",
            None,
            "the table's number is a whole number, such as 2",
        ),
        (
            euchre_cut,
            {"type": "cut"},
            "cards",
            None,
            "a cut needs each player's name with the card cut",
        ),
        (
            euchre_cut,
            {"type": "cut", "cards": FOUR_CARDS, "exposed": ["JH"]},
            "exposed",
            "ruling T12",
            "the cards exposed are given for each player who exposed",
        ),
        (
            euchre_rubber,
            {"type": "dealer_choice", "table": 1, "seat": "X"},
            "seat",
            "ruling T12",
            "the dealer's seat is north, east, south or west: N, E, S or W",
        ),
        (
            euchre_rubber,
            {"type": "depart", "player": "Ann"},
            "player",
            "law 19 / ruling T7",
            "record first the leaving of table 1, then the leaving of the room",
        ),
        (
            euchre_rubber,
            {"type": "change_table", "player": "Ann", "table": "new"},
            "table",
            "law 20 / ruling T8",
            "Ann leaves table 1 and cuts in as a candidate",
        ),
        (
            euchre_rubber,
            {"type": "break_up", "table": 1, "broken_by": 3},
            "broken_by",
            "law 21 / ruling T9",
            "the name of the player who broke up the table is written as text",
        ),
        (
            call_ace_table,
            {"type": "deal_jack", "table": 1},
            "cards",
            None,
            "the cards thrown, in the order thrown",
        ),
        (call_ace_table, {"type": "claim", "player": "Abe", "table": 1}, "player", None, None),
    ],
)
def test_a_refusal_names_the_field_in_words_and_keeps_its_law(evening, event, field, law, words):
    walk = evening()
    try:
        apply(walk.state, event)
    except FormationError as error:
        assert error.field == field
        if words is None:
            return
        assert words in error.message, error.message
        if law:
            assert error.law is not None and law in error.law
            assert error.message.startswith(f"{error.law}: ")
        else:
            assert error.law is None
        return
    if words is not None:
        pytest.fail(f"{event} was accepted")


def test_a_consent_that_is_not_a_name_is_refused_in_words():
    """A consent list holding something other than names was a TypeError (a 500)."""
    walk = euchre_rubber()
    error = walk.refused(
        "substitute", table=1, player="Ann", substitute="Eve", consent=[["Bob"], "Cat", "Dan"]
    )
    assert error.field == "consent"
    assert "each consent is the name of one of the other three players, " in error.message


def test_the_dealer_may_say_his_choice_in_as_many_characters_as_the_board_lets_him():
    """The service cleans the dealer's choice to an evening title's length (120), and the
    engine refused past 80, naming the key: "'cards' is a short text"."""
    assert CHOICE_MAX == TITLE_MAX
    walk = euchre_rubber()
    walk("dealer_choice", table=1, seat="N", cards="x" * TITLE_MAX)
    walk = euchre_rubber()
    error = walk.refused("dealer_choice", table=1, seat="N", counters="x" * (TITLE_MAX + 1))
    assert error.field == "counters"
    assert "the counters the dealer chose are said in a few words, 120 characters at most" in (
        error.message
    )
