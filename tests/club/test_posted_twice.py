"""A form of the secretary's board posted twice acts once: a double tap, Back then
resubmit, a retry after a dropped answer. "A fresh link" carries the table's link as the
board showed it, "Reopen" and "End the sitting" the evening's version: the second post
finds the first's change and is refused in words (409), nothing written. Where it was not,
a second fresh link killed the card just printed without anyone noticing, and a second
"End the sitting" ended the next sitting (ruling C5). The API's calls, which send neither,
act as before."""

import html

import pytest
from django.test import Client

from club import evenings, services
from club.models import EveningEvent, Table
from core.errors import Conflict
from scoring.models import Rubber
from tests.club.closing_helpers import close_abandoning
from tests.conftest import token_client
from tests.worlds import second_table

pytestmark = pytest.mark.django_db


def board_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page_of(response) -> str:
    return " ".join(html.unescape(response.content.decode()).split())


def logged(evening) -> list[tuple[int, str]]:
    return list(EveningEvent.objects.filter(evening=evening).values_list("seq", "type"))


# --- the services --------------------------------------------------------------------------


def test_a_fresh_link_asked_twice_for_the_same_link_is_given_once(played):
    table = Table.objects.get(pk=played.table.pk)
    seen = services.phone_link_version(table)
    services.table_renew_link(table_id=table.pk, seen=seen)
    after = Table.objects.get(pk=table.pk)
    with pytest.raises(Conflict) as refused:
        services.table_renew_link(table_id=table.pk, seen=seen)
    assert refused.value.code == "link_renewed" and refused.value.field == "link"
    assert "Table 1's link was renewed already at " in refused.value.message
    assert "print its card" in refused.value.message
    again = Table.objects.get(pk=table.pk)
    assert (again.token, again.replaced_token, again.link_issued_at) == (
        after.token,
        after.replaced_token,
        after.link_issued_at,
    )
    # With the link the page shows now, it is renewed; without one (the API), as before.
    services.table_renew_link(table_id=table.pk, seen=services.phone_link_version(again))
    services.table_renew_link(table_id=table.pk)
    assert Table.objects.get(pk=table.pk).replaced_token not in {None, after.token}


def test_a_sitting_ended_twice_from_the_same_board_ends_once(call_ace):
    seen = call_ace.version
    evenings.evening_close_sitting(evening_id=call_ace.pk, table_number=1, expected_version=seen)
    sittings, log = Rubber.objects.filter(evening=call_ace).count(), logged(call_ace)
    with pytest.raises(Conflict) as refused:
        evenings.evening_close_sitting(
            evening_id=call_ace.pk, table_number=1, expected_version=seen
        )
    assert refused.value.code == "stale"
    assert Rubber.objects.filter(evening=call_ace).count() == sittings == 1
    assert logged(call_ace) == log


def test_a_sitting_ended_twice_refused_while_the_next_sitting_is_in_play(call_ace):
    """The next sitting begun meanwhile (a deal recorded after the first post): the second
    post would have ended it, a sitting of one deal, settled."""
    seen = call_ace.version
    evenings.evening_close_sitting(evening_id=call_ace.pk, table_number=1, expected_version=seen)
    order = evenings.evening_summary(evening=call_ace)["tables"][0]["playing"]
    from club import recording

    recording.hand_record(
        evening_id=call_ace.pk, table_number=1, data={"maker": order[1], "tricks": 3}
    )
    log = logged(call_ace)
    with pytest.raises(Conflict):
        evenings.evening_close_sitting(
            evening_id=call_ace.pk, table_number=1, expected_version=seen
        )
    assert Rubber.objects.filter(evening=call_ace, status=Rubber.Status.IN_PROGRESS).count() == 1
    assert logged(call_ace) == log


def test_a_reopen_posted_again_after_the_evening_closed_again_is_refused(played):
    close_abandoning(played.evening.pk)
    played.evening.refresh_from_db()
    seen = played.evening.version
    evenings.evening_reopen(
        evening_id=played.evening.pk, reason="a hand missed", expected_version=seen
    )
    close_abandoning(played.evening.pk)  # closed again, meanwhile
    log = logged(played.evening)
    with pytest.raises(Conflict) as refused:
        evenings.evening_reopen(
            evening_id=played.evening.pk, reason="a hand missed", expected_version=seen
        )
    assert refused.value.code == "stale"
    played.evening.refresh_from_db()
    assert played.evening.status == "closed"
    assert logged(played.evening) == log


# --- the board -------------------------------------------------------------------------------


