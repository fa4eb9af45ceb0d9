"""A progressive whose standings are not public keeps its play to the club's officers: on
a public club, its rounds' rubbers are left out of the club's page, a player's record (his
figures, seasons, scorecard and rubbers) and the API, and a round's rubber is 404 to the
public, as a private club's is; its secretary, directors and staff see everything. A
ladder's evenings stay the club's, public whatever the ladder (docs/security.md).

The door by door matrix (every role, every route) is tests/test_permissions.py's."""

import datetime
import html
import re

import pytest

from tests.conftest import token_client
from tests.factories import ClubFactory, UserFactory
from tests.worlds import public_club_with_private_play
from tournaments import services
from tournaments.services import tournament_create

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


@pytest.fixture
def played(django_capture_on_commit_callbacks):
    return public_club_with_private_play(django_capture_on_commit_callbacks)


def _player(client, played) -> str:
    return text(client.get(f"/clubs/somerset/players/{played.members['Ann'].pk}/"))


def test_a_players_record_leaves_out_a_private_progressive_for_the_public(client, played):
    """Ann played a hand at the 1888 evening and a hand in the progressive's round 1, this
    year: the public sees the evening's alone, his figures and his seasons included."""
    this_year = datetime.date.today().year
    page = _player(client, played)
    assert "Hands 1 " in page  # the evening's hand, not the round's
    assert "Season 1888, evening by evening" in page
    assert "Seasons:" not in page  # 1888 alone: not the round's season
    assert "Spring" not in page  # the progressive, named where his round was played
    for officer in (played.secretary, played.director):
        client.force_login(officer)
        page = _player(client, played)
        assert "Hands 2 " in page
        assert f"Seasons: {this_year} · 1888" in page
        assert f"Season {this_year}, evening by evening" in page
        assert re.search(r"\d{1,2} [A-Z][a-z]+ \d{4} Spring ", page)  # his scorecard's row of it
        assert re.search(r"Spring ?, round 1, table 1", page)  # where his rubber was played


def test_a_players_record_in_the_api_leaves_it_out_too(api, played):
    path = f"/api/v1/clubs/somerset/players/{played.members['Ann'].pk}/"
    other = UserFactory(username="other")
    ClubFactory(slug="tremont", secretaries=[other])
    for outsider in (api, token_client(other)):
        body = outsider.get(path).json()
        assert body["figures"]["hands"] == 1
        assert [row["rubber"] for row in body["rubbers"]] == [played.rubber.pk]
    for officer in (played.secretary, played.director):
        body = token_client(officer).get(path).json()
        assert body["figures"]["hands"] == 2
        assert {row["rubber"] for row in body["rubbers"]} == {
            played.rubber.pk,
            played.round_rubber.pk,
        }


def test_a_rounds_rubber_is_no_rubber_to_the_public(client, played):
    page = f"/clubs/somerset/rubbers/{played.round_rubber.pk}/"
    assert client.get(page).status_code == 404
    assert page not in client.get("/clubs/somerset/").content.decode()  # not in play
    client.force_login(played.director)
    assert client.get(page).status_code == 200
    assert page in client.get("/clubs/somerset/").content.decode()


def test_standings_made_public_show_the_play_and_private_hide_it_again(
    client, played, django_capture_on_commit_callbacks
):
    page = f"/clubs/somerset/rubbers/{played.round_rubber.pk}/"
    with django_capture_on_commit_callbacks(execute=True):  # committed, as a director's change
        services.tournament_update(tournament=played.progressive, is_public=True)
    assert client.get(page).status_code == 200
    assert "Hands 2 " in _player(client, played)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_update(tournament=played.progressive, is_public=False)
    assert client.get(page).status_code == 404
    assert "Hands 1 " in _player(client, played)


def test_a_private_ladders_evening_stays_the_clubs(client, api, played):
    """The ladder "winter" counts the evening and its standings are not public: the
    ladder's pages are refused, the evening and its rubber are not."""
    evening = played.evening.pk
    assert client.get("/clubs/somerset/tournaments/winter/").status_code == 404
    assert "Winter" not in text(client.get("/clubs/somerset/"))
    results = client.get(f"/clubs/somerset/evenings/{evening}/")
    assert f"/clubs/somerset/rubbers/{played.rubber.pk}/" in results.content.decode()
    assert client.get(f"/clubs/somerset/rubbers/{played.rubber.pk}/").status_code == 200
    assert client.get(f"/clubs/somerset/evenings/{evening}/room/").status_code == 200
    hands = api.get(f"/api/v1/clubs/somerset/evenings/{evening}/hands.csv")
    assert hands.status_code == 200 and "Ann" in hands.content.decode()


def test_a_rounds_rubber_is_named_by_its_progressive_round_and_table(client, played):
    """On the club's page and the rubber's own, a round's rubber is "Spring, round 1,
    table 1", not its number; a rubber played for no stake says so, not "0.00 a point"."""
    client.force_login(played.secretary)
    home = text(client.get("/clubs/somerset/"))
    assert "Spring, round 1, table 1 — Euchre" in home
    assert f"Rubber {played.round_rubber.pk}" not in home
    assert "Table 1 — Euchre" in home  # the evening's table, as before
    answer = client.get(f"/clubs/somerset/rubbers/{played.round_rubber.pk}/")
    page = text(answer)
    assert "Played at Spring , round 1, table 1" in page
    assert 'href="/clubs/somerset/tournaments/spring/"' in answer.content.decode()
    assert "Stake Not played for money" in page
    evening_rubber = text(client.get(f"/clubs/somerset/rubbers/{played.rubber.pk}/"))
    assert "Played at" not in evening_rubber
    assert f"Stake {played.rubber.stake} " in evening_rubber


