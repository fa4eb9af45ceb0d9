"""The phone page of each game (issue #14 item 7): seats and the dealer passing to the
left, the correction form filled with the hand as recorded, refusals in words with their
law said once."""

import pytest
from django.template.loader import render_to_string
from django.test import Client

from club import evenings, recording
from tests.worlds import bridge_and_call_ace_in_play, club_in_play


@pytest.fixture
def world(db, django_capture_on_commit_callbacks):
    played = club_in_play(django_capture_on_commit_callbacks)
    return played, bridge_and_call_ace_in_play(played.club)


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
    assert "deals hand 2; the deal passes to the left (the deal)." in html
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
    evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": "Edith"})
    evenings.evening_act(
        evening_id=evening.pk,
        event={"type": "substitute", "table": 1, "player": "Ann", "substitute": "Edith",
               "consent": ["Bob", "Cora", "Dan"]},
    )  # fmt: skip
    html = page(played.table)
    north = html[html.index(">North<") : html.index(">East<")]
    assert "Edith" in north and "substitute for Ann" in north
    assert "N-S Edith (for Ann) &amp; Bob" in html  # the makers' choice names who sits


def test_a_hand_already_recorded_is_a_conflict_as_at_a_progressives_table(world):
    played, _ = world
    answer = Client().post(
        f"/t/{played.table.token}/hand/", {"makers": "EW", "tricks": "4", "expected_number": "1"}
    )
    assert answer.status_code == 409
    assert "Hand 1 is already recorded" in answer.content.decode()


def test_a_hand_the_laws_refuse_is_answered_400_as_at_a_progressives_table(world):
    played, _ = world
    answer = Client().post(f"/t/{played.table.token}/hand/", {"makers": "NS", "tricks": "6"})
    assert answer.status_code == 400
    assert "Not recorded." in answer.content.decode()
