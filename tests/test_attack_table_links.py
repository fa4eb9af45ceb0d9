"""Attacks from a table's phone link on what is not its table's (club/confirmations.py).

The phone's confirm and dispute buttons post the rubber's id and the hand's number
(`/t/<token>/answer/`). A rubber of another club (a private one) was looked up and locked
before the link was checked against it, and refused as another table's, 403, where a
rubber no one has is "not waiting for the other side's word", 400: any link could tell,
by trying ids, which rubbers of every club have a hand waiting for the other side's word
(and hold their rows' locks meanwhile). Another club's rubber is now answered as one
that does not exist.
"""

import datetime
from decimal import Decimal

import pytest
from django.test import Client

from club import evenings, recording
from club.models import HandConfirmation, Table
from tests.factories import ClubFactory
from tests.worlds import club_in_play


@pytest.fixture
def waiting(db, django_capture_on_commit_callbacks):
    """A private club's rubber whose hand 2, recorded from its table's phone, waits for
    the other side's word (the club asks for it)."""
    world = club_in_play(django_capture_on_commit_callbacks)
    world.club.confirm_hands = True
    world.club.save()
    table = Table.objects.select_related("club", "evening").get(pk=world.table.pk)
    recording.hand_record(
        evening_id=world.evening.pk, table_number=1, data={"makers": "EW", "tricks": 3},
        table=table,
    )  # fmt: skip
    assert HandConfirmation.objects.filter(rubber=world.rubber, hand__number=2).exists()
    return world.rubber


@pytest.fixture
def other_phone(db) -> str:
    """The phone link of a table at another (public) club's evening."""
    club = ClubFactory(slug="tremont", name="Tremont Club")
    evening = evenings.evening_open(
        club=club, date=datetime.date(1888, 11, 21), ruleset="euchre-somerset-1888",
        stake=Decimal("0.25"),
    )  # fmt: skip
    for name in ["Eve", "Fay", "Gil", "Hal"]:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    return evening.tables.get(number=1).token


def _answer(token: str, rubber_id: int):
    body = {"rubber": rubber_id, "number": 2, "answer": "confirm", "by": "NS"}
    return Client().post(f"/t/{token}/answer/", body, headers={"HX-Request": "true"})


def test_another_clubs_link_cannot_tell_its_rubbers_from_none(waiting, other_phone):
    theirs = _answer(other_phone, waiting.pk)
    nobodys = _answer(other_phone, waiting.pk + 10_000)
    assert theirs.status_code == nobodys.status_code == 400
    said = theirs.content.decode()
    assert "Hand 2 is not waiting for the other side" in said  # as for no rubber
    assert "own table" not in said
    assert HandConfirmation.objects.get(rubber=waiting, hand__number=2).state == "unconfirmed"