# A guest entered at a private progressive joins the roster; while that is all the club
# has of him, his name is kept from the public as the progressive's play is.


def _enter_guest(played, name: str = "Gwen"):
    """A guest new to the club entered at the private progressive "spring" (from its
    round 2: round 1 is seated already), as its director enters him."""
    from tournaments import rounds

    rounds.tournament_enter(tournament=played.progressive, name=name)
    return played.club.members.get(name=name)


def _seen(client, api, member) -> dict:
    """Where the public meets the roster, for one member: listed on the players' page, found
    by its search, his page, listed in the API's members, his member and player records."""
    base, pk = "/clubs/somerset", member.pk
    players = text(client.get(f"{base}/players/"))
    found = text(client.get(f"{base}/players/", {"name": member.name[:3]}))
    roster = api.get("/api/v1/clubs/somerset/members/").json()["results"]
    return {
        "listed": member.name in players,
        "found": member.name in found,
        "page": client.get(f"{base}/players/{pk}/").status_code,
        "api listed": member.name in [row["name"] for row in roster],
        "api member": api.get(f"/api/v1/clubs/somerset/members/{pk}/").status_code,
        "api player": api.get(f"/api/v1/clubs/somerset/players/{pk}/").status_code,
    }


PUBLIC = {"listed": True, "found": True, "page": 200, "api listed": True,
          "api member": 200, "api player": 200}  # fmt: skip
HIDDEN = {"listed": False, "found": False, "page": 404, "api listed": False,
          "api member": 404, "api player": 404}  # fmt: skip


def test_a_guest_entered_at_a_private_progressive_is_no_player_to_the_public(client, api, played):
    gwen = _enter_guest(played)
    assert gwen.is_guest
    assert _seen(client, api, gwen) == HIDDEN
    assert _seen(client, api, played.members["Ann"]) == PUBLIC  # a member, whatever he played
    other = UserFactory(username="other")
    ClubFactory(slug="tremont", secretaries=[other])
    client.force_login(other)
    assert _seen(client, token_client(other), gwen) == HIDDEN  # another club's secretary
    for officer in (played.secretary, played.director):  # they seat his next round
        client.force_login(officer)
        assert _seen(client, token_client(officer), gwen) == PUBLIC


def test_a_hidden_guest_is_answered_as_no_member_at_all(client, api, played):
    """404 in the same words as an id no member has: the answer tells nothing of him."""
    gwen = _enter_guest(played)
    nobody = gwen.pk + 1000
    for path in ("/clubs/somerset/players/{}/", "/api/v1/clubs/somerset/members/{}/",
                 "/api/v1/clubs/somerset/players/{}/"):  # fmt: skip
        caller = api if path.startswith("/api/") else client
        hidden, missing = caller.get(path.format(gwen.pk)), caller.get(path.format(nobody))
        assert hidden.status_code == missing.status_code == 404
        assert hidden.content.replace(str(gwen.pk).encode(), b"#") == missing.content.replace(
            str(nobody).encode(), b"#"
        )


def test_a_hidden_guest_is_public_once_he_arrives_at_an_evening(client, api, played):
    """An evening is the club's own: his name is on its room display from his arrival, seat
    or no seat (the arrival names him as the roster spells him: "gwen" is Gwen)."""
    from club import evenings

    gwen = _enter_guest(played)
    evenings.evening_act(evening_id=played.evening.pk, event={"type": "arrive", "player": "gwen"})
    assert played.club.members.filter(name__iexact="gwen").count() == 1
    assert _seen(client, api, gwen) == PUBLIC


def test_a_hidden_guest_is_public_once_he_plays_a_rubber_the_public_reads(client, api, played):
    """A rubber scored on its own, outside an evening and a tournament, is the club's."""
    from scoring import services as scoring

    gwen = _enter_guest(played)
    scoring.rubber_start(
        club=played.club, ruleset="euchre-somerset-1888",
        players={"NS": ["Gwen", "Bob"], "EW": ["Cora", "Dan"]},
    )  # fmt: skip
    assert _seen(client, api, gwen) == PUBLIC


def test_a_hidden_guest_is_public_once_entered_at_a_public_tournament(client, api, played):
    """A public progressive lists its players on its own public pages."""
    from tournaments import rounds

    gwen = _enter_guest(played)
    summer = tournament_create(
        club=played.club, name="Summer", slug="summer", kind="progressive",
        ruleset="euchre-somerset-1888", movement="cut",
    )  # fmt: skip
    rounds.tournament_enter(tournament=summer, name="Gwen")
    assert _seen(client, api, gwen) == PUBLIC


def test_a_hidden_guest_follows_the_progressives_public_standings(client, api, played):
    gwen = _enter_guest(played)
    services.tournament_update(tournament=played.progressive, is_public=True)
    assert _seen(client, api, gwen) == PUBLIC
    services.tournament_update(tournament=played.progressive, is_public=False)
    assert _seen(client, api, gwen) == HIDDEN


def test_a_hidden_guest_made_a_member_is_the_clubs(client, api, played):
    """The secretary makes him a member of the club: listed, as every member is."""
    gwen = _enter_guest(played)
    response = token_client(played.secretary).patch(
        f"/api/v1/clubs/somerset/members/{gwen.pk}/", {"is_guest": False}, format="json"
    )
    assert response.status_code == 200
    assert _seen(client, api, gwen) == PUBLIC
