"""One validation layer for a hand (issue 12, section 6): a hand typed into the table's
phone is turned into the API's shape by its rule set's input object and validated by the
same laws, so the same mistake is refused with the same field and reason at both doors."""

from html import escape

import pytest
from django.http import QueryDict
from django.test import Client
from django.utils.text import capfirst
from rest_framework.test import APIClient

from scoring.hand_input import HAND_INPUTS, hand_input
from scoring.models import Rubber
from scoring.rules import RULESETS, ScoringError
from tests.worlds import bridge_and_call_ace_in_play, club_in_play


def test_every_rule_set_has_a_hand_input_and_its_shape_is_the_apis(client):
    assert set(HAND_INPUTS) == set(RULESETS)
    schema = APIClient().get("/api/schema/?format=json").json()
    documented = {ref["$ref"].rsplit("/", 1)[1] for ref in
                  schema["components"]["schemas"]["HandInputRequest"]["oneOf"]}  # fmt: skip
    assert documented == {f"{form.serializer.__name__}Request" for form in HAND_INPUTS.values()}
    with pytest.raises(ScoringError) as refused:
        hand_input("whist-1900")
    assert refused.value.field == "ruleset"


def test_the_forms_give_the_apis_shape():
    bridge = hand_input("bridge-elwell-1907").from_form(
        {"declarer": "NS", "trump": "H", "doubles": "1", "tricks_ns": "10",
         "honours_side": "NS", "honours_held": "3", "honours_in_one_hand": "2",
         "chicane_NS": "0", "chicane_EW": "1", "revokes_NS": "", "revokes_EW": "0"}
    )  # fmt: skip
    assert bridge == {
        "declarer": "NS", "trump": "H", "doubles": 1, "tricks": {"NS": 10, "EW": 3},
        "honours": {"side": "NS", "held": 3, "in_one_hand": 2},
        "chicane": {"NS": 0, "EW": 1}, "revokes": {"NS": 0, "EW": 0},
    }  # fmt: skip
    euchre = hand_input("euchre-somerset-1888").from_form(
        {"makers": "EW", "alone": "on", "tricks": "5", "revokes_NS": "2", "law90": ""}
    )
    assert euchre == {
        "makers": "EW", "alone": True, "tricks": 5, "revokes": ["NS", "NS"], "law90": None,
        "law102": False, "law50": False,
    }  # fmt: skip
    # A typed count never becomes a list of a billion revokes: one past the law's most.
    many = hand_input("euchre-somerset-1888").from_form({"revokes_EW": "999999999"})
    assert len(many["revokes"]) == 16


# The same mistake at each door: (rule set, the API's hand, the phone's form fields).
MISTAKES = [
    ("euchre", {"makers": "NS", "tricks": 6}, {"makers": "NS", "tricks": "6"}),
    ("euchre", {"makers": "NS", "tricks": 3, "law102": True},
     {"makers": "NS", "tricks": "3", "law102": "on"}),
    ("euchre", {"makers": "N", "tricks": 3}, {"makers": "N", "tricks": "3"}),
    ("bridge", {"declarer": "EW", "trump": "H", "tricks": {"NS": 14, "EW": -1}},
     {"declarer": "EW", "trump": "H", "tricks_ns": "14"}),
    ("bridge", {"declarer": "EW", "trump": "NT", "doubles": 41, "tricks": {"NS": 7, "EW": 6}},
     {"declarer": "EW", "trump": "NT", "doubles": "41", "tricks_ns": "7"}),
    ("call_ace", {"maker": "Nobody", "tricks": 3}, {"maker": "Nobody", "tricks": "3"}),
    ("call_ace", {"maker": "FIRST", "tricks": -1}, {"maker": "FIRST", "tricks": "-1"}),
    # A trick count in an Arabic-Indic three: the laws' words at both doors.
    ("euchre", {"makers": "NS", "tricks": "\u0663"}, {"makers": "NS", "tricks": "\u0663"}),
    ("bridge", {"declarer": "EW", "trump": "H", "tricks": {"NS": "\u0663", "EW": 10}},
     {"declarer": "EW", "trump": "H", "tricks_ns": "\u0663"}),
    ("call_ace", {"maker": "FIRST", "tricks": "\u0663"}, {"maker": "FIRST", "tricks": "\u0663"}),
]  # fmt: skip


