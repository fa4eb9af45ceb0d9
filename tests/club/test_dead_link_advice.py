"""A dead table link's page says what the players can do now, by why the link died: a new
card only where there can be one (a replaced or expired link); a closed evening points to
its results (on the club's public page, linked, if the public sees the club); a table
broken up sends its players to the secretary to be seated elsewhere."""

import pytest
from django.test import Client
from django.utils.html import escape

from club import evenings, services
from club.models import Club
from tests.club.closing_helpers import close_abandoning
from tests.worlds import club_in_play, second_table

NEW_CARD = "Ask the club's secretary for the table's new card."


@pytest.fixture
def played(db, django_capture_on_commit_callbacks):
    return club_in_play(django_capture_on_commit_callbacks)


def dead_page(token: str) -> str:
    response = Client().get(f"/t/{token}/")
    assert response.status_code == 403  # the refusal's status, as before (tests/test_permissions)
    return response.content.decode()


def test_a_closed_public_evenings_link_points_to_its_results(played):
    Club.objects.filter(pk=played.club.pk).update(is_public=True)
    close_abandoning(played.evening.pk)
    page = dead_page(played.table.token)
    assert escape("The evening is over: its results are on the club's page.") in page
    results = f"/clubs/{played.club.slug}/evenings/{played.evening.pk}/"
    assert f'href="{results}"' in page
    assert Client().get(results).status_code == 200  # the link opens the results
    assert escape(NEW_CARD) not in page


def test_a_closed_private_evenings_link_sends_to_the_secretary_for_results(played):
    close_abandoning(played.evening.pk)
    page = dead_page(played.table.token)
    assert escape("The evening is over: ask the club's secretary for its results.") in page
    assert f"/evenings/{played.evening.pk}/" not in page  # the public cannot read it
    assert escape(NEW_CARD) not in page


def test_a_broken_up_tables_link_asks_where_to_sit(played):
    table = second_table(played.evening)
    evenings.evening_act(evening_id=played.evening.pk, event={"type": "break_up", "table": 2})
    page = dead_page(table.token)
    assert escape("The table broke up: ask the club's secretary where to sit.") in page
    assert escape(NEW_CARD) not in page


def test_a_replaced_link_still_asks_for_the_new_card(played):
    old = played.table.token
    services.table_renew_link(table_id=played.table.pk)
    assert escape(NEW_CARD) in dead_page(old)
