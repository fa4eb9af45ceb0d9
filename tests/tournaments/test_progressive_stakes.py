"""A progressive's stake per point (ruling P2), the "rounds won" metric, and round 1 seated by
a cut whose cards are kept, drawn by the service or entered as cut (ruling T10)."""

from decimal import Decimal

import pytest

from club import recording
from config.api import UserError
from tests.tournaments.conftest import EIGHT, sweep
from tests.tournaments.test_progressive import seat
from tournaments import rounds, services
from tournaments.selectors import standings_published, tournament_ledger


@pytest.fixture
def staked(club, commit):
    def build(movement="cut", *, deals=None, stake="0.25"):
        tournament = services.tournament_create(
            club=club, name="Progressive", slug=f"s-{movement}", kind="progressive",
            ruleset="euchre-somerset-1888", movement=movement, deals_per_round=deals, stake=stake,
        )  # fmt: skip
        for name in EIGHT:
            rounds.tournament_enter(tournament=tournament, name=name)
        return tournament

    return build


def metrics(tournament) -> dict[str, dict]:
    tournament.refresh_from_db()
    return {r["name"]: r["metrics"] for r in standings_published(tournament=tournament)["rows"]}


def test_rubbers_settle_at_the_tournaments_stake(staked, commit):
    tournament = staked()
    first = seat(tournament)
    for table in first.tables.all():
        for hand in sweep("NS"):  # worth 8 (three double games, ruling E4)
            commit(recording.hand_record, rubber_id=table.rubber_id, data=hand)
    ledger = tournament_ledger(tournament=tournament)
    north = first.seating["tables"][0]["seats"]["N"]
    east = first.seating["tables"][0]["seats"]["E"]
    assert ledger[north] == Decimal("2.00") and ledger[east] == Decimal("-2.00")
    assert sum(ledger.values()) == 0
    assert metrics(tournament)[north]["stake_won"] == "2.00"


def test_fixed_deals_settle_at_the_difference_in_points(staked, commit):
    tournament = staked(deals=2, stake="0.10")
    first = seat(tournament)
    table = first.tables.get(number=1)
    for hand in [{"makers": "NS", "tricks": 5}, {"makers": "EW", "tricks": 3}]:  # 2 - 1
        commit(recording.hand_record, rubber_id=table.rubber_id, data=hand)
    unfinished = first.tables.get(number=2)
    commit(
        recording.hand_record,
        rubber_id=unfinished.rubber_id,
        data={"makers": "NS", "tricks": 5},
    )
    seats = first.seating["tables"][0]["seats"]
    ledger = tournament_ledger(tournament=tournament)
    assert ledger[seats["N"]] == ledger[seats["S"]] == Decimal("0.10")
    assert ledger[seats["E"]] == ledger[seats["W"]] == Decimal("-0.10")
    assert sum(ledger.values()) == 0
    shown = metrics(tournament)
    assert shown[seats["N"]]["rounds_won"] == 1 and shown[seats["E"]]["rounds_won"] == 0
    # Table 2 has played one deal of two: nobody there has won or settled yet.
    other = first.seating["tables"][1]["seats"]["N"]
    assert shown[other]["rounds_won"] == 0 and ledger[other] == Decimal("0.00")


def test_without_a_stake_nothing_settles(staked, commit):
    tournament = staked(stake=None)
    first = seat(tournament)
    for hand in sweep("EW"):
        commit(recording.hand_record, rubber_id=first.tables.get(number=1).rubber_id, data=hand)
    assert set(tournament_ledger(tournament=tournament).values()) == {Decimal("0.00")}


@pytest.mark.parametrize("stake", ["-1", "0.255", "a lot"])
def test_a_bad_stake_names_the_field(staked, stake):
    with pytest.raises(UserError) as error:
        staked(stake=stake)
    assert error.value.field == "stake"


def test_a_ladder_has_no_stake_of_its_own(club):
    with pytest.raises(UserError) as error:
        services.tournament_create(club=club, name="L", slug="l", kind="ladder", stake="1")
    assert error.value.field == "stake" and error.value.law == "ruling P2"


def test_rounds_won_ranks_the_standings(staked, commit):
    tournament = staked(stake=None)
    commit(services.tournament_update, tournament=tournament, precedence=["rounds_won", "points"])
    first = seat(tournament)
    for table in first.tables.all():
        for hand in sweep("NS" if table.number == 1 else "EW"):
            commit(recording.hand_record, rubber_id=table.rubber_id, data=hand)
    tournament.refresh_from_db()
    standings = standings_published(tournament=tournament)
    assert standings["precedence"][0]["key"] == "rounds_won"
    winners = {
        *(first.seating["tables"][0]["seats"][s] for s in "NS"),
        *(first.seating["tables"][1]["seats"][s] for s in "EW"),
    }
    assert {r["name"] for r in standings["rows"] if r["rank"] == 1} == winners


