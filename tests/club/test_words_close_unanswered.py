"""Closing an evening with a table's play unanswered is refused naming it as its game
does: a Call-Ace table plays a sitting (ruling C5), and the refusal said "Rubbers are
still in play"."""

import pytest

from club import evenings, recording
from core.errors import UserError

pytestmark = pytest.mark.django_db


def test_a_call_ace_sitting_left_unanswered_is_named_as_a_sitting(club):
    evening = evenings.evening_open(
        club=club, date="1905-11-21", ruleset="call-ace-foster-1905", stake=1
    )
    for name in ["Ann", "Bob", "Cora", "Dan", "Edith"]:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    evening.refresh_from_db()
    order = evenings.evening_summary(evening=evening)["tables"][0]["playing"]
    # Law 1: the first jack thrown round deals.
    evenings.evening_act(
        evening_id=evening.pk, event={"type": "deal_jack", "table": 1, "cards": [[order[0], "JD"]]}
    )
    recording.hand_record(
        evening_id=evening.pk, table_number=1, data={"maker": order[0], "tricks": 3}
    )
    with pytest.raises(UserError) as refused:
        evenings.evening_close(evening_id=evening.pk)
    said = refused.value.message
    assert "table 1's sitting 1" in said
    assert "rubber" not in said.lower()
    evening.refresh_from_db()
    assert evening.status == "open"
