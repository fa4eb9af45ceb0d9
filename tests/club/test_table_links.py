"""A table's phone link: a bearer secret left on a card table. It lives while its evening is
open, its table stands and the club's hours allow; it reads and writes only its own table's
rubbers and hands on its own evening; the board issues a fresh one and the old one dies."""

import datetime
import zoneinfo

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.html import escape
from rest_framework.test import APIClient

from club import evenings, services
from club.models import Table
from club.selectors import DEAD_LINK, table_link_expires_at, table_link_refusal
from tests.club.closing_helpers import close_abandoning
from tests.conftest import token_client
from tests.factories import TableFactory
from tests.worlds import club_in_play, second_table


@pytest.fixture
def played(db, django_capture_on_commit_callbacks):
    return club_in_play(django_capture_on_commit_callbacks)


def phone(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {token}")
    return client


def test_a_closed_evenings_link_reads_nothing_of_the_private_club(played):
    token, slug = played.table.token, played.club.slug
    close_abandoning(played.evening.pk)
    for path in [
        f"/api/v1/clubs/{slug}/members/",
        f"/api/v1/clubs/{slug}/evenings/",
        f"/api/v1/clubs/{slug}/evenings/{played.evening.pk}/",
        f"/api/v1/clubs/{slug}/players/{played.members['Ann'].pk}/",
        f"/api/v1/clubs/{slug}/rubbers/{played.rubber.pk}/",
    ]:
        response = phone(token).get(path)
        assert response.status_code == 401, path
        error = response.json()["error"]
        assert error["code"] == "evening_closed"
        assert "closed" in error["message"] and "secretary" in error["message"]
        assert "Ann" not in response.content.decode()


def test_a_live_link_reads_no_roster_evenings_players_nor_exports_of_a_private_club(played):
    slug, evening = played.club.slug, played.evening.pk
    for path in [
        f"/api/v1/clubs/{slug}/members/",
        f"/api/v1/clubs/{slug}/evenings/",
        f"/api/v1/clubs/{slug}/players/{played.members['Ann'].pk}/",
        f"/api/v1/clubs/{slug}/tournaments/",
        f"/api/v1/clubs/{slug}/evenings/{evening}/hands.csv",
        f"/api/v1/clubs/{slug}/evenings/{evening}/ledger.csv",
    ]:
        assert phone(played.table.token).get(path).status_code == 404, path


def test_another_evenings_table_link_does_not_open_this_evening(played):
    other = TableFactory(evening__club=played.club)
    slug = played.club.slug
    path = f"/api/v1/clubs/{slug}/evenings/{played.evening.pk}/"
    assert phone(other.token).get(path).status_code == 404
    assert (
        phone(other.token).get(f"/api/v1/clubs/{slug}/rubbers/{played.rubber.pk}/").status_code
        == 404
    )


def test_the_hands_csv_refuses_another_tables_link(played):
    table_2 = second_table(played.evening)
    url = f"/api/v1/clubs/{played.club.slug}/evenings/{played.evening.pk}/hands.csv"
    response = phone(table_2.token).get(url)
    assert response.status_code == 404
    assert "NS" not in response.content.decode()  # table 1's hand is not in the answer


def test_a_links_evening_shows_only_its_own_table(played):
    """The evening's summary, to a private club's table link: its own table and rubbers,
    not the other tables' players nor the ledger."""
    table_2 = second_table(played.evening)
    url = f"/api/v1/clubs/{played.club.slug}/evenings/{played.evening.pk}/"
    summary = phone(table_2.token).get(url).json()
    assert [t["number"] for t in summary["tables"]] == [2]
    assert summary["rubbers"] == []
    assert "ledger" not in summary and "present" not in summary
    assert "Ann" not in str(summary)
    whole = token_client(played.secretary).get(url).json()
    assert [t["number"] for t in whole["tables"]] == [1, 2] and "ledger" in whole


def test_a_fresh_link_from_the_api_kills_the_old_one(played):
    old = played.table.token
    url = f"/api/v1/clubs/{played.club.slug}/evenings/{played.evening.pk}/tables/1/new-link/"
    assert phone(old).post(url).status_code == 404  # the link is not the secretary
    response = token_client(played.secretary).post(url)
    assert response.status_code == 200
    new = Table.objects.get(pk=played.table.pk).token
    assert new != old and response.json() == {
        "number": 1,
        "link": f"http://testserver/t/{new}/",
        "link_version": services.phone_link_version(Table.objects.get(pk=played.table.pk)),
    }
    evening = f"/api/v1/clubs/{played.club.slug}/evenings/{played.evening.pk}/"
    refused = phone(old).get(evening)
    assert refused.status_code == 401
    assert refused.json()["error"]["code"] == "link_replaced"
    assert phone(new).get(evening).status_code == 200
    page = Client().get(f"/t/{old}/")
    assert page.status_code == 403
    assert escape(DEAD_LINK["link_replaced"]) in page.content.decode()
    assert Client().get(f"/t/{new}/").status_code == 200


def test_the_apis_links_carry_the_address_the_cards_print(played, settings):
    """The API answered the tables' links at the address its request came to, where the
    board, the QR codes and the cards use PUBLIC_BASE_URL (club.phone_links): a script
    asking at 127.0.0.1 (or a Host the proxy let through) printed links no phone opens."""
    settings.PUBLIC_BASE_URL = "https://club.example.org"
    secretary = token_client(played.secretary)
    base = f"/api/v1/clubs/{played.club.slug}/evenings/{played.evening.pk}/tables/"
    listed = secretary.get(base).json()
    assert [{k: t[k] for k in ("number", "link")} for t in listed] == [
        {"number": 1, "link": f"https://club.example.org/t/{played.table.token}/"}
    ]
    fresh = secretary.post(f"{base}1/new-link/").json()
    token = Table.objects.get(pk=played.table.pk).token
    assert fresh["link"] == f"https://club.example.org/t/{token}/" and fresh["number"] == 1


def test_the_printed_boards_note_names_the_sheet_at_the_public_address(played, settings):
    """The board's print note (where the evening's sheet is printed for the club's book)
    gave the address the board was opened at: behind a proxy, an internal one."""
    settings.PUBLIC_BASE_URL = "https://club.example.org"
    board = Client()
    board.force_login(played.secretary)
    page = board.get(f"/secretary/evenings/{played.evening.pk}/").content.decode()
    sheet = f"https://club.example.org/secretary/evenings/{played.evening.pk}/sheet/"
    assert sheet in page
    assert "http://testserver/secretary" not in page


def test_a_fresh_link_from_the_board(played):
    old = played.table.token
    board = Client(enforce_csrf_checks=True)
    board.force_login(played.secretary)
    url = f"/secretary/evenings/{played.evening.pk}/action/"
    assert board.post(url, {"type": "new_link", "table": "1"}).status_code == 403  # no CSRF
    assert Table.objects.get(pk=played.table.pk).token == old
    board.get(f"/secretary/evenings/{played.evening.pk}/")
    response = board.post(
        url,
        {"type": "new_link", "table": "1", "csrfmiddlewaretoken": board.cookies["csrftoken"].value},
    )
    assert response.status_code == 200
    new = Table.objects.get(pk=played.table.pk).token
    assert new != old and f"/t/{new}/" in response.content.decode()
    assert "fresh link" in response.content.decode()
    assert Client().get(f"/t/{old}/").status_code == 403


def test_what_shows_the_tables_links_is_kept_in_no_cache(played, client):
    """A table's link is a bearer secret (it records that table's hands). The board, its
    live part, the table cards, a QR code and the API's answers listing or renewing the
    links carried no Cache-Control: a browser keeps such a page in its back-forward or
    HTTP cache, and on the club's shared laptop the Back button after the secretary logged
    out could show every table's link to whoever sat down next."""
    client.force_login(played.secretary)
    evening = played.evening.pk
    pages = [
        f"/secretary/evenings/{evening}/",
        f"/secretary/evenings/{evening}/board/",
        f"/secretary/evenings/{evening}/table-cards/",
        f"/secretary/evenings/{evening}/tables/1/qr.svg",
    ]
    secretary = token_client(played.secretary)
    api = f"/api/v1/clubs/{played.club.slug}/evenings/{evening}/tables/"
    answers = [client.get(url) for url in pages]
    answers += [secretary.get(api), secretary.post(f"{api}1/new-link/")]
    for response in answers:
        assert response.status_code == 200
        assert "no-store" in response["Cache-Control"], response.request["PATH_INFO"]
        assert "private" in response["Cache-Control"]


def test_a_dead_link_tells_a_polling_phone_to_reload(played):
    close_abandoning(played.evening.pk)
    response = Client().get(f"/t/{played.table.token}/", HTTP_HX_REQUEST="true")
    assert response.status_code == 403
    assert response["HX-Refresh"] == "true"


def test_a_link_expires_the_clubs_hours_after_the_evenings_day(db, settings):
    settings.TIME_ZONE = "America/New_York"
    zone = zoneinfo.ZoneInfo("America/New_York")
    table = TableFactory(
        evening__date=datetime.date(2026, 11, 23),
        link_issued_at=datetime.datetime(2026, 11, 23, 19, 0, tzinfo=zone),
    )
    ends = datetime.datetime(2026, 11, 24, 6, 0, tzinfo=zone)  # midnight, then 6 hours
    assert table_link_expires_at(table=table) == ends
    assert table_link_refusal(table=table, now=ends - datetime.timedelta(seconds=1)) is None
    assert table_link_refusal(table=table, now=ends) == "link_expired"
    table.club.table_link_hours = 2
    assert table_link_expires_at(table=table) == ends - datetime.timedelta(hours=4)
    # A link issued after the evening's day (a fresh card, an evening entered late) lives
    # its hours from its issue.
    table.link_issued_at = datetime.datetime(2026, 11, 25, 12, 0, tzinfo=zone)
    assert table_link_expires_at(table=table) == table.link_issued_at + datetime.timedelta(hours=2)


@pytest.mark.parametrize("day", [datetime.date(9999, 12, 31), datetime.date(9999, 12, 25)])
def test_a_link_of_an_evening_at_the_end_of_the_calendar_lives(db, settings, day):
    """An evening may be dated up to 9999-12-31 (the API and the board take any date):
    its links' hours ran past the last datetime Python has, and every request with them,
    the phone's page and the API alike, was a 500. Such a link never dies of age."""
    settings.TIME_ZONE = "Pacific/Kiritimati"  # UTC+14: the end of the calendar comes first
    table = TableFactory(evening__date=day, evening__club__table_link_hours=168)
    assert table_link_refusal(table=table) is None
    assert Client().get(f"/t/{table.token}/").status_code == 200
    me = phone(table.token).get("/api/v1/me/")
    assert me.status_code == 200 and me.json()["table"]["number"] == table.number


def test_the_club_sets_its_links_hours(played):
    url = f"/api/v1/clubs/{played.club.slug}/"
    secretary = token_client(played.secretary)
    assert secretary.get(url).json()["table_link_hours"] == 6
    assert secretary.patch(url, {"table_link_hours": 3}, format="json").status_code == 200
    refused = secretary.patch(url, {"table_link_hours": 0}, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["field"] == "table_link_hours"
    # Three hours from its issue now (the world's evening was in 1888): live a little
    # longer, dead after.
    played.club.refresh_from_db()
    table = Table.objects.select_related("evening", "club").get(pk=played.table.pk)
    later = timezone.now() + datetime.timedelta(hours=3, seconds=1)
    assert table_link_refusal(table=table) is None
    assert table_link_refusal(table=table, now=later) == "link_expired"


def test_a_reopened_evening_opens_its_links_again(played):
    close_abandoning(played.evening.pk)
    url = f"/api/v1/clubs/{played.club.slug}/evenings/{played.evening.pk}/"
    assert phone(played.table.token).get(url).status_code == 401
    evenings.evening_reopen(evening_id=played.evening.pk, reason="a hand was missed")
    assert phone(played.table.token).get(url).status_code == 200
