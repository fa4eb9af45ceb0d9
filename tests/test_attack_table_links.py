"""Attacks on the bearer secrets: the tables' phone links (and the API's tokens).

- From a link, on what is not its table's (club/confirmations.py): the phone's confirm and
  dispute buttons post the rubber's id and the hand's number (`/t/<token>/answer/`). A
  rubber of another club (a private one) was looked up and locked before the link was
  checked against it, and refused as another table's, where a rubber no one has is "not
  waiting for the other side's word": any link could tell, by trying ids, which rubbers
  of every club had a hand waiting for the other side's word (and hold their rows'
  locks meanwhile). Another club's rubber is now answered as one that does not exist.
- Kept in a cache: every page or answer holding a link (or an API token) says
  `Cache-Control: no-store`, as an evening's board always did; a club's laptop is shared.
"""

import pytest
from django.test import Client

from club import recording
from club.models import HandConfirmation, Table
from tests.factories import ClubFactory
from tests.worlds import club_in_play, euchre_table


@pytest.fixture
def waiting(db, django_capture_on_commit_callbacks):
    """A private club's rubber whose hand 2, recorded from its table's phone, waits for
    the other side's word (the club asks for it)."""
    world = club_in_play(django_capture_on_commit_callbacks)
    world.club.confirm_hands = True
    world.club.save()
    table = Table.objects.select_related("club", "evening").get(pk=world.table.pk)
    recording.hand_record(
        evening_id=world.evening.pk, table_number=1, data={"makers": "EW", "tricks": 3},
        table=table,
    )  # fmt: skip
    assert HandConfirmation.objects.filter(rubber=world.rubber, hand__number=2).exists()
    return world.rubber


@pytest.fixture
def other_phone(db) -> str:
    """The phone link of a table at another (public) club's evening."""
    club = ClubFactory(slug="tremont", name="Tremont Club")
    evening = euchre_table(club, ("Eve", "Fay", "Gil", "Hal"))
    return evening.tables.get(number=1).token


def _answer(token: str, rubber_id: int):
    body = {"rubber": rubber_id, "number": 2, "answer": "confirm", "by": "NS"}
    return Client().post(f"/t/{token}/answer/", body, headers={"HX-Request": "true"})


def test_another_clubs_link_cannot_tell_its_rubbers_from_none(waiting, other_phone):
    theirs = _answer(other_phone, waiting.pk)
    nobodys = _answer(other_phone, waiting.pk + 10_000)
    assert theirs.status_code == nobodys.status_code == 400
    said = theirs.content.decode()
    assert "Hand 2 is not waiting for the other side" in said  # as for no rubber
    assert "own table" not in said
    assert HandConfirmation.objects.get(rubber=waiting, hand__number=2).state == "unconfirmed"


@pytest.fixture
def progressive(club, secretary, django_capture_on_commit_callbacks):
    """A progressive whose first round is seated: its tables have their phone links."""
    from tournaments import rounds
    from tournaments.services import tournament_create

    with django_capture_on_commit_callbacks(execute=True):
        progressive = tournament_create(
            club=club, name="Spring", slug="spring", kind="progressive",
            ruleset="euchre-somerset-1888", movement="rotation", rounds_planned=7,
        )  # fmt: skip
        for name in ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Hugh"]:
            rounds.tournament_enter(tournament=progressive, name=name)
        rounds.round_seat_next(tournament_id=progressive.pk)
    return progressive


def test_a_progressives_pages_holding_its_tables_links_are_kept_in_no_cache(
    client, secretary, progressive
):
    """The pages that hold a progressive's table links (each a bearer secret for the
    whole tournament): the director's page, a table's QR code, the table cards. An
    evening's board, QR codes and cards say `no-store`; these said nothing, and a club's
    shared laptop kept them in its browser's cache after the director logged out."""
    from tournaments.models import TournamentTable

    token = TournamentTable.objects.filter(tournament=progressive).first().token
    client.force_login(secretary)
    pages = [
        f"/secretary/tournaments/{progressive.pk}/",
        f"/secretary/tournaments/{progressive.pk}/tables/1/qr.svg",
        f"/secretary/tournaments/{progressive.pk}/table-cards/",
    ]
    for page in pages:
        answer = client.get(page)
        assert answer.status_code == 200, page
        assert "no-store" in answer.get("Cache-Control", ""), page
    assert token in client.get(pages[0]).content.decode()  # the page does hold it


def test_the_boards_answer_to_a_fresh_link_is_kept_in_no_cache(
    db, client, django_capture_on_commit_callbacks
):
    """The board's answer to its buttons is the board again, with every table's link in
    it (the fresh one too): kept in no cache, as the board itself is."""
    world = club_in_play(django_capture_on_commit_callbacks)
    client.force_login(world.secretary)
    answer = client.post(
        f"/secretary/evenings/{world.evening.pk}/action/",
        {"type": "new_link", "table": 1},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 200
    fresh = Table.objects.get(pk=world.table.pk).token
    assert fresh != world.table.token and fresh in answer.content.decode()
    assert "no-store" in answer.get("Cache-Control", "")


def test_an_api_logins_answer_holding_its_token_is_kept_in_no_cache(db, api):
    """The API's login answers a bearer token for thirty days (API_TOKEN_DAYS): kept in
    no cache (as OAuth's token answers are, RFC 6749 5.1), as a table's link is."""
    from tests.factories import UserFactory

    UserFactory(username="eliza")
    answer = api.post(
        "/api/v1/auth/token/",
        {"username": "eliza", "password": "correct horse battery"},
        format="json",
    )
    assert answer.status_code == 200 and answer.json()["token"]
    assert "no-store" in answer.get("Cache-Control", "")
