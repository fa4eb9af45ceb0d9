"""Whole evenings of Bridge and Call-Ace through the service, figures by the laws."""

import datetime
from decimal import Decimal

import pytest

from club import evening_log, evenings, recording
from scoring.models import Rubber
from tests.worlds import assert_replayed


def open_evening(club, ruleset):
    return evenings.evening_open(
        club=club, date=datetime.date(1907, 3, 1), ruleset=ruleset, stake=Decimal("0.10")
    )


def act(evening, **event):
    return evenings.evening_act(evening_id=evening.pk, event=event)


def summary(evening):
    evening.refresh_from_db()
    return evenings.evening_summary(evening=evening)


# Ruling B1: hearts 8 a trick; ten tricks are four odd, 32: game (ruling B2). Honours,
# three of five held by N-S with two in one hand: 2 x 8 = 16 above the line (ruling B3).
HEARTS_GAME = {"declarer": "NS", "trump": "H", "doubles": 0, "tricks": {"NS": 10, "EW": 3},
               "honours": {"side": "NS", "held": 3, "in_one_hand": 2}}  # fmt: skip


def test_a_bridge_evening_four_lowest_play_and_the_highest_go_out(club):
    evening = open_evening(club, "bridge-elwell-1907")
    for name in ["Ann", "Bob", "Cora", "Dan", "Edith"]:
        act(evening, type="arrive", player=name)
    act(evening, type="form_table")
    # Ruling T1: at Bridge the ace is lowest; the four lowest play (ruling T3).
    act(evening, type="cut", cards={"Ann": "AH", "Bob": "2H", "Cora": "3H", "Dan": "4H",
                                     "Edith": "KS"})  # fmt: skip
    table = summary(evening)["tables"][0]
    assert sorted(table["playing"]) == ["Ann", "Bob", "Cora", "Dan"]
    assert table["waiting"] == ["Edith"]
    act(evening, type="cut", cards={"Ann": "AD", "Bob": "2D", "Cora": "3D", "Dan": "4D"})
    table = summary(evening)["tables"][0]
    assert table["dealer"] == "Ann"  # Bridge: the lowest deals (ruling T4)
    ns = table["partners"]["NS"]
    # The dealer's side declares (Bridge laws, Declaring Trumps): Ann's, then E-W's; N-S
    # take the ten tricks either way.
    for declarer in ["NS", "EW"]:
        hand = {**HEARTS_GAME, "declarer": declarer}
        recording.hand_record(evening_id=evening.pk, table_number=1, data=hand)
    rubber = Rubber.objects.get(evening=evening)
    # Ruling B7: two games win; the winners add 100. NS: 32 + 32 below, 16 + 16 + 100
    # above = 196; EW nothing: the rubber is worth 196.
    assert (rubber.status, rubber.winner, rubber.value) == ("complete", "NS", 196)
    ledger = evenings.evening_ledger(evening=evening)
    assert ledger[ns[0]] == Decimal("19.60") and sum(ledger.values()) == 0
    # Edith, waiting, claims (ruling T5); all four have one rubber: they cut and, at
    # Bridge, the highest goes out.
    pending = summary(evening)["pending_cuts"][0]
    assert pending["purpose"] == "cut-out"
    act(evening, type="cut", cards={"Ann": "AC", "Bob": "2C", "Cora": "3C", "Dan": "KC"})
    table = summary(evening)["tables"][0]
    assert "Dan" not in table["playing"] and "Edith" in table["playing"]
    assert table["waiting"] == ["Dan"]


def test_a_call_ace_evening_first_jack_deals_and_the_sitting_settles(club):
    evening = open_evening(club, "call-ace-foster-1905")
    players = ["Ann", "Bob", "Cora", "Dan", "Edith"]
    for name in players:
        act(evening, type="arrive", player=name)
    act(evening, type="form_table")
    table = summary(evening)["tables"][0]
    assert table["seats"] is None  # ruling T1: seats are not cut at Call-Ace
    order = table["playing"]
    # Law 1: a card is thrown round face up; the first jack deals.
    act(evening, type="deal_jack", table=1,
        cards=[[order[0], "9S"], [order[1], "KH"], [order[2], "JD"]])  # fmt: skip
    assert summary(evening)["tables"][0]["dealer"] == order[2]
    sitting = Rubber.objects.get(evening=evening)
    assert sitting.players == order
    # Ruling C2: a march with a partner scores 3 each with five players.
    deal = {"maker": order[0], "partner": order[1], "alone": False, "tricks": 5}
    recording.hand_record(evening_id=evening.pk, table_number=1, data=deal)
    # Alone, a march scores as many points as there are players: 5 (law 45).
    lone = {"maker": order[3], "partner": None, "alone": True, "tricks": 5}
    recording.hand_record(evening_id=evening.pk, table_number=1, data=lone)
    evenings.evening_close_sitting(evening_id=evening.pk, table_number=1)
    sitting.refresh_from_db()
    assert sitting.status == "complete"
    totals = sitting.summary["totals"]
    assert [totals[p] for p in order] == [3, 3, 0, 5, 0]
    # Ruling C5: net = (n x own - sum of all) x stake; sum 11, n 5.
    ledger = evenings.evening_ledger(evening=evening)
    assert ledger[order[3]] == Decimal("1.40")  # (25 - 11) x 0.10
    assert ledger[order[2]] == Decimal("-1.10")  # (0 - 11) x 0.10
    assert sum(ledger.values()) == 0
    # The same players sit on: the next deal opens a new sitting.
    recording.hand_record(evening_id=evening.pk, table_number=1, data=deal)
    assert Rubber.objects.filter(evening=evening).count() == 2


