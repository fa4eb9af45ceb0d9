"""The room display of an evening and of a tournament (issue #15, item 6): public when the
club is, words not labels, the waiting list in order, the score in play, rubbers
finished, leaders and money; its live part answers 304 while nothing has changed."""

import html
import re

import pytest

from tests.club.rooms import SWEEP, evening_with_a_table, record, table_one
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def text(response) -> str:
    """The page's words, tags dropped and spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


@pytest.fixture
def evening(club):
    return evening_with_a_table(club)


def test_the_room_shows_tables_dealer_score_and_the_waiting_list_in_order(client, evening):
    table = table_one(evening)
    record(evening, "NS", 5)  # a march: two to North-South
    response = client.get(f"/clubs/somerset/evenings/{evening.pk}/room/")
    assert response.status_code == 200
    page = text(response)
    seats = table["seats"]
    assert f"North-South {seats['N']} & {seats['S']}" in page
    assert f"East-West {seats['E']} & {seats['W']}" in page
    # The deal has passed to the left after the hand, as the phone says it.
    playing = table["playing"]
    assert f"Deals next: {playing[(playing.index(table['dealer']) + 1) % 4]}" in page
    assert f"{seats['N']} & {seats['S']} 2 0 games" in page  # points in the game, games won
    first, second = table["waiting"]
    assert f"Waiting to cut in, in order: 1. {first}, 2. {second}" in page
    assert "Game 1, 1 hand played" in page
    # Words, not labels: no side keys, no status keys, no rule-set keys.
    for label in ("in_progress", "euchre-somerset-1888", ">NS<", ">EW<"):
        assert label not in response.content.decode()
    assert 'lang="en"' in response.content.decode()
    assert "<nav" not in response.content.decode()  # no navigation on the room's screen


def test_a_finished_rubber_shows_its_winners_the_leaders_and_the_money(client, evening):
    table = table_one(evening)
    for tricks in SWEEP:
        record(evening, "NS", tricks)
    page = text(client.get(f"/clubs/somerset/evenings/{evening.pk}/room/"))
    seats = table["seats"]
    winners = f"{seats['N']} & {seats['S']}"
    assert "Rubbers finished: 1" in page
    assert f"Table 1: {winners} beat {seats['E']} & {seats['W']}, worth 8" in page
    # Worth 8 at 0.25 a point: each winner takes 2.00 from a loser (ruling M1).
    assert f"{seats['N']} +2.00 (1 rubber won)" in page
    assert f"{seats['E']} \u22122.00" in page
    assert "Leading the evening" in page


def test_the_live_part_answers_304_until_a_hand_is_recorded(client, evening):
    live = f"/clubs/somerset/evenings/{evening.pk}/room/live/"
    first = client.get(live)
    etag = first["ETag"]
    assert client.get(live, headers={"If-None-Match": etag}).status_code == 304
    record(evening, "EW", 3)
    again = client.get(live, headers={"If-None-Match": etag})
    assert again.status_code == 200
    assert again["ETag"] != etag
    assert 'id="room"' in again.content.decode()


def test_a_private_clubs_room_is_only_for_its_secretary(client, club, secretary):
    club.is_public = False
    club.save()
    evening = evening_with_a_table(club)
    url = f"/clubs/somerset/evenings/{evening.pk}/room/"
    assert client.get(url).status_code == 404
    assert client.get(url + "live/").status_code == 404
    client.force_login(UserFactory(username="stranger"))
    assert client.get(url).status_code == 404
    client.force_login(secretary)
    assert client.get(url).status_code == 200


def test_the_room_is_linked_from_the_club_and_the_evenings_results(client, evening):
    room = f"/clubs/somerset/evenings/{evening.pk}/room/"
    assert room in client.get("/clubs/somerset/").content.decode()
    assert room in client.get(f"/clubs/somerset/evenings/{evening.pk}/").content.decode()


# --- a tournament's round ------------------------------------------------------------------


@pytest.fixture
def progressive_round(club, django_capture_on_commit_callbacks):
    from tournaments import rounds as progressive
    from tournaments import services

    with django_capture_on_commit_callbacks(execute=True):
        tournament = services.tournament_create(
            club=club, name="Spring progressive", slug="spring", kind="progressive",
            ruleset="euchre-somerset-1888", movement="rotation", rounds_planned=7,
        )  # fmt: skip
        for name in ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Hugh"]:
            progressive.tournament_enter(tournament=tournament, name=name)
        played = progressive.round_seat_next(tournament_id=tournament.pk)
    return tournament, played


def test_the_tournament_room_shows_this_rounds_seating_and_the_standings(
    client, progressive_round, django_capture_on_commit_callbacks
):
    from club import recording

    _tournament, played = progressive_round
    url = "/clubs/somerset/tournaments/spring/room/"
    response = client.get(url)
    assert response.status_code == 200
    page = text(response)
    assert "round 1 of 7" in page
    for table in played.seating["tables"]:
        seats = table["seats"]
        assert f"North-South {seats['N']} & {seats['S']}" in page
    etag = response["ETag"]
    assert client.get(url + "live/", headers={"If-None-Match": etag}).status_code == 304
    rubber = played.tables.get(number=1).rubber
    with django_capture_on_commit_callbacks(execute=True):
        recording.hand_record(rubber_id=rubber.pk, data={"makers": "NS", "tricks": 5})
    live = client.get(url + "live/", headers={"If-None-Match": etag})
    assert live.status_code == 200
    seats = played.seating["tables"][0]["seats"]
    assert f"{seats['N']} & {seats['S']} 2 0 games" in text(live)
    assert "Standings" in text(live)
    assert url in client.get("/clubs/somerset/tournaments/spring/").content.decode()


def test_a_private_tournaments_room_is_hidden(client, progressive_round):
    tournament, _ = progressive_round
    tournament.is_public = False
    tournament.save()
    assert client.get("/clubs/somerset/tournaments/spring/room/").status_code == 404


def test_bridge_and_call_ace_tables_in_the_room(client, club):
    from tests.worlds import bridge_and_call_ace_in_play

    played = bridge_and_call_ace_in_play(club)
    bridge = text(client.get(f"/clubs/somerset/evenings/{played.bridge.evening_id}/room/"))
    assert "Bridge" in bridge
    assert "Game 1, 1 hand played" in bridge
    call_ace = client.get(f"/clubs/somerset/evenings/{played.call_ace.evening_id}/room/")
    page = text(call_ace)
    order = played.call_ace_order
    assert f"Players: {', '.join(order)}" in page
    assert f"Deals next: {order[1]}" in page  # one deal played: the deal has passed
    assert "1 deal played" in page
    # Each player's points in the sitting, by name (Call-Ace has no sides).
    for name in order:
        assert re.search(rf"{name} -?\d+", page)
    assert "North-South" not in page


def test_an_unchanged_room_costs_the_server_two_queries(
    client, evening, django_assert_max_num_queries
):
    """A room left on all evening polls every three seconds: while nothing changes, each
    poll is the club and the evening read, and a 304."""
    live = f"/clubs/somerset/evenings/{evening.pk}/room/live/"
    etag = client.get(live)["ETag"]
    with django_assert_max_num_queries(2):
        assert client.get(live, headers={"If-None-Match": etag}).status_code == 304


def test_the_secretary_opens_the_room_from_the_board_and_the_directors_page(
    client, evening, secretary, progressive_round
):
    tournament, _ = progressive_round
    client.force_login(secretary)
    board = client.get(f"/secretary/evenings/{evening.pk}/").content.decode()
    assert f"/clubs/somerset/evenings/{evening.pk}/room/" in board
    director = client.get(f"/secretary/tournaments/{tournament.pk}/").content.decode()
    assert "/clubs/somerset/tournaments/spring/room/" in director


def test_public_pages_name_the_game_not_its_rule_sets_key(client, evening):
    for path in ("/clubs/somerset/", f"/clubs/somerset/evenings/{evening.pk}/"):
        body = client.get(path).content.decode()
        assert "euchre-somerset-1888" not in body, path
        assert "Euchre (Somerset Club laws, 1888)" in body, path
