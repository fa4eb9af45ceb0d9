"""The board's "Draw for them" draws the cut it stands under (ruling T10), not merely the
first waiting: with two Bridge tables waiting to cut for partners and deal (ruling T4),
the second table's button seats the second table. The service drew for whichever cut
was waiting first, so the second table's button cut the first table's partners."""

import datetime
from decimal import Decimal

import pytest

from club import evenings
from club.models import Evening

TWELVE = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank",
          "Grace", "Hugh", "Iris", "Jack", "Kim", "Lou"]  # fmt: skip


# Twelve different cards, lowest first at Bridge (ruling T1): the first cutters play.
DECK = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH"]


def act(evening, **event):
    evenings.evening_act(evening_id=evening.pk, event=event)


def pending(evening):
    return evenings.evening_state(Evening.objects.get(pk=evening.pk)).pending


@pytest.fixture
def two_tables_to_seat(club):
    """A Bridge evening of twelve: two tables formed by cutting (ruling T3), each waiting
    for its four to cut for partners and deal (ruling T4)."""
    evening = evenings.evening_open(
        club=club, date=datetime.date(1907, 3, 1), ruleset="bridge-elwell-1907",
        stake=Decimal("0.10"),
    )  # fmt: skip
    for name in TWELVE:
        act(evening, type="arrive", player=name)
    for _ in range(2):
        act(evening, type="form_table")
        forming = next(c for c in pending(evening) if c.purpose == "form-table")
        cards = dict(zip(forming.cutters, DECK, strict=False))  # entered, as cut
        act(evening, type="cut", cards=cards)
    return evening


def test_draw_for_them_draws_the_cut_whose_button_was_pressed(
    client, secretary, two_tables_to_seat
):
    evening = two_tables_to_seat
    cuts = pending(evening)
    assert [c.purpose for c in cuts] == ["partners-and-deal", "partners-and-deal"]
    first, second = cuts
    client.force_login(secretary)
    page = client.get(f"/secretary/evenings/{evening.pk}/").content.decode()
    # Each cut's form names its cut, as the button under it sends it.
    assert f'name="cut_id" value="{second.id}"' in page
    evening.refresh_from_db()
    client.post(
        f"/secretary/evenings/{evening.pk}/action/",
        {"type": "cut", "cut_id": second.id, "draw": "1", "version": evening.version},
    )
    left = pending(evening)
    assert [c.id for c in left] == [first.id]
    state = evenings.evening_state(Evening.objects.get(pk=evening.pk))
    assert state.table(second.table).dealer is not None
    assert state.table(first.table).dealer is None


def test_a_draw_for_a_cut_no_longer_waiting_names_its_table(client, secretary, two_tables_to_seat):
    """Ruling T10: a cut made meanwhile (here at the API, which sends no version) is not
    drawn again; the refusal says which table's cut, as the cut's heading names it."""
    evening = two_tables_to_seat
    second = pending(evening)[1]
    act(evening, type="cut", cut_id=second.id, cards=dict(zip(second.cutters, DECK, strict=False)))
    client.force_login(secretary)
    page = client.post(
        f"/secretary/evenings/{evening.pk}/action/",
        {"type": "cut", "cut_id": second.id, "table": second.table, "draw": "1"},
    ).content.decode()
    assert f"At table {second.table}: no cut is waiting to be made." in page
    assert len(pending(evening)) == 1
