"""An evening played as far as the room display and a player's record need: six arrive,
four play at table 1 and two wait (law 12), hands recorded from the table's phone link
through the API. Used by the room and player-record tests, browser and not."""

import datetime
from decimal import Decimal

from rest_framework.test import APIClient

from club import evenings
from club.models import Evening
from tests.factories import MemberFactory

SIX = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank"]
# Euchre: march, march, three tricks, three times: the side wins three double games,
# a rubber worth 8 (rulings E1, E3, E4).
SWEEP = [5, 5, 3] * 3


def draw_cuts(evening: Evening) -> None:
    """Let the service draw every cut the laws ask for now (ruling T10)."""
    for _ in range(20):
        evening.refresh_from_db()
        pending = list(evening.state.get("pending_cuts", []))
        if not pending:
            return
        kind = "deal_jack" if pending[0]["purpose"] == "first-jack" else "cut"
        evenings.evening_act(evening_id=evening.pk, event={"type": kind, "draw": True})
    raise AssertionError("the cuts never ended")


def evening_with_a_table(club, *, players=SIX, date=datetime.date(1888, 11, 21)) -> Evening:
    """An open Euchre evening at 0.25 a point whose table 1 has cut for partners and deal."""
    for name in players:
        if not club.members.filter(name=name).exists():
            MemberFactory(club=club, name=name)
    evening = evenings.evening_open(
        club=club, date=date, ruleset="euchre-somerset-1888", stake=Decimal("0.25")
    )
    for name in players:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    draw_cuts(evening)
    evening.refresh_from_db()
    return evening


def record(evening: Evening, makers: str = "NS", tricks: int = 3, *, table: int = 1) -> None:
    """Record one Euchre hand from the table's phone link, through the API."""
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Table {evening.tables.get(number=table).token}")
    response = phone.post(
        f"/api/v1/clubs/{evening.club.slug}/evenings/{evening.pk}/tables/{table}/hands/",
        {"hand": {"makers": makers, "tricks": tricks}},
        format="json",
    )
    assert response.status_code == 201, response.content[:300]


def table_one(evening: Evening) -> dict:
    evening.refresh_from_db()
    return next(t for t in evening.state["tables"] if t["number"] == 1)


def form_all_tables(evening: Evening) -> None:
    """Form tables while four or more candidates are in the room (law 12: a table takes up
    to six, the fifth and sixth waiting), each cut drawn."""
    for _ in range(10):
        evening.refresh_from_db()
        if len(evening.state.get("candidates", [])) < 4:
            return
        evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
        draw_cuts(evening)
