"""A progressive's tables scored by their players from a phone: each table's link
(`/p/<token>/`, tournaments.table_links) belongs to the table's number for the whole
tournament, records through the one recording service (club.recording) only at its own
table's rubber of the round in play, says in words when the round is over at the table and
what happens next, follows the table into the next round, and is renewed by the director
(the old link refused in words), dies of age, and records nothing once the tournament is
over."""

import datetime
import html

import pytest
from django.utils import timezone

from club import recording
from scoring.models import Hand
from tests.factories import UserFactory
from tournaments import rounds
from tournaments.models import Round, StandingsDirty, TournamentTable
from tournaments.table_links import ASK_THE_DIRECTOR, DEAD_LINK

MARCH = {"makers": "NS", "tricks": "5"}


def link(tournament, number=1) -> TournamentTable:
    return TournamentTable.objects.get(tournament=tournament, number=number)


def at_table(tournament, round_number=1, number=1):
    return tournament.rounds.get(number=round_number).tables.get(number=number)


def deal(makers="NS", tricks="3", **more) -> dict:
    return {"makers": makers, "tricks": tricks, **more}


def page_of(response) -> str:
    return html.unescape(response.content.decode())


def play_out(tournament, round_number=1):
    """Each table of the round decided by one deal (the fixtures play one deal a round)."""
    for table in tournament.rounds.get(number=round_number).tables.all():
        recording.hand_record(rubber_id=table.rubber_id, data={"makers": "EW", "tricks": 3})


def hands(table) -> list[dict]:
    return list(Hand.objects.filter(rubber=table.rubber).values_list("data", flat=True))


# --- the links, and the director's page --------------------------------------------------


def test_seating_round_one_gives_each_table_its_link_kept_for_the_next_round(round_one, director):
    tokens = dict(round_one.table_links.values_list("number", "token"))
    assert sorted(tokens) == [1, 2]
    assert len(set(tokens.values())) == 2
    play_out(round_one)
    rounds.round_seat_next(tournament_id=round_one.pk, user=director)
    # The card stays on the table: round 2 records through the same links.
    assert dict(round_one.table_links.values_list("number", "token")) == tokens


def test_the_directors_page_hands_out_each_tables_link_qr_code_and_card(directing, round_one):
    tokens = [link(round_one, n).token for n in (1, 2)]
    page = directing.get(f"/secretary/tournaments/{round_one.pk}/").content.decode()
    for number, token in zip((1, 2), tokens, strict=True):
        assert f'href="/p/{token}/"' in page
        assert f"/secretary/tournaments/{round_one.pk}/tables/{number}/qr.svg" in page
    assert "one phone link for the whole tournament" in page
    qr = directing.get(f"/secretary/tournaments/{round_one.pk}/tables/1/qr.svg")
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"
    cards = directing.get(f"/secretary/tournaments/{round_one.pk}/table-cards/?per_page=2")
    text = cards.content.decode()
    assert cards.status_code == 200
    assert text.count('<article class="table-print-card"') == 2
    assert f"http://testserver/p/{tokens[0]}/" in text  # the link whole, in words
    assert "The card stays on this table when the players move." in text
    assert directing.get(f"/secretary/tournaments/{round_one.pk}/tables/3/qr.svg").status_code == (
        404
    )


def test_only_the_clubs_directors_see_its_tables_links(client, round_one):
    client.force_login(UserFactory(username="passer-by"))
    for path in ("tables/1/qr.svg", "table-cards/"):
        assert client.get(f"/secretary/tournaments/{round_one.pk}/{path}").status_code == 404


# --- the phone -----------------------------------------------------------------------------


