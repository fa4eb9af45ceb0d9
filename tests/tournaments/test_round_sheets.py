"""A round's score sheets on one page to print (tournaments.views_table.round_sheets): for
the club's directors only, every table of a seated round; a round not seated is 404.
Printed in chromium: tests/tournaments/test_browser_round_sheets.py."""

import pytest

from .test_director_corrections import words

pytestmark = pytest.mark.django_db


def test_every_table_of_the_round_with_its_players(directing, round_one):
    answer = directing.get(f"/secretary/tournaments/{round_one.pk}/rounds/1/sheets/")
    assert answer.status_code == 200
    said = words(answer)
    for table in round_one.rounds.get().seating["tables"]:
        seats = table["seats"]
        assert (
            f"Round 1, table {table['number']} N-S {seats['N']} & {seats['S']} · "
            f"E-W {seats['E']} & {seats['W']} · 1 deal a round"
        ) in said
    assert said.count("Still being played: 0 deals recorded so far.") == 2
    page = directing.get(f"/secretary/tournaments/{round_one.pk}/").content.decode()
    assert f"/secretary/tournaments/{round_one.pk}/rounds/1/sheets/" in page


def test_a_round_not_seated_or_another_clubs_is_not_found(
    client, directing, round_one, other_secretary
):
    url = f"/secretary/tournaments/{round_one.pk}/rounds/{{}}/sheets/"
    assert directing.get(url.format(2)).status_code == 404
    client.force_login(other_secretary)
    assert client.get(url.format(1)).status_code == 404


def test_a_round_played_for_no_stake_says_so_and_lists_no_money(directing, make, director, commit):
    """Ruling P2: a progressive without a stake settles nothing. Its finished rubber's sheet,
    on the table's page and on the round's printed sheets, listed a ledger of "0.00 USD"
    for each player; it says "Not played for money" as a rubber without a stake does."""
    from club import recording
    from tests.tournaments.conftest import sweep
    from tournaments import rounds

    tournament = make("rotation")  # rounds played as rubbers, no stake
    rounds.round_seat_next(tournament_id=tournament.pk, user=director)
    table = tournament.rounds.get().tables.get(number=1)
    for hand in sweep("NS"):
        commit(recording.hand_record, rubber_id=table.rubber_id, data=hand)
    base = f"/secretary/tournaments/{tournament.pk}/rounds/1"
    for address in (f"{base}/sheets/", f"{base}/tables/1/"):
        page = directing.get(address).content.decode()
        assert (
            "Not played for money: a progressive without a stake settles nothing (ruling P2)."
            in page
        ), address
        assert "0.00 USD" not in page, address
