"""The phone page of each game (issue #14 item 7): seats and the dealer passing to the
left, the correction form filled with the hand as recorded, refusals in words with their
law said once."""

import html
import re

import pytest
from django.template.loader import render_to_string
from django.test import Client

from club import recording
from scoring.models import Hand
from tests.conftest import rows_for_the_module
from tests.worlds import bridge_and_call_ace_in_play, club_in_play, edith_sits_in, reloaded


def _build_world(capture_on_commit):
    played = club_in_play(capture_on_commit)
    return played, bridge_and_call_ace_in_play(played.club)


# Made once for the module's tests, each test's changes rolled back to its savepoint.
_world = rows_for_the_module(_build_world)


@pytest.fixture
def world(db, _world):
    """Table 1 of a Euchre evening (tests.worlds.club_in_play), and a Bridge and a
    Call-Ace table of the club's (bridge_and_call_ace_in_play), read afresh."""
    played, more = _world
    return reloaded(played), reloaded(more)


def page(table) -> str:
    return Client().get(f"/t/{table.token}/").content.decode()


def test_call_ace_the_deal_passes_round_the_table_and_a_correction_keeps_every_field(world):
    _, more = world
    order = more.call_ace_order
    html = page(more.call_ace)
    # The first jack's receiver dealt deal 1; the next on his left deals deal 2 (law 3).
    assert f"{order[1]} deals deal 2; the deal passes to the left (law 3)." in html
    recording.hand_correct(
        evening_id=more.call_ace.evening_id, table_number=1, rubber_number=1, number=1,
        data={"maker": order[0], "partner": order[2], "tricks": 1, "revoke": "makers",
              "no_score": [order[3]], "wrong_cards": [order[4]]},
    )  # fmt: skip
    html = page(more.call_ace)
    correction = html[html.index('data-kind="correct"') :]
    assert f"<option selected>{order[2]}</option>" in correction.split('name="partner"')[1]
    assert '<option value="makers" selected>' in correction
    assert f'name="no_score" value="{order[3]}" checked' in correction
    assert f'name="wrong_cards" value="{order[4]}" checked' in correction
    assert "call-ace-foster-1905" not in html and "in_progress" not in html


def test_both_sides_revoking_keeps_the_deal_with_the_same_dealer(world):
    _, more = world
    order = more.call_ace_order
    recording.hand_record(
        evening_id=more.call_ace.evening_id, table_number=1,
        data={"maker": order[1], "revoke": "both"},
    )  # fmt: skip
    assert f"{order[1]} deals deal 3" in page(more.call_ace)  # law 42: deals again


def test_bridge_seats_and_dealer(world):
    _, more = world
    html = page(more.bridge)
    for seat in ("North", "East", "South", "West"):
        assert seat in html
    # Elwell's laws, The Deal: "the order of dealing goes to the left".
    assert "deals hand 2; the deal passes to the left (Bridge laws, The Deal)." in html
    assert "bridge-elwell-1907" not in html


def test_the_phone_page_has_no_login_nor_api_links(world):
    played, _ = world
    html = page(played.table)
    assert "/accounts/login/" not in html and ">API<" not in html and "Log in" not in html


def test_a_law_is_said_once():
    error = {"message": "ruling T2: Ann is not a candidate", "law": "ruling T2", "field": "player"}
    html = render_to_string("club/_table_messages.html", {"error": error})
    assert html.lower().count("ruling t2") == 1  # said once, as a sentence begins
    error = {"message": "the makers took six tricks", "law": "law 2", "field": "hand.tricks"}
    html = render_to_string("club/_table_messages.html", {"error": error})
    assert "(law 2)" in html


def test_a_substitute_keeps_the_seat_of_the_absent_player(world):
    played, _ = world
    evening = played.evening
    edith_sits_in(evening, "Ann")
    html = page(played.table)
    north = html[html.index(">North<") : html.index(">East<")]
    assert "Edith" in north and "substitute for Ann" in north
    assert "N-S Edith (for Ann) &amp; Bob" in html  # the makers' choice names who sits


def refusal_shown(answer) -> str:
    """The phone's refusal as a person reads it: its words, without the markup that keeps
    the field's path for scripts (data-field)."""
    page = answer.content.decode()
    alert = page[page.index('data-testid="phone-error"') :].split(">", 1)[1].split("</div>")[0]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", alert)).split())