def test_the_phone_shows_its_table_its_players_and_the_next_deals_form(client, round_one):
    table = at_table(round_one)
    seats = round_one.rounds.get(number=1).seating["tables"][0]["seats"]
    page = page_of(client.get(f"/p/{link(round_one).token}/"))
    assert "<h1>Table 1</h1>" in page
    assert "Progressive · round 1 (1 deal a round)" in page
    for seat, name in (("North", "N"), ("East", "E"), ("South", "S"), ("West", "W")):
        assert f'<span class="seat-name">{seat}</span> <strong>{seats[name]}</strong>' in page
    assert "Hand <span data-next-label>1</span>" in page
    assert 'name="expected_number" value="1"' in page
    assert f'name="rubber" value="{table.rubber_id}"' in page
    assert 'data-kind="correct"' not in page  # no deal to correct yet
    assert "euchre-somerset-1888" not in page  # the game in words


def test_a_deal_from_the_phone_is_recorded_through_the_one_service(client, round_one):
    table = at_table(round_one)
    answer = client.post(
        f"/p/{link(round_one).token}/hand/",
        deal(expected_number="1", rubber=str(table.rubber_id)),
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 200
    page = page_of(answer)
    assert "Hand 1 recorded." in page
    assert "N-S make, three tricks: 1" in page  # the hand's own line (law 2)
    assert [h["makers"] for h in hands(table)] == ["NS"]
    assert Hand.objects.get(rubber=table.rubber).recorded_by is None  # no one's login
    # The standings heard of it in the hand's transaction (tournaments.receivers' outbox).
    assert StandingsDirty.objects.filter(tournament=round_one).count() == 4
    # Its one deal ended the round at the table (ruling P1): said in words, with what next.
    seats = round_one.rounds.get(number=1).seating["tables"][0]["seats"]
    assert f"Round 1 is over at this table: won by {seats['N']} & {seats['S']} (N-S)." in page
    assert "Wait for the director to seat round 2 once every table has finished" in page
    assert "(still playing: table 2)" in page
    assert "This page then shows who plays at table 1 by itself." in page
    assert 'name="expected_number"' not in page  # nothing more to record here


def test_the_same_deal_from_two_phones_is_recorded_once(client, round_one):
    address = f"/p/{link(round_one).token}/hand/"
    assert client.post(address, deal(expected_number="1")).status_code == 200
    again = client.post(address, deal("EW", expected_number="1"), HTTP_HX_REQUEST="true")
    assert again.status_code == 409
    page = page_of(again)
    assert "Not recorded." in page
    assert "Hand 1 is already recorded at this table" in page
    assert "the round's deals are played and one side is ahead (ruling P1)" in page
    assert [h["makers"] for h in hands(at_table(round_one))] == ["NS"]


def test_a_deal_sent_again_with_its_idempotency_key_is_answered_from_the_first(client, round_one):
    address = f"/p/{link(round_one).token}/hand/"
    form = deal(expected_number="1")
    first = client.post(address, form, HTTP_IDEMPOTENCY_KEY="hand-once", HTTP_HX_REQUEST="true")
    second = client.post(address, form, HTTP_IDEMPOTENCY_KEY="hand-once", HTTP_HX_REQUEST="true")
    assert first.status_code == second.status_code == 200
    assert second["Idempotent-Replayed"] == "true"
    assert second.content == first.content
    assert len(hands(at_table(round_one))) == 1


def test_a_bad_deal_is_refused_with_its_law_and_the_form_as_typed(client, round_one):
    answer = client.post(f"/p/{link(round_one).token}/hand/", deal("EW", "6", expected_number="1"))
    assert answer.status_code == 400
    page = page_of(answer)
    assert "Not recorded." in page and "law 2" in page
    assert 'value="EW" checked' in page  # what was typed comes back
    assert hands(at_table(round_one)) == []


def test_a_link_records_only_at_its_own_tables_rubber(client, round_one):
    other = at_table(round_one, number=2)
    answer = client.post(
        f"/p/{link(round_one, 1).token}/hand/",
        deal(expected_number="1", rubber=str(other.rubber_id)),
    )
    assert answer.status_code == 400
    page = page_of(answer)
    assert "This table's link records only table 1's own rubber of the round in play" in page
    assert 'data-field="rubber"' in page
    assert hands(other) == [] and hands(at_table(round_one, number=1)) == []


def test_the_next_round_seated_the_same_link_shows_and_records_its_new_rubber(
    client, round_one, director
):
    token = link(round_one).token
    play_out(round_one)
    page = page_of(client.get(f"/p/{token}/"))
    assert "Every table" not in page and "(still playing" not in page
    assert "Wait for the director to seat round 2, and move when the director calls you." in page
    rounds.round_seat_next(tournament_id=round_one.pk, user=director)
    table = at_table(round_one, round_number=2)
    seats = round_one.rounds.get(number=2).seating["tables"][0]["seats"]
    page = page_of(client.get(f"/p/{token}/"))
    assert "round 2" in page and "Round 1 is over" not in page
    assert f'<span class="seat-name">North</span> <strong>{seats["N"]}</strong>' in page
    assert f'name="rubber" value="{table.rubber_id}"' in page
    assert 'name="expected_number" value="1"' in page
    answer = client.post(
        f"/p/{token}/hand/", deal("EW", "4", expected_number="1", rubber=str(table.rubber_id))
    )
    assert "Hand 1 recorded." in page_of(answer)
    assert [h["makers"] for h in hands(table)] == ["EW"]


def test_a_deal_queued_for_the_round_before_is_not_recorded_in_the_next(
    client, round_one, director
):
    earlier = at_table(round_one)
    play_out(round_one)
    rounds.round_seat_next(tournament_id=round_one.pk, user=director)
    answer = client.post(
        f"/p/{link(round_one).token}/hand/",
        deal(expected_number="1", rubber=str(earlier.rubber_id)),
    )
    assert answer.status_code == 409
    page = page_of(answer)
    assert (
        "This hand was entered for round 1 at this table, which is over, so it was not "
        "recorded; if it belongs to round 2, now in play at this table, enter it again." in page
    )
    assert hands(at_table(round_one, round_number=2)) == []
    assert len(hands(earlier)) == 1  # play_out's deal alone


def test_a_table_the_round_does_not_seat_says_so(client, make, director):
    from club.models import Member

    tournament = make("rotation", deals=1)
    rounds.round_seat_next(tournament_id=tournament.pk, user=director)
    play_out(tournament)
    for name in ("Edith", "Frank", "Grace", "Hugh"):
        member = Member.objects.get(club=tournament.club, name=name)
        rounds.tournament_withdraw(tournament=tournament, member_id=member.pk)
    rounds.round_seat_next(tournament_id=tournament.pk, user=director)
    assert tournament.rounds.get(number=2).tables.count() == 1
    token = link(tournament, 2).token
    page = page_of(client.get(f"/p/{token}/"))
    assert "Table 2 is not in play in round 2:" in page
    assert 'name="expected_number"' not in page
    answer = client.post(f"/p/{token}/hand/", deal(expected_number="1"))
    assert answer.status_code == 400
    assert "Table 2 is not in play in round 2: nothing is recorded here" in page_of(answer)


def test_a_level_round_plays_on_one_deal_at_a_time(client, make, director):
    tournament = make("rotation", deals=2)
    rounds.round_seat_next(tournament_id=tournament.pk, user=director)
    address = f"/p/{link(tournament).token}/"
    client.post(f"{address}hand/", deal("NS", "3", expected_number="1"))
    answer = client.post(f"{address}hand/", deal("EW", "3", expected_number="2"))
    page = page_of(answer)
    assert "Level after the round's 2 deals: play one more deal at a time until one side " in page
    assert "(ruling P1)" in page
    assert "Hand <span data-next-label>3</span>" in page


def test_the_phones_poll_is_answered_304_until_the_table_changes(client, round_one):
    address = f"/p/{link(round_one).token}/"
    first = client.get(address, HTTP_HX_REQUEST="true")
    etag = first["ETag"]
    assert f'data-etag="{html.escape(etag)}"' in first.content.decode()
    assert client.get(address, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag).status_code == 304
    client.post(f"{address}hand/", deal(expected_number="1"))
    changed = client.get(address, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_the_phones_posts_are_throttled_as_the_apis_requests(round_one, monkeypatch):
    """Past the anonymous rate (config/ratelimit.py), 429 in words with Retry-After and the
    way back to the table's own page; nothing recorded, and not kept for its key, so the
    phone's queue sends the deal again once the wait is over."""
    from django.core.cache import cache
    from django.test import Client
    from rest_framework.settings import api_settings

    from config.throttles import AnonRateThrottle

    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "anon": "1/min"}
    monkeypatch.setattr(AnonRateThrottle, "THROTTLE_RATES", rates)
    token = link(round_one).token
    phone = Client(REMOTE_ADDR="10.0.0.5")
    assert phone.post(f"/p/{token}/hand/", {"tricks": "x"}).status_code == 400  # counted
    refused = phone.post(f"/p/{token}/hand/", deal(expected_number="1"), HTTP_IDEMPOTENCY_KEY="k")
    assert refused.status_code == 429 and refused["Retry-After"]
    page = page_of(refused)
    assert "Too many requests from this table; wait" in page
    assert f'href="/p/{token}/"' in page  # back to the table's page
    assert hands(at_table(round_one)) == []
    assert phone.get(f"/p/{token}/").status_code == 200  # reading is never counted
    cache.clear()  # the minute is over
    again = phone.post(f"/p/{token}/hand/", deal(expected_number="1"), HTTP_IDEMPOTENCY_KEY="k")
    assert again.status_code == 200 and "Hand 1 recorded." in page_of(again)


def test_the_tables_of_a_room_on_one_address_are_counted_per_table(round_one, monkeypatch):
    """A room's phones share the club's Wi-Fi, one address behind its NAT: counted per
    address, one busy table's phones used up every table's rate (THROTTLE_ANON). Each
    table's link has its own window; without a link, the address's is counted."""
    from django.test import Client
    from rest_framework.settings import api_settings
    from rest_framework.test import APIClient

    from config.throttles import AnonRateThrottle, _link_ident
    from tests.config.test_throttles import counted, statuses
    from tournaments.models import TournamentTable

    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "anon": "3/min"}
    monkeypatch.setattr(AnonRateThrottle, "THROTTLE_RATES", rates)

    tokens = dict(
        TournamentTable.objects.filter(tournament=round_one).values_list("number", "token")
    )
    room = "192.0.2.7"  # the club's one public address
    first, second = Client(REMOTE_ADDR=room), Client(REMOTE_ADDR=room)
    busy = [first.post(f"/p/{tokens[1]}/hand/", {"tricks": "x"}).status_code for _ in range(4)]
    assert busy == [400, 400, 400, 429]  # table 1's rate (3) used up
    assert second.post(f"/p/{tokens[2]}/hand/", {"tricks": "x"}).status_code == 400  # not 429
    assert counted(f"throttle_anon_{_link_ident(tokens[1])}") == 3
    assert counted(f"throttle_anon_{_link_ident(tokens[2])}") == 1
    assert counted(f"throttle_anon_{room}") == 0
    assert statuses(APIClient(REMOTE_ADDR=room), 4) == [200, 200, 200, 429]  # no link: per address