@pytest.mark.parametrize(("game", "api_hand", "form"), MISTAKES)
def test_the_same_mistake_gets_the_same_refusal_at_both_doors(
    db, django_capture_on_commit_callbacks, game, api_hand, form
):
    world = club_in_play(django_capture_on_commit_callbacks)
    more = bridge_and_call_ace_in_play(world.club)
    table = {"euchre": world.table, "bridge": more.bridge, "call_ace": more.call_ace}[game]
    first = more.call_ace_order[0]
    api_hand = {k: first if v == "FIRST" else v for k, v in api_hand.items()}
    form = {k: first if v == "FIRST" else v for k, v in form.items()}
    rubber = Rubber.objects.get(table=table)

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Table {table.token}")
    url = f"/api/v1/clubs/{world.club.slug}/evenings/{table.evening_id}/tables/1/hands/"
    answer = api.post(url, {"hand": api_hand}, format="json")
    assert answer.status_code == 400
    error = answer.json()["error"]

    answer = Client().post(f"/t/{table.token}/hand/", form)
    assert answer.status_code == 400  # as the API's
    page = answer.content.decode()
    assert "Not recorded." in page
    # The same words, after the field as the form names it ("The tricks taken by the
    # makers: ..."): for the page's script, the field's path (issue #14), never shown.
    words, _ = hand_input(rubber.ruleset).field_words(error["field"])
    assert escape(f"{capfirst(words)}: {error['message']}") in page
    assert f'data-field="{error["field"]}"' in page
    assert f"[{error['field']}]" not in page and f"> {error['field']}" not in page
    assert Rubber.objects.get(pk=rubber.pk).hand_count == 1


def test_a_trick_count_in_other_digits_is_refused_saying_so():
    """To the one who typed it "٣" is three: the laws say why they refuse it, at every
    door (the phone hands them what it cannot read as a number)."""
    form = hand_input("euchre-somerset-1888").from_form({"makers": "NS", "tricks": "\u0663"})
    assert form["tricks"] == "\u0663"
    with pytest.raises(ScoringError) as refused:
        RULESETS["euchre-somerset-1888"].validate_hand(
            RULESETS["euchre-somerset-1888"].start({}), form
        )
    assert refused.value.message == (
        "must be a whole number from 0 to 5, written in the digits 0 to 9"
    )
    assert (refused.value.field, refused.value.law) == ("hand.tricks", "law 2")


def test_a_typed_count_of_a_billion_revokes_is_refused_by_law_62(
    db, django_capture_on_commit_callbacks
):
    # The phone's view once built the API's list of revokes from the typed count as it
    # was: a billion entries, held in memory, before the law could refuse it.
    world = club_in_play(django_capture_on_commit_callbacks)
    post = {"makers": "NS", "tricks": "3", "revokes_NS": "999999999"}
    page = Client().post(f"/t/{world.table.token}/hand/", post).content.decode()
    assert "Not recorded." in page and "law 62" in page and 'data-field="hand.revokes"' in page
    assert Rubber.objects.get(table=world.table).hand_count == 1


@pytest.mark.parametrize(
    ("ruleset", "hand"),
    [
        (
            "euchre-somerset-1888",
            {
                "makers": "EW",
                "alone": True,
                "tricks": 4,
                "revokes": ["NS", "EW", "EW"],
                "law90": "NS",
                "law102": True,
                "law50": False,
            },
        ),
        (
            "bridge-elwell-1907",
            {
                "declarer": "NS",
                "trump": "H",
                "doubles": 1,
                "tricks": {"NS": 9, "EW": 4},
                "honours": {"side": "EW", "held": 4, "in_one_hand": 4},
                "chicane": {"NS": 1, "EW": 0},
                "revokes": {"NS": 0, "EW": 2},
            },
        ),
        (
            "call-ace-foster-1905",
            {
                "maker": "Ann",
                "partner": "Cora",
                "alone": False,
                "tricks": 2,
                "revoke": "makers",
                "void": False,
                "no_score": ["Bob"],
                "wrong_cards": ["Dan"],
            },
        ),
    ],
)
def test_a_recorded_hand_fills_the_form_that_gives_it_back(ruleset, hand):
    """The correction form is the entry form filled by `to_form`: sent back unchanged,
    it is the same hand, its revokes and irregularities included (issue #14 item 1)."""
    fields = hand_input(ruleset).to_form(hand)
    posted = QueryDict(mutable=True)
    for name, value in fields.items():
        if isinstance(value, list):
            posted.setlist(name, value)
        elif value is True:
            posted[name] = "on"
        elif value not in (False, ""):
            posted[name] = value
    assert hand_input(ruleset).from_form(posted) == hand


@pytest.mark.parametrize(
    "digit", ["\u0663", "\u00b3", "\uff13"]
)  # Arabic-Indic, superscript, full-width
def test_the_api_takes_a_number_in_ascii_digits_only(db, django_capture_on_commit_callbacks, digit):
    """int() reads other scripts' digits ("٣" is 3): the API's whole numbers are ASCII
    digits, as the forms' are (core.inputs.WholeNumberField, `whole_number`), refused
    naming the field, and nothing recorded."""
    world = club_in_play(django_capture_on_commit_callbacks)
    rubber = Rubber.objects.get(table=world.table)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Table {world.table.token}")
    url = f"/api/v1/clubs/{world.club.slug}/evenings/{world.table.evening_id}/tables/1/hands/"
    body = {"hand": {"makers": "NS", "tricks": 3}, "expected_number": digit}
    answer = api.post(url, body, format="json")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["field"] == "expected_number"
    assert "in the digits 0 to 9" in error["message"]
    assert Rubber.objects.get(pk=rubber.pk).hand_count == 1
    # In ASCII digits the same number is taken.
    body["expected_number"] = "2"
    assert api.post(url, body, format="json").status_code == 201