# Round 1 by the cut, never by the order the players were entered in (ruling T10).
# Euchre's cut (law 8, T1): knave highest, then ace, king, queen, ten, nine, eight, seven.
CARDS = {
    "Hugh": ["JS", "JH"], "Grace": ["AS", "AH"], "Frank": ["KS", "KH"], "Edith": ["QS", "QH"],
    "Dan": ["10S", "10H"], "Cora": ["9S", "9H"], "Bob": ["8S", "8H"], "Ann": ["7S", "7H"],
}  # fmt: skip


def test_round_one_is_seated_by_the_cards_entered_as_cut(staked):
    tournament = staked(stake=None)
    first = rounds.round_seat_next(tournament_id=tournament.pk, cards=CARDS)
    shown = rounds.round_as_dict(first)
    # The four best cuts make the head table; there the best deals from North, partnered
    # by the second, the third and fourth East and West (law 11, T4).
    assert shown["tables"][0]["seats"] == {"N": "Hugh", "S": "Grace", "E": "Frank", "W": "Edith"}
    assert shown["tables"][1]["seats"] == {"N": "Dan", "S": "Cora", "E": "Bob", "W": "Ann"}
    assert shown["drawn_by_service"] is False
    kept = {(c["purpose"], c["player"]): c["cards"] for c in shown["cuts"]}
    assert kept["tables", "Ann"] == ["7S"] and kept["partners at table 2", "Ann"] == ["7H"]


def test_a_tie_wants_the_card_cut_again(staked):
    tournament = staked(stake=None)
    tied = {**CARDS, "Ann": ["8D", "7H"]}  # Ann and Bob both cut an eight: they cut again
    with pytest.raises(UserError) as error:
        rounds.round_seat_next(tournament_id=tournament.pk, cards=tied)
    assert error.value.field == "cards" and error.value.law == "ruling T10"
    assert "cut again" in error.value.message
    assert not tournament.rounds.exists()


def test_a_refused_cut_says_in_words_what_is_missing_or_too_much(staked):
    """The director is told which players' cards are missing, for which cut, and how the
    cards are entered; not 'enter the card Ann and Bob cut for partners'."""
    tournament = staked(stake=None)
    short = {name: cards[:1] for name, cards in CARDS.items()}  # the cut for tables only
    with pytest.raises(UserError) as error:
        rounds.round_seat_next(tournament_id=tournament.pk, cards=short)
    assert error.value.message == (
        "No card is entered for Hugh, Grace, Frank and Edith in the cut for partners at "
        "table 1 (among Hugh, Grace, Frank and Edith). Enter each player's cards in the order "
        "he cut them: for places at the tables first, then for partners, and again after a "
        "tie, which is cut again (laws 13-14)."
    )
    with pytest.raises(UserError) as error:
        rounds.round_seat_next(tournament_id=tournament.pk, cards={**CARDS, "Zed": ["7D"]})
    assert error.value.message == "Cards were entered for Zed, who is not playing this round."
    assert not tournament.rounds.exists()


