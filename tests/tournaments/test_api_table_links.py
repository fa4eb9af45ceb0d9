"""A progressive's table links through the API, as the director's page gives them: the
tables' phone links (the cards on the tables, tournaments.table_links) listed for the
director, and a fresh link for a table whose card was lost or copied, the old one dead at
once. A fresh link takes the page's guard (`link_version`, as the list gives it): a call
retried after a lost answer renews once, and the card just printed keeps working."""

import html

import pytest

from club.services import phone_link_version
from tests.conftest import token_client
from tournaments.models import TournamentTable
from tournaments.table_links import ASK_THE_DIRECTOR, DEAD_LINK

pytestmark = pytest.mark.django_db


def base(tournament) -> str:
    return f"/api/v1/clubs/{tournament.club.slug}/tournaments/{tournament.slug}/tables/"


def error(response) -> dict:
    return response.json()["error"]


def links(tournament) -> list[tuple[int, str]]:
    return list(
        TournamentTable.objects.filter(tournament=tournament)
        .order_by("number")
        .values_list("number", "token")
    )


@pytest.fixture
def api(director):
    return token_client(director)


def test_the_director_lists_the_tables_links_kept_in_no_cache(api, round_one, client):
    answer = api.get(base(round_one))
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == "no-store, private"
    listed = answer.json()
    assert [(t["number"], t["link"].rsplit("/p/", 1)[1].strip("/")) for t in listed] == links(
        round_one
    )
    assert listed[0]["link"].startswith("http://testserver/p/")
    first = TournamentTable.objects.get(tournament=round_one, number=1)
    assert listed[0]["link_version"] == phone_link_version(first)
    # Each is the table's live phone page.
    assert client.get(listed[0]["link"].removeprefix("http://testserver")).status_code == 200


def test_a_ladder_and_a_progressive_not_yet_seated_have_no_tables(api, ladder, make):
    assert api.get(base(ladder)).json() == []
    assert api.get(base(make("rotation", deals=1))).json() == []


def test_a_fresh_link_kills_the_old_card_at_once(api, round_one, client):
    old = dict(links(round_one))[1]
    renewed = api.post(f"{base(round_one)}1/new-link/", {}, format="json")
    assert renewed.status_code == 200
    new = dict(links(round_one))[1]
    assert new != old and renewed.json()["link"].endswith(f"/p/{new}/")
    assert renewed.json()["number"] == 1
    dead = client.get(f"/p/{old}/")
    assert dead.status_code == 403
    page = html.unescape(dead.content.decode())
    assert DEAD_LINK["link_replaced"] in page and ASK_THE_DIRECTOR in page
    assert client.get(f"/p/{new}/").status_code == 200
    assert dict(links(round_one))[2] != new  # table 2's card untouched


def test_a_fresh_link_retried_with_its_link_version_renews_once(api, round_one):
    url = f"{base(round_one)}1/new-link/"
    seen = api.get(base(round_one)).json()[0]["link_version"]
    first = api.post(url, {"link_version": seen}, format="json")
    assert first.status_code == 200
    printed = dict(links(round_one))[1]
    again = api.post(url, {"link_version": seen}, format="json")
    assert again.status_code == 409
    assert error(again)["code"] == "link_renewed"
    assert error(again)["message"].startswith("Table 1's link was renewed already at ")
    assert dict(links(round_one))[1] == printed  # the card just printed still works
    assert api.post(url, {"link_version": first.json()["link_version"]}).status_code == 200
    assert dict(links(round_one))[1] != printed


@pytest.mark.parametrize("bad", ["yesterday", 12, ""])
def test_a_malformed_link_version_is_a_400_naming_it(api, round_one, bad):
    before = links(round_one)
    refused = api.post(f"{base(round_one)}1/new-link/", {"link_version": bad}, format="json")
    assert refused.status_code == 400 and error(refused)["field"] == "link_version"
    assert links(round_one) == before


def test_a_table_the_tournament_has_not_is_a_404_in_words(api, round_one):
    refused = api.post(f"{base(round_one)}9/new-link/", {}, format="json")
    assert refused.status_code == 404
    assert "table 9" in error(refused)["message"].lower()


def test_an_unknown_key_is_refused_and_nothing_renewed(api, round_one, ladder):
    before = links(round_one)
    refused = api.post(f"{base(round_one)}1/new-link/", {"table": 1}, format="json")
    assert refused.status_code == 400 and error(refused)["code"] == "unknown_key"
    assert links(round_one) == before
    # The body is read before the table is looked for: a ladder's refusal is the same.
    refused = api.post(f"{base(ladder)}1/new-link/", {"table": 1}, format="json")
    assert refused.status_code == 400 and error(refused)["code"] == "unknown_key"


def test_only_the_director_sees_or_renews_the_links(round_one, club):
    from tests.factories import MemberFactory, UserFactory

    stranger = token_client(UserFactory())
    member = UserFactory()
    MemberFactory(club=club, user=member, name="Member Only")
    before = links(round_one)
    for caller in (stranger, token_client(member)):
        assert caller.get(base(round_one)).status_code in (403, 404)
        assert caller.post(f"{base(round_one)}1/new-link/", {}, format="json").status_code in (
            403,
            404,
        )
    assert links(round_one) == before
