"""The table's phone at a rubber's or a sitting's end. A rubber won (Euchre, Bridge): one
account of it, true to where the table is (law 15: before its cut in and out, and after),
each game citing its own laws (Euchre law 15, Bridge's "Cutting Out"), and the last hand
not taken back because the rubber is over (ruling E1, B7). A Call-Ace sitting closed and
settled (ruling C5): none of its deals offered for correction, one sent anyway refused as
the sitting's, and the entry form saying a new sitting begins with its deal 1 and who
deals it."""

import html
import re

import pytest
from django.test import Client

from club import evenings, recording
from core.errors import UserError
from scoring.models import Hand, Rubber
from tests.worlds import bridge_and_call_ace_in_play

pytestmark = pytest.mark.django_db

MARCH = {"makers": "NS", "tricks": "5"}
GRAND_SLAM = {"declarer": "NS", "trump": "NT", "tricks": {"NS": 13, "EW": 0}}


def page_of(response) -> str:
    """The page as a person reads it: its words, tags taken out, spaces as one."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def phone(table) -> str:
    return page_of(Client().get(f"/t/{table.token}/"))


def act(evening_id: int, **event) -> None:
    evenings.evening_act(evening_id=evening_id, event=event)


def shown(response) -> str:
    """The refusal as a person reads it."""
    page = response.content.decode()
    alert = page[page.index('data-testid="phone-error"') :].split(">", 1)[1].split("</div>")[0]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", alert)).split())


def euchre_won(played) -> int:
    """Table 1's Euchre rubber won by N-S marches; the number of its last hand."""
    number = 2
    while Rubber.objects.get(pk=played.rubber.pk).status == Rubber.Status.IN_PROGRESS:
        recording.hand_record(
            evening_id=played.evening.pk, table_number=1, data={"makers": "NS", "tricks": 5}
        )
        number += 1
    return number - 1


def test_a_euchre_rubber_over_says_so_once_true_to_the_cut(played):
    last = euchre_won(played)
    page = phone(played.table)
    # Before anyone has cut: what comes next, with Euchre's laws, and why the last hand
    # stays (the rubber is over, ruling E1), never that the table has cut already.
    assert (
        "The rubber is over. Before the next rubber begins, the secretary cuts players in and "
        "out (law 15 / ruling T5) and the four cut for partners and deal (law 11 / ruling T4)."
    ) in page
    assert (
        "The rubber is over (ruling E1), so its last hand is no longer taken back from the "
        "phone; correct its figures instead."
    ) in page
    assert "has cut in and out" not in page
    hand = Hand.objects.get(rubber=played.rubber, number=last)
    sent = {"take_back": str(last), "rubber": str(played.rubber.pk),
            "recorded_at": hand.recorded_at.isoformat()}  # fmt: skip
    answer = Client().post(f"/t/{played.table.token}/hand/", sent, HTTP_HX_REQUEST="true")
    assert answer.status_code == 400
    assert shown(answer) == (
        "Not taken back. The rubber is over (ruling E1), so its last hand is no longer taken "
        "back from the phone; correct its figures instead."
    )

    # The four cut for partners and tie (four knaves: cut again, laws 13-14): the table has
    # cut, and the page says so, the rubber still the phone's last.
    act(played.evening.pk, type="cut",
        cards={"Ann": "JS", "Bob": "JH", "Cora": "JD", "Dan": "JC"})  # fmt: skip
    assert Rubber.objects.filter(table=played.table).count() == 1
    page = phone(played.table)
    assert (
        "The rubber is over. The four cut for partners and deal before the next rubber begins "
        "(law 11 / ruling T4)."
    ) in page
    assert (
        "The rubber is over and the table has cut in and out on its end (law 15 / ruling T5): "
        "its last hand is not taken back; correct its figures instead."
    ) in page
    assert "secretary cuts players in and out" not in page


def test_a_bridge_rubber_over_cites_the_bridge_laws(played):
    table = bridge_and_call_ace_in_play(played.club).bridge
    evening_id = table.evening_id
    act(evening_id, type="arrive", player="Edith")  # waits, to cut in at the rubber's end
    for declarer in ["EW", "NS"]:  # the dealer's side declares (Declaring Trumps)
        data = {**GRAND_SLAM, "declarer": declarer}
        recording.hand_record(evening_id=evening_id, table_number=1, data=data)
    assert Rubber.objects.get(table=table).status == Rubber.Status.COMPLETE
    page = phone(table)
    assert (
        "The rubber is over. Before the next rubber begins, the secretary cuts players in and "
        "out (Bridge laws, Cutting Out / ruling T5) and the four cut for partners and deal "
        "(Bridge laws, Forming Tables / ruling T4)."
    ) in page
    assert (
        "The rubber is over (ruling B7), so its last hand is no longer taken back from the "
        "phone; correct its figures instead."
    ) in page
    assert "law 15" not in page and "has cut in and out" not in page

    # The four cut to see who goes out for Edith (ruling T5), and the table moves on: the
    # finished rubber's last hand, sent anyway (the API), is refused as after the cut.
    act(evening_id, type="cut", cards={"Ann": "2S", "Bob": "3S", "Cora": "4S", "Dan": "KS"})
    finished = Rubber.objects.filter(table=table).order_by("pk").first()
    assert Rubber.objects.filter(table=table).count() == 2
    with pytest.raises(UserError) as refused:
        recording.hand_remove(rubber_id=finished.pk, number=finished.hand_count, table=table)
    assert refused.value.message == (
        "The rubber is over and the table has cut in and out on its end (Bridge laws, Cutting "
        "Out / ruling T5): its last hand is not taken back; correct its figures instead."
    )


def test_a_settled_sitting_offers_no_correction_and_says_a_new_sitting_begins(played):
    world = bridge_and_call_ace_in_play(played.club)
    table, order = world.call_ace, world.call_ace_order
    for maker in order[1:3]:
        recording.hand_record(
            evening_id=table.evening_id, table_number=1, data={"maker": maker, "tricks": 3}
        )
    raw = Client().get(f"/t/{table.token}/").content.decode()
    assert "Correct deal 3" in raw
    correction = dict(
        re.findall(
            r'name="(\w+)" value="([^"]*)"', raw.split('data-kind="correct"')[1].split("</form>")[0]
        )
    )
    evenings.evening_close_sitting(evening_id=table.evening_id, table_number=1)

    page = phone(table)
    assert "Correct deal" not in page and "Take back deal" not in page
    assert (
        "The sitting was closed and settled (ruling C5). Its deals are no longer changed at "
        "the table: only the secretary, as the club's referee, may change them now. A new "
        f"sitting begins with its deal 1, which {order[3]} deals."
    ) in page
    # Three deals dealt round five from order[0]: the fourth player's turn is next, the
    # deal passing in rotation from one sitting to the next (law 3).
    assert f"{order[3]} deals deal 1; the deal passes to the left (law 3)." in page

    # The correction sent anyway (a page read before the sitting was closed).
    sitting = Rubber.objects.get(table=table)
    answer = Client().post(
        f"/t/{table.token}/hand/",
        {**correction, "maker": order[2], "tricks": "4"},
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 400, shown(answer)
    assert shown(answer) == (
        "Not recorded. Too late for the players to change deal 3: the sitting was closed and "
        "settled. Only the secretary, as the club's referee, may change it now. (ruling C5)"
    )
    assert Hand.objects.get(rubber=sitting, number=3).tricks == 3