def test_the_rotation_places_round_one_by_the_cut(club, secretary_api):
    tournament = services.tournament_create(
        club=club, name="Chart", slug="chart", kind="progressive",
        ruleset="euchre-somerset-1888", movement="rotation",
    )  # fmt: skip
    for name in EIGHT:
        rounds.tournament_enter(tournament=tournament, name=name)
    cards = {name: [cards[0]] for name, cards in CARDS.items()}
    response = secretary_api.post(
        "/api/v1/clubs/somerset/tournaments/chart/rounds/", {"cards": cards}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["drawn_by_service"] is False
    assert {c["player"]: c["cards"] for c in body["cuts"]} == cards
    drawn = secretary_api.get("/api/v1/clubs/somerset/tournaments/chart/rounds/").json()
    assert drawn[0]["cuts"] == body["cuts"]


def test_a_round_drawn_by_the_service_keeps_its_cards(staked):
    tournament = staked(stake=None)
    shown = rounds.round_as_dict(seat(tournament))
    assert shown["drawn_by_service"] is True
    assert {c["player"] for c in shown["cuts"] if c["purpose"] == "tables"} == set(EIGHT)


def test_the_stake_is_fixed_once_a_round_is_seated(staked, secretary_api):
    tournament = staked(stake=None)
    changed = secretary_api.patch(
        "/api/v1/clubs/somerset/tournaments/s-cut/", {"stake": "0.50"}, format="json"
    )
    assert changed.status_code == 200 and changed.json()["stake"] == "0.50"
    first = seat(tournament)
    assert {t.rubber.stake for t in first.tables.select_related("rubber")} == {Decimal("0.50")}
    refused = secretary_api.patch(
        "/api/v1/clubs/somerset/tournaments/s-cut/", {"stake": "1"}, format="json"
    )
    assert refused.status_code == 400 and refused.json()["error"]["law"] == "ruling P2"


def test_a_round_of_deals_whose_rubber_is_won_before_they_run_out_is_over(staked, commit):
    """Ruling P1: a round of a fixed number of deals is over once they are played and one
    side is ahead; but its rubber may be won sooner (rulings E1-E4), and then no deal may be
    recorded. Such a round is over too, won by the side ahead on points (the rubber's
    winner when level), and settles at the difference in points (P2). It left the round
    without a winner: the next round could not be seated, nothing was won or settled."""
    tournament = staked(deals=10, stake="0.10")
    first = seat(tournament)
    for table in first.tables.all():
        for hand in sweep("NS"):  # nine hands win the rubber: no tenth deal may be played
            commit(recording.hand_record, rubber_id=table.rubber_id, data=hand)
    assert {r.winners.get(1) for r in rounds.round_results(tournament=tournament)} == {"NS"}
    second = seat(tournament)  # the round is over: the next is seated
    assert second.number == 2
    seats = first.seating["tables"][0]["seats"]
    shown = metrics(tournament)
    assert shown[seats["N"]]["rounds_won"] == 1 and shown[seats["E"]]["rounds_won"] == 0
    ledger = tournament_ledger(tournament=tournament)
    points = sum(2 + 2 + 1 for _ in range(3))  # march, march, three tricks, three times
    assert ledger[seats["N"]] == ledger[seats["S"]] == Decimal("0.10") * points
    assert ledger[seats["E"]] == Decimal("-0.10") * points
    assert sum(ledger.values()) == 0


def test_the_migration_rolls_up_rounds_won_before_their_deals_ran_out(staked, commit):
    """Seats rolled up before: tournaments 0011 rolls such rounds' seats up afresh and marks
    the standings for recalculation."""
    from importlib import import_module

    from django.apps import apps

    from scoring.models import RubberPlayer
    from tournaments.models import StandingsDirty

    tournament = staked(deals=10, stake="0.10")
    first = seat(tournament)
    table = first.tables.get(number=1)
    for hand in sweep("NS"):
        commit(recording.hand_record, rubber_id=table.rubber_id, data=hand)
    seats = RubberPlayer.objects.filter(rubber_id=table.rubber_id)
    seats.update(round_won=False, stake_won=0)  # as the roll-up before had them
    StandingsDirty.objects.all().delete()
    import_module("tournaments.migrations.0011_fixed_deal_rounds_won_early").forwards(apps, None)
    assert sorted(seats.filter(round_won=True).values_list("side", flat=True)) == ["NS", "NS"]
    assert StandingsDirty.objects.filter(tournament=tournament).exists()


def test_the_players_page_shows_the_stake_won_the_standings_rank_by(staked, commit, client):
    """Ruling P2 (docs/movements.md): a round of fixed deals settles at the difference of
    the sides' points once it is over, even when its rubber was won before its deals ran
    out. The player's page and the API's record said "Stake won" from the rubbers'
    settlements: nothing for a round over by its deals (no rubber was finished), and the
    rubber's value times the stake for one won early, where the standings' stake won, the
    tournament's ledger and the page's own scorecard have the difference in points."""
    from club.models import Member

    tournament = staked(deals=10, stake="0.10")
    first = seat(tournament)
    early, by_deals = first.tables.get(number=1), first.tables.get(number=2)
    for hand in sweep("NS"):  # the rubber won (worth 8) in nine deals: 15 points to 0
        commit(recording.hand_record, rubber_id=early.rubber_id, data=hand)
    for hand in [{"makers": "EW", "tricks": 3}] * 4 + [{"makers": "NS", "tricks": 5}] * 6:
        commit(recording.hand_record, rubber_id=by_deals.rubber_id, data=hand)  # NS 12, EW 4
    shown = metrics(tournament)
    ledger = tournament_ledger(tournament=tournament)
    for table, expected in ((early, "1.50"), (by_deals, "0.80")):
        seats = first.seating["tables"][table.number - 1]["seats"]
        for seat_name, sign in (("N", ""), ("E", "-")):
            name = seats[seat_name]
            assert shown[name]["stake_won"] == sign + expected
            assert ledger[name] == Decimal(sign + expected)
            member = Member.objects.get(club=tournament.club, name=name)
            record = client.get(f"/api/v1/clubs/{tournament.club.slug}/players/{member.pk}/")
            assert record.json()["figures"]["stake_won"] == sign + expected, name
            page = client.get(f"/clubs/{tournament.club.slug}/players/{member.pk}/")
            # Written by the one `money` filter: a plus for a win, a true minus for a loss.
            written = {"": 'class="won">+', "-": 'class="lost">\u2212'}[sign]
            assert f"<dd {written}{expected} USD</dd>" in page.content.decode(), name


def test_a_round_won_early_stores_its_money_at_the_difference_in_points(staked, commit, api):
    """Ruling P2: the round's rubber won before its deals ran out settles at the difference
    of the sides' points (15 to 0 at 0.10: 1.50), as the standings and the sheet have it,
    not at the rubber's value (8 at 0.10: 0.80, ruling M1 for an evening's rubber): its
    stored settlement, and so the rubber's ledger in the API, say the same."""
    from scoring.models import Settlement

    tournament = staked(deals=10, stake="0.10")
    table = seat(tournament).tables.get(number=1)
    for hand in sweep("NS"):
        commit(recording.hand_record, rubber_id=table.rubber_id, data=hand)
    stored = sorted(
        Settlement.objects.filter(rubber_id=table.rubber_id).values_list("amount", flat=True)
    )
    assert stored == [Decimal("-1.50"), Decimal("-1.50"), Decimal("1.50"), Decimal("1.50")]
    ledger = tournament_ledger(tournament=tournament)
    assert sorted(amount for amount in ledger.values() if amount) == stored  # the others' 0
    body = api.get(f"/api/v1/clubs/{tournament.club.slug}/rubbers/{table.rubber_id}/").json()
    assert sorted(Decimal(v) for v in body["ledger"].values()) == stored


def test_the_migration_writes_a_round_won_earlys_money_again(staked, commit):
    """scoring 0014: a settlement stored at the rubber's value before is written again at
    the difference in points."""
    from importlib import import_module

    from django.apps import apps

    from scoring.models import Settlement

    tournament = staked(deals=10, stake="0.10")
    table = seat(tournament).tables.get(number=1)
    for hand in sweep("NS"):
        commit(recording.hand_record, rubber_id=table.rubber_id, data=hand)
    stored = Settlement.objects.filter(rubber_id=table.rubber_id)
    before = sorted(stored.values_list("member_id", "amount"))
    for row in stored:  # as the service stored them before: the rubber's value, 8 points
        row.amount = Decimal("0.80") if row.amount > 0 else Decimal("-0.80")
        row.save()
    import_module("scoring.migrations.0014_fixed_deal_settlements").forwards(apps, None)
    assert sorted(stored.values_list("member_id", "amount")) == before
    assert sorted(stored.values_list("amount", flat=True))[-1] == Decimal("1.50")


def test_the_standings_write_the_stake_won_as_money(staked, commit, client):
    """Ruling M1: a tournament ranked by "Stake won" writes it as every other page writes
    money, through the one `money` filter: a win with its plus, a loss with a true minus
    (U+2212), the club's currency in the column's head. The standings page, its live
    fragment and the room display showed the bare figure, "2.00" and "-2.00"."""
    tournament = staked(stake="0.25")
    tournament.precedence = ["stake_won", "rubbers_won"]
    tournament.save(update_fields=["precedence"])
    first = seat(tournament)
    for hand in sweep("NS"):  # worth 8 at 0.25: 2.00 a player
        commit(recording.hand_record, rubber_id=first.tables.get(number=1).rubber_id, data=hand)
    base = f"/clubs/{tournament.club.slug}/tournaments/{tournament.slug}"
    for address in (f"{base}/", f"{base}/standings/", f"{base}/room/", f"{base}/room/live/"):
        page = client.get(address).content.decode()
        assert "Stake won (USD)" in page, address
        assert '<td class="num won">+2.00</td>' in page, address
        assert '<td class="num lost">\u22122.00</td>' in page, address
        assert ">-2.00<" not in page and ">2.00<" not in page, address
