"""Pages people land on by mistake, with DEBUG off (a club's Wi-Fi, `quickstart --lan`, and
production): a mistyped address says in words what to do, a server error is a plain
page, the browser's /favicon.ico is answered; and the API docs' words, the room
display's foot and a correction's address opened again, as people meet them."""

import html
import re

import pytest
from django.templatetags.static import static
from django.test import RequestFactory
from django.views import defaults

from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db

TABLE_CARD = (
    "Check the link on the table's card, or ask the secretary (or the tournament's director) "
    "for the table's card."
)


@pytest.fixture(autouse=True)
def no_debug(settings):
    settings.DEBUG = False


def text(response) -> str:
    """The page's words, tags dropped and spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


@pytest.mark.parametrize("path", ["/t/badtoken/", "/p/badtoken/"])
def test_a_mistyped_table_link_says_to_check_the_tables_card(client, path):
    response = client.get(path)
    assert response.status_code == 404
    page = text(response)
    assert "Page not found" in page
    assert TABLE_CARD in page
    assert '<a href="/">' in response.content.decode()  # the way to the front page
    assert '<a class="brand" href="/">Card club</a>' in response.content.decode()


@pytest.mark.parametrize("path", ["/clubs/nosuch/", "/clubs/nosuch/evenings/999/", "/nowhere/"])
def test_an_address_of_no_page_leads_to_the_front_page(client, path):
    response = client.get(path)
    assert response.status_code == 404
    page = text(response)
    assert "There is no page at this address." in page
    assert "The clubs (the site's front page)" in page
    assert '<a href="/">' in response.content.decode()
    assert TABLE_CARD not in page
    assert "/clubs/nosuch/" not in response.content.decode()  # no link to a club not there


def test_an_address_in_a_club_leads_to_the_clubs_page(client, club):
    response = client.get(f"/clubs/{club.slug}/evenings/999/")
    assert response.status_code == 404
    assert f'<a href="/clubs/{club.slug}/">Somerset Club\'s page</a>' in html.unescape(
        response.content.decode()
    )


def test_a_private_clubs_name_is_not_shown_to_a_visitor_it_is_hidden_from(client, db):
    ClubFactory(name="Hidden Club", slug="hidden", is_public=False)
    response = client.get("/clubs/hidden/evenings/999/")
    assert response.status_code == 404
    assert "Hidden Club" not in response.content.decode()
    assert "/clubs/hidden/" not in response.content.decode()


def test_the_apis_404_stays_in_its_error_shape(client):
    response = client.get("/api/v1/nosuch/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "not_found"


def test_a_server_error_is_a_plain_page_in_words(django_assert_num_queries):
    """Rendered as Django renders it: no request context, nothing from the database."""
    request = RequestFactory().get("/clubs/somerset/")
    with django_assert_num_queries(0):
        response = defaults.server_error(request)
    assert response.status_code == 500
    page = text(response)
    assert "The service could not answer" in page
    assert "Please try again in a moment." in page
    assert '<a href="/">' in response.content.decode()


def test_favicon_ico_leads_to_the_icon_the_pages_link(client, club, evening):
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    icon = static("favicon.svg")
    assert response["Location"] == icon
    # The site's pages and the room display (a base template of its own) link it.
    for address in ("/", f"/clubs/{club.slug}/evenings/{evening.pk}/room/"):
        page = client.get(address).content.decode()
        assert f'<link rel="icon" href="{icon}" type="image/svg+xml">' in page, address


def test_the_api_docs_description_shows_its_placeholders(client):
    """The docs page renders the description as Markdown, which took `<slug>` and `<id>`
    for HTML tags: "/secretary/clubs//tournaments/new/" was shown."""
    description = client.get("/api/schema/?format=json").json()["info"]["description"]
    assert "`/secretary/clubs/{slug}/tournaments/new/`" in description
    assert "`/secretary/tournaments/{id}/`" in description
    assert not re.search(r"<\w+>", description)


def test_the_evening_room_shows_no_internal_counter(client, club):
    from tests.club.rooms import evening_with_a_table, record

    evening = evening_with_a_table(club)
    record(evening, "NS", 5)
    response = client.get(f"/clubs/{club.slug}/evenings/{evening.pk}/room/")
    evening.refresh_from_db()
    assert "Updates by itself." in text(response)
    assert "version" not in text(response)
    # Kept out of sight, as the tournament's room keeps its standings' version.
    assert f'data-version="{evening.version}"' in response.content.decode()


@pytest.mark.parametrize("who", ["anonymous", "secretary"])
def test_a_corrections_address_opened_leads_to_the_rubbers_page(
    client, who, django_capture_on_commit_callbacks
):
    """After a refused correction the address bar shows .../change/, which only takes
    posts: opened again it answered the browser's bare 405 page."""
    from tests.worlds import club_in_play

    world = club_in_play(django_capture_on_commit_callbacks)
    if who == "secretary":
        client.force_login(world.secretary)
    rubber = f"/clubs/{world.club.slug}/rubbers/{world.rubber.pk}/"
    response = client.get(f"{rubber}change/")
    assert response.status_code == 302
    assert response["Location"] == rubber
    assert client.head(f"{rubber}change/").status_code == 302