@pytest.mark.parametrize("ruleset", ["bridge-elwell-1907", "call-ace-foster-1905"])
def test_the_log_replays_to_the_same_evening(club, ruleset, tmp_path):
    if ruleset == "bridge-elwell-1907":
        test_a_bridge_evening_four_lowest_play_and_the_highest_go_out(club)
    else:
        test_a_call_ace_evening_first_jack_deals_and_the_sitting_settles(club)
    from club.models import Evening

    evening = Evening.objects.get()
    log = evening_log.evening_export(evening=evening)
    before = summary(evening)
    replayed = evening_log.evening_replay(log=log, club=club)
    after = evenings.evening_summary(evening=replayed)
    assert_replayed(after, before)


def test_law_3_the_first_dealer_leaving_a_call_ace_table_passes_the_deal_on(club):
    # The table's first dealer leaves mid-sitting (law 1): the sitting ends, settled as it
    # stood (ruling C5), and the players still there begin a new one, dealt first by the
    # player on his left (law 3). The phone and the room named no dealer, or the one gone.
    from club.history import evening_history
    from club.phone import table_seats
    from club.selectors_room import evening_room
    from tests.worlds import bridge_and_call_ace_in_play

    world = bridge_and_call_ace_in_play(club)
    table, order = world.call_ace, world.call_ace_order
    evening = table.evening
    act(evening, type="leave", table=1, player=order[0])
    first, second = Rubber.objects.filter(table=table).order_by("pk")
    assert first.status == Rubber.Status.COMPLETE and first.hand_count == 1
    assert second.status == Rubber.Status.IN_PROGRESS and second.players == order[1:]
    evening.refresh_from_db()
    seats = table_seats(table=table, rubber=second, hands=[])
    assert seats["dealer"] == order[1]
    assert [seat["player"] for seat in seats["seats"] if seat["deals"]] == [order[1]]
    assert evening_room(evening=evening)["tables"][0]["dealer"].startswith(order[1])
    entry = evening_history(evening=evening)["entries"][0]
    assert entry["what"] == (
        f"{order[0]} leaves table 1: any sitting in play there is closed and settled as it "
        "stood (ruling C5)"
    )
    assert f"{order[1]}, on {order[0]}'s left, deals first" in entry["decisions"][0]


def test_law_3_the_deal_passes_on_from_one_sitting_to_the_next(club):
    # The deal passes in regular rotation to the left (law 3): a sitting settled by the
    # secretary, or ended by a player leaving or joining (ruling C5), does not give the
    # first jack's dealer the deal again; one due to deal who has left is passed over.
    from club.phone import table_seats
    from club.selectors_room import evening_room
    from tests.worlds import bridge_and_call_ace_in_play

    world = bridge_and_call_ace_in_play(club)  # five; order[0] dealt deal 1
    table, order = world.call_ace, world.call_ace_order
    evening = table.evening
    # The first sitting is dealt first by the first jack's dealer (law 1), as thrown.
    assert Rubber.objects.filter(table=table).get().first_dealer == order[0]
    for maker in order[1:3]:  # deals 2 and 3, dealt by order[1] and order[2]
        recording.hand_record(
            evening_id=evening.pk, table_number=1, data={"maker": maker, "tricks": 3}
        )
    evenings.evening_close_sitting(evening_id=evening.pk, table_number=1)
    recording.hand_record(
        evening_id=evening.pk, table_number=1, data={"maker": order[0], "tricks": 3}
    )
    second = Rubber.objects.filter(table=table).order_by("pk").last()
    assert second.first_dealer == order[3]  # not order[0] again
    # order[4] deals the second sitting's deal 2; he leaves: the sitting ends (C5) and the
    # four still there begin another, dealt by the one on his left, order[0].
    act(evening, type="leave", table=1, player=order[4])
    third = Rubber.objects.filter(table=table).order_by("pk").last()
    assert (third.players, third.first_dealer) == (order[:4], order[0])
    recording.hand_record(
        evening_id=evening.pk, table_number=1, data={"maker": order[2], "tricks": 3}
    )
    evening.refresh_from_db()
    assert table_seats(table=table, rubber=third, hands=[])["dealer"] == order[0]
    room = evening_room(evening=evening)["tables"][0]["dealer"]
    assert room.startswith(order[1]), room  # deal 2 of the third sitting