# --- a fresh link, age, and the tournament's end --------------------------------------------


def test_a_fresh_link_from_the_director_and_the_old_one_refused_in_words(
    client, directing, round_one
):
    old = link(round_one).token
    answer = directing.post(
        f"/secretary/tournaments/{round_one.pk}/act/", {"action": "new_link", "table": "1"}
    )
    assert "Table 1 has a fresh link: print its new card" in page_of(answer)
    new = link(round_one).token
    assert new != old and link(round_one).replaced_token == old
    for response in (client.get(f"/p/{old}/"), client.post(f"/p/{old}/hand/", deal())):
        assert response.status_code == 403
        page = page_of(response)
        assert DEAD_LINK["link_replaced"] in page and ASK_THE_DIRECTOR in page
    assert hands(at_table(round_one)) == []
    assert client.get(f"/p/{new}/").status_code == 200
    refused = directing.post(
        f"/secretary/tournaments/{round_one.pk}/act/", {"action": "new_link", "table": "9"}
    )
    assert "Choose one of the tournament's tables by its number." in page_of(refused)


def test_a_link_dies_the_clubs_hours_after_the_day_its_last_round_was_seated(client, round_one):
    token = link(round_one).token
    long_ago = timezone.now() - datetime.timedelta(days=3)
    Round.objects.filter(tournament=round_one).update(created_at=long_ago)
    assert client.get(f"/p/{token}/").status_code == 200  # it lives its hours from its issue
    TournamentTable.objects.filter(token=token).update(link_issued_at=long_ago)
    response = client.get(f"/p/{token}/")
    assert response.status_code == 403
    assert DEAD_LINK["link_expired"] in page_of(response)
    # The next round seated today brings the evening's links back to life.
    Round.objects.filter(tournament=round_one).update(created_at=timezone.now())
    assert client.get(f"/p/{token}/").status_code == 200


