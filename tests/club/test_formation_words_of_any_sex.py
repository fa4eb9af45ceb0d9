"""The evening's log and the formation's decisions and refusals speak of a member without
"he", "his" or "him": members are of any sex. The laws' own words are quoted elsewhere as
they are; here the service speaks, and the rulings it cites are kept (T6, T8, T12, ...)."""

from __future__ import annotations

import re

from club.formation import EUCHRE, FormationError, apply
from club.history import describe
from tests.club.formation.formation_walk import Walk
from tests.club.formation.test_formation_euchre_evening import third_rubber
from tests.club.formation.test_formation_rulings_t8_t14 import four_at_table, made_up_fresh

GENDERED = re.compile(r"\b(he|his|him|himself|she|her|hers|herself)\b", re.IGNORECASE)


def refusal(walk: Walk, kind: str, **fields) -> str:
    try:
        apply(walk.state, {"type": kind, **fields})
    except FormationError as exc:
        return str(exc)
    raise AssertionError(f"{kind} {fields} was not refused")


def test_the_decisions_and_refusals_name_the_member_not_his_or_her():
    lines: list[str] = []
    # Ruling T12: the dealer's choice, and its refusal once made.
    walk = four_at_table()
    walk("cut", cards={"Ann": "JS", "Bob": "AH", "Cat": "9H", "Dan": "8S"})
    lines += walk("dealer_choice", table=1, seat="E")
    lines.append(refusal(walk, "dealer_choice", table=1, seat="S"))
    lines.append(refusal(walk, "depart", player="Ann"))  # law 19: leave the table first
    lines.append(refusal(walk, "leave", table=1, player="Ann"))  # law 18: in a rubber
    lines.append(refusal(walk, "cut", cut_id="x"))  # a cut with no cards
    # Law 16: a claim, withdrawn; an arrival while a cut to form a table is under way.
    walk.arrive("Eve", "Fay", "Gus", "Hal")
    lines += walk("claim", player="Eve", table=1)
    lines += walk("withdraw", player="Eve")
    lines.append(refusal(walk, "change_table", player="Eve", table=1))  # no table of Eve's
    walk("form_table")
    lines += walk("arrive", player="Ivy")
    # Ruling T6: a substitute's rubber booked to the absent member.
    walk = third_rubber()
    walk("substitute", table=1, player="Cat", substitute="Gus", consent=["Dan", "Eve", "Fay"])
    lines += walk("rubber_end", table=1)
    # Ruling T8 (Bridge): a fresh table made up, returning to the first table or not.
    lines += made_up_fresh(will_return=True).said
    lines += made_up_fresh(will_return=False).said
    # Ruling T8 at Euchre: no right of re-entry kept by making up a fresh table.
    euchre = Walk(EUCHRE)
    euchre.arrive("Ann", "Bob", "Cat", "Dan")
    euchre("form_table")
    lines.append(refusal(euchre, "change_table", player="Ann", table="new"))
    assert lines and all(lines), lines
    gendered = [line for line in lines if GENDERED.search(line)]
    assert not gendered, gendered
    assert any("chooses a seat" in line for line in lines)
    assert any("the rubber is booked to Cat although Gus played it" in line for line in lines)


def test_the_evenings_log_in_words_names_no_sex():
    """The board's history (club/history.py): the dealer's choice keeps its ruling."""
    choice = describe({"type": "dealer_choice", "table": 3, "seat": "E"})
    assert choice == "The dealer at table 3 chooses a seat (ruling T12)"
    assert describe({"type": "withdraw", "player": "Ann"}) == "Ann withdraws a claim"
    for kind in ("withdraw", "dealer_choice", "claim", "change_table", "announce", "leave"):
        text = describe({"type": kind, "player": "Ann", "table": 2})
        assert not GENDERED.search(text), text