# A refusal of each kind of field at an evening's phone: (the table, what was sent, its
# field for scripts, the refusal in words: the field as the form names it, then why).
REFUSED = [
    ("euchre", {"makers": "NS", "tricks": "6"}, "hand.tricks",
     "Not recorded. The tricks taken by the makers: 6 is out of range: must be from 0 to 5 "
     "(law 2)"),
    ("euchre", {"tricks": "3"}, "hand.makers",
     "Not recorded. The makers: say which side made the trump (law 2)"),
    ("euchre", {"makers": "NS", "tricks": "3", "law102": "on"}, "hand.law102",
     "Not recorded. The lone player's partner exposed a card: law 102 applies only when a "
     "lone hand is played"),
    ("euchre", {"makers": "NS", "tricks": "3", "revokes_EW": "x"}, "hand.revokes",
     "Not recorded. The revokes: give a whole number, nothing below nought, in the digits 0 "
     "to 9, at most 9 of them."),
    ("euchre", {"makers": "NS", "tricks": "3", "correct": "x"}, "correct",
     "Not recorded. The hand to correct: give a whole number, nothing below nought, in the "
     "digits 0 to 9, at most 9 of them."),
    ("bridge", {"declarer": "EW", "trump": "H", "tricks_ns": "7", "honours_side": "NS",
                "honours_held": "3", "honours_in_one_hand": "1"}, "hand.honours.in_one_hand",
     "Not recorded. The most honours in one hand: 1 is out of range: must be from 2 to 3 "
     "(ruling B3)"),
    # No trump chosen (ruling B1): the dropdown's words, the API's codes beside them, and
    # the field named once ("The trump: must be ...", never "The trump: trump is ...").
    ("bridge", {"declarer": "EW", "trump": "", "tricks_ns": "7"}, "hand.trump",
     'Not recorded. The trump: must be spades ("S"), clubs ("C"), diamonds ("D"), hearts '
     '("H") or no trumps ("NT") (ruling B1)'),
    # A side not one of the form's (a post not made by the page): said as the form names
    # the sides, with the API's keys beside them (one sentence at every door).
    ("euchre", {"makers": "XX", "tricks": "3"}, "hand.makers",
     'Not recorded. The makers: must be North-South ("NS") or East-West ("EW")'),
    ("call_ace", {"maker": "FIRST", "partner": "FIRST", "tricks": "3"}, "hand.partner",
     "Not recorded. The partner called: the maker cannot also be the partner: holding the "
     "best card called, the maker has none (law 22)"),
]  # fmt: skip


@pytest.mark.parametrize(("game", "form", "field", "shown"), REFUSED)
def test_every_refusal_at_the_phone_names_its_field_in_words(world, game, form, field, shown):
    played, more = world
    table = {"euchre": played.table, "bridge": more.bridge, "call_ace": more.call_ace}[game]
    form = {k: more.call_ace_order[0] if v == "FIRST" else v for k, v in form.items()}
    answer = Client().post(f"/t/{table.token}/hand/", form, HTTP_HX_REQUEST="true")
    assert answer.status_code == 400  # as the API's, and a progressive's table's phone's
    assert refusal_shown(answer) == shown
    assert f'data-field="{field}"' in answer.content.decode()  # for scripts only


@pytest.mark.parametrize(
    ("form", "field", "shown"),
    [
        ({"makers": ["NS", "EW"], "tricks": "3", "expected_number": "2"}, "makers",
         "Not recorded. The makers came 2 times in one form, which sends it once: nothing "
         "was recorded. Send the hand again from the page."),
        ({"makers": "NS", "tricks": ["3", "5"], "expected_number": "2"}, "tricks",
         "Not recorded. The tricks taken came 2 times in one form, which sends it once: "
         "nothing was recorded. Send the hand again from the page."),
        ({"makers": "NS", "tricks": "3", "expected_number": ["2", "3"]}, "expected_number",
         "Not recorded. The number of the hand came 2 times in one form, which sends it "
         "once: nothing was recorded. Send the hand again from the page."),
    ],
)  # fmt: skip
def test_a_field_sent_twice_is_refused_naming_it(world, form, field, shown):
    """The page's form sends each field once; a post sending one twice is refused, naming
    the field, never taken as its last value (a hand no one chose)."""
    played, _ = world
    answer = Client().post(f"/t/{played.table.token}/hand/", form, HTTP_HX_REQUEST="true")
    assert answer.status_code == 400
    assert refusal_shown(answer) == shown
    assert f'data-field="{field}"' in answer.content.decode()
    assert Hand.objects.filter(rubber=played.rubber).count() == 1