def test_a_finished_tournaments_links_record_nothing_more(client, directing, round_one):
    round_one.rounds_planned = 1
    round_one.save(update_fields=["rounds_planned"])
    token = link(round_one).token
    table = at_table(round_one)
    play_out(round_one)
    page = page_of(client.get(f"/p/{token}/"))
    over = (
        "The tournament is over: every table has played its last round, round 1, and this "
        "table's link records nothing more."
    )
    assert over in page
    assert f"/clubs/somerset/tournaments/{round_one.slug}/" in page  # the standings
    form = deal(expected_number="2", rubber=str(table.rubber_id))
    answer = client.post(f"/p/{token}/hand/", form)
    assert answer.status_code == 409
    assert over in page_of(answer)
    assert len(hands(table)) == 1
    cards = directing.get(f"/secretary/tournaments/{round_one.pk}/table-cards/")
    assert "The tournament is over: these tables' links record nothing more." in page_of(cards)


@pytest.mark.parametrize("token", ["not-a-token", "x" * 65, "%00"])
def test_a_token_that_never_was_a_link_is_not_found(client, round_one, token):
    assert client.get(f"/p/{token}/").status_code == 404
    assert client.post(f"/p/{token}/hand/", deal()).status_code == 404


def test_a_private_clubs_table_records_by_its_link_and_names_no_standings_page(client, round_one):
    round_one.club.is_public = False
    round_one.club.save(update_fields=["is_public"])
    token = link(round_one).token
    assert client.get(f"/p/{token}/").status_code == 200  # the card is the key
    page = page_of(client.post(f"/p/{token}/hand/", deal(expected_number="1")))
    assert "Hand 1 recorded." in page
    assert "/tournaments/" not in page


# --- where else links are issued: a restored backup, the migration -------------------------


def test_a_restored_club_gives_its_progressives_tables_fresh_links(round_one):
    from club.backup import club_export, club_import

    copy = club_import(data=club_export(club=round_one.club), slug="somerset-copy")
    restored = copy.tournaments.get(slug=round_one.slug)
    tokens = dict(restored.table_links.values_list("number", "token"))
    assert sorted(tokens) == [1, 2]
    assert not set(tokens.values()) & set(round_one.table_links.values_list("token", flat=True))


def test_the_migration_gives_a_link_to_every_table_number_seated_before(round_one):
    from importlib import import_module

    from django.apps import apps

    migration = import_module("tournaments.migrations.0013_table_links")
    TournamentTable.objects.all().delete()
    migration.issue_links(apps, None)
    assert sorted(round_one.table_links.values_list("number", flat=True)) == [1, 2]