def test_the_boards_fresh_link_posted_twice_renews_once_and_says_so(played):
    second = second_table(played.evening)
    board = board_client(played.secretary)
    page = page_of(board.get(f"/secretary/evenings/{played.evening.pk}/"))
    seen = services.phone_link_version(Table.objects.get(pk=played.table.pk))
    assert f'name="link" value="{seen}"' in page
    form = {"type": "new_link", "table": "1", "link": seen}
    url = f"/secretary/evenings/{played.evening.pk}/action/"
    first = board.post(url, form)
    assert "Table 1 has a fresh link" in page_of(first)
    renewed = Table.objects.get(pk=played.table.pk)
    other = Table.objects.get(pk=second.pk).token
    again = board.post(url, form)
    words = page_of(again)
    assert "Not done." in words and "Table 1's link was renewed already at " in words
    assert "Table 1 has a fresh link" not in words
    assert Table.objects.get(pk=played.table.pk).token == renewed.token
    assert f"/t/{renewed.token}/" in words  # the board as it is now
    assert Table.objects.get(pk=second.pk).token == other


def test_the_boards_reopen_and_end_of_sitting_carry_the_version(call_ace, secretary):
    board = board_client(secretary)
    url = f"/secretary/evenings/{call_ace.pk}/action/"
    page = page_of(board.get(f"/secretary/evenings/{call_ace.pk}/"))
    ending = {"type": "close_sitting", "table": "1", "version": str(call_ace.version)}
    assert (
        'name="type" value="close_sitting"><input type="hidden" name="table" value="1">'
        + (f'<input type="hidden" name="version" value="{call_ace.version}">')
        in page
    )
    assert "ends and is settled" in page_of(board.post(url, ending))
    log = logged(call_ace)
    words = page_of(board.post(url, ending))
    assert "Not done." in words and "The board was out of date" in words
    assert "The sitting at table 1 ends and is settled" in words  # what happened meanwhile
    # His own first post, not another's: said to be his, from this board or another device.
    assert "you changed the evening yourself, from this board or another device" in words
    assert "another device changed" not in words
    assert Rubber.objects.filter(evening=call_ace).count() == 1 and logged(call_ace) == log

    close_abandoning(call_ace.pk)
    call_ace.refresh_from_db()
    page = page_of(board.get(f"/secretary/evenings/{call_ace.pk}/"))
    assert f'value="reopen"><input type="hidden" name="version" value="{call_ace.version}">' in page
    reopening = {"type": "reopen", "reason": "a deal missed", "version": str(call_ace.version)}
    board.post(url, reopening)
    close_abandoning(call_ace.pk)
    log = logged(call_ace)
    words = page_of(board.post(url, reopening))
    assert "Not done." in words and "The board was out of date" in words
    call_ace.refresh_from_db()
    assert call_ace.status == "closed" and logged(call_ace) == log


def test_the_apis_fresh_link_and_reopen_send_no_version_and_act(played):
    api = token_client(played.secretary)
    base = f"/api/v1/clubs/{played.club.slug}/evenings/{played.evening.pk}"
    old = played.table.token
    assert api.post(f"{base}/tables/1/new-link/").status_code == 200
    assert Table.objects.get(pk=played.table.pk).replaced_token == old
    close_abandoning(played.evening.pk)
    assert api.post(f"{base}/reopen/", {"reason": "a hand missed"}).status_code == 200


def test_a_fresh_link_changes_the_boards_poll_where_no_version_moves(played):
    """A fresh link moves no version of the evening, yet a second board polling it with the
    ETag it had gets the board again, with the new link (club.views_board._etag); with the
    ETag of the board as it now is, 304."""
    board = board_client(played.secretary)
    url = f"/secretary/evenings/{played.evening.pk}/board/"
    before = board.get(url, HTTP_HX_REQUEST="true")["ETag"]
    assert board.get(url, HTTP_IF_NONE_MATCH=before).status_code == 304
    played.evening.refresh_from_db()
    version = played.evening.version
    services.table_renew_link(table_id=played.table.pk)
    played.evening.refresh_from_db()
    assert played.evening.version == version  # no version moved
    again = board.get(url, HTTP_IF_NONE_MATCH=before)
    assert again.status_code == 200 and again["ETag"] != before
    assert f"/t/{Table.objects.get(pk=played.table.pk).token}/" in page_of(again)
    # The board an action answered (its tables read, not the evening's query) agrees.
    assert f'data-etag="{html.escape(again["ETag"])}"' in again.content.decode()
    assert board.get(url, HTTP_IF_NONE_MATCH=again["ETag"]).status_code == 304