def test_a_refused_correction_names_the_hand_and_its_field_in_words(world):
    """The laws check a correction by replaying the rubber: the field they refuse is the
    rubber's hand's (`hands[0].tricks`), said as the hand and the form's field."""
    played, _ = world
    correction = {"makers": "EW", "tricks": "6", "correct": "1", "rubber": played.rubber.pk}
    answer = Client().post(f"/t/{played.table.token}/hand/", correction)
    assert answer.status_code == 400
    assert refusal_shown(answer) == (
        "Not recorded. In hand 1, the tricks taken by the makers: 6 is out of range: must be "
        "from 0 to 5 (law 2)"
    )
    assert 'data-field="hands[0].tricks"' in answer.content.decode()
    correcting = answer.content.decode().split('data-kind="correct"', 1)[1]
    assert 'value="EW" checked' in correcting and 'value="6"' in correcting  # as typed


def test_a_hand_already_recorded_is_a_conflict_as_at_a_progressives_table(world):
    played, _ = world
    answer = Client().post(
        f"/t/{played.table.token}/hand/", {"makers": "EW", "tricks": "4", "expected_number": "1"}
    )
    assert answer.status_code == 409
    assert refusal_shown(answer).startswith("Not recorded. Hand 1 is already recorded")


# --- a phone without JavaScript ------------------------------------------------------------
# Its form posts the ordinary way, without the queue's HX-Request: the answer must be the
# whole page (an unstyled scrap of the live part was shown before), as at a progressive's.

STYLESHEET = '<link rel="stylesheet" href="/static/css/site.css">'


def whole_page(answer) -> str:
    page = answer.content.decode()
    assert page.lstrip().startswith("<!doctype html>") and "<html" in page
    assert STYLESHEET in page
    assert page.count('id="table-live"') == 1  # the live part, once, inside the page
    return page


def test_a_hand_posted_without_javascript_is_answered_with_the_whole_page(world):
    played, _ = world
    form = {"makers": "NS", "tricks": "5", "expected_number": "2", "rubber": played.rubber.pk}
    answer = Client().post(f"/t/{played.table.token}/hand/", form)
    assert answer.status_code == 200
    page = whole_page(answer)
    assert "Hand 2 recorded." in page
    assert "Hand <span data-next-label>3</span>" in page  # the form for the next hand
    assert played.rubber.hands.count() == 2
    # The phone's queue still gets the live part alone, to swap in.
    form = {"makers": "EW", "tricks": "3", "expected_number": "3", "rubber": played.rubber.pk}
    live = Client().post(f"/t/{played.table.token}/hand/", form, HTTP_HX_REQUEST="true")
    assert live.status_code == 200
    assert "<html" not in live.content.decode() and STYLESHEET not in live.content.decode()
    assert 'id="table-live"' in live.content.decode()


def test_a_hand_refused_without_javascript_is_the_whole_page_with_the_form_as_typed(world):
    played, _ = world
    form = {"makers": "EW", "tricks": "6", "alone": "on", "expected_number": "2",
            "rubber": played.rubber.pk}  # fmt: skip
    answer = Client().post(f"/t/{played.table.token}/hand/", form)
    assert answer.status_code == 400
    page = whole_page(answer)
    assert refusal_shown(answer) == (
        "Not recorded. The tricks taken by the makers: 6 is out of range: must be from 0 to 5 "
        "(law 2)"
    )
    entry = page[page.index('data-kind="record"') : page.index("</form>")]
    assert 'value="EW" checked' in entry and 'name="alone" checked' in entry
    assert 'name="tricks" min="0" max="5" required inputmode="numeric" value="6"' in entry
    assert played.rubber.hands.count() == 1


def test_a_confirmation_answered_without_javascript_is_the_whole_page(world):
    played, _ = world
    played.club.confirm_hands = True
    played.club.save(update_fields=["confirm_hands"])
    form = {"makers": "NS", "tricks": "3", "expected_number": "2", "rubber": played.rubber.pk}
    Client().post(f"/t/{played.table.token}/hand/", form, HTTP_HX_REQUEST="true")
    answer = Client().post(
        f"/t/{played.table.token}/answer/",
        {"rubber": played.rubber.pk, "number": "2", "answer": "confirm", "by": "EW"},
    )
    assert answer.status_code == 200
    assert "Hand 2 confirmed by " in whole_page(answer)
    refused = Client().post(
        f"/t/{played.table.token}/answer/", {"rubber": played.rubber.pk, "answer": "confirm"}
    )
    assert refused.status_code == 400
    assert "Choose the hand to answer for." in whole_page(refused)
