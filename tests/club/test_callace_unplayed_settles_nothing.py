"""A Call-Ace sitting closed before any deal was played settles nothing (ruling C5,
scoring.rules.call_ace.UNPLAYED_SITTING): it writes no settlement at all, where it wrote a
row of 0.00 for each player, and so the evening's ledgers (the board, the printable sheet,
the results page, the ledger CSV, the API's evening and the sitting's own ledger) listed
it as money settled. A sitting played after it settles as it always did; scoring 0016
takes the old rows of 0.00 away."""

import csv
import html
import io
import re
from decimal import Decimal
from importlib import import_module

import pytest
from django.apps import apps
from django.urls import reverse

from scoring.models import Rubber, Settlement
from tests.worlds import call_ace_jack_drawn

pytestmark = pytest.mark.django_db

NOTHING = "Nothing settled"


@pytest.fixture
def unplayed(club):
    """The sitting ended at once, before any deal was played."""
    return call_ace_jack_drawn(club, unplayed=True)[0]


@pytest.fixture
def unplayed_then_played(club):
    """The sitting ended at once, then a second of one deal, ended and settled (C5)."""
    return call_ace_jack_drawn(club, unplayed=True, played=True)[0]


def words(answer) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", answer.content.decode())).split())


def ledger_part(page: str, heading: str = "Ledger") -> str:
    """The words of a page from its ledger's heading on."""
    return page[page.index(heading) :]


def test_a_sitting_ended_before_any_deal_writes_no_settlement(
    client, secretary, secretary_api, club, unplayed
):
    sitting = Rubber.objects.get(evening=unplayed)
    assert (sitting.status, sitting.hand_count) == (Rubber.Status.COMPLETE, 0)
    assert not Settlement.objects.filter(rubber__evening=unplayed).exists()

    client.force_login(secretary)
    results = ledger_part(
        words(client.get(reverse("evening-results", args=[club.slug, unplayed.pk])))
    )
    assert f"{NOTHING} yet." in results and "0.00" not in results, results
    board = ledger_part(words(client.get(reverse("evening-board", args=[unplayed.pk]))))
    assert f"{NOTHING} yet." in board and "0.00" not in board.split("Close")[0], board
    sheet = ledger_part(words(client.get(reverse("evening-sheet", args=[unplayed.pk]))))
    assert f"{NOTHING}." in sheet and "0.00" not in sheet, sheet

    api = f"/api/v1/clubs/{club.slug}/"
    assert secretary_api.get(f"{api}evenings/{unplayed.pk}/").json()["ledger"] == {}
    assert not secretary_api.get(f"{api}rubbers/{sitting.pk}/").json()["ledger"]
    answer = secretary_api.get(f"{api}evenings/{unplayed.pk}/ledger.csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["date", "evening", "player"]
    assert rows[1:] == []  # no player listed as settling 0.00


def test_a_sitting_played_after_one_unplayed_settles_as_before(
    client, secretary_api, club, unplayed_then_played
):
    evening = unplayed_then_played
    first, second = Rubber.objects.filter(evening=evening).order_by("pk")
    assert not Settlement.objects.filter(rubber=first).exists()
    amounts = list(Settlement.objects.filter(rubber=second).values_list("amount", flat=True))
    assert len(amounts) == 4 and sum(amounts) == 0 and any(amounts)
    ledger = secretary_api.get(f"/api/v1/clubs/{club.slug}/evenings/{evening.pk}/").json()["ledger"]
    assert sorted(Decimal(amount) for amount in ledger.values()) == sorted(amounts)
    results = ledger_part(
        words(client.get(reverse("evening-results", args=[club.slug, evening.pk])))
    )
    assert NOTHING not in results


def test_the_migration_takes_the_old_rows_of_nothing_away(unplayed_then_played):
    evening = unplayed_then_played
    first, second = Rubber.objects.filter(evening=evening).order_by("pk")
    played = sorted(Settlement.objects.filter(rubber=second).values_list("member_id", "amount"))
    # As the service stored them before: a row of 0.00 for each player of the unplayed one.
    Settlement.objects.bulk_create(
        Settlement(rubber=first, member_id=seat.member_id, amount=Decimal("0.00"))
        for seat in first.seats.all()
    )
    assert Settlement.objects.filter(rubber=first).count() == 4
    import_module("scoring.migrations.0016_unplayed_sittings_settle_nothing").forwards(apps, None)
    assert not Settlement.objects.filter(rubber=first).exists()
    kept = sorted(Settlement.objects.filter(rubber=second).values_list("member_id", "amount"))
    assert kept == played


def test_a_members_page_counts_no_sitting_ended_before_any_deal(
    client, secretary, club, unplayed_then_played
):
    """The member's page (his figures, his season's scorecard, his list of rubbers) counts
    only the sitting played, as the evening's ledger does, and says of the other that it
    ended before any deal was played: it counted both as finished."""
    client.force_login(secretary)
    ann = club.members.get(name="Ann")
    page = words(client.get(reverse("player-detail", args=[club.slug, ann.pk])))
    assert "Rubbers finished 1 " in page, page
    scorecard = page[page.index("Season 1905, evening by evening") :]
    row = scorecard[scorecard.index("21 November 1905 Somerset Club") :]
    assert re.search(r"— Bob, Cora, Dan 1 0 0 ", row), row
    rubbers = page[page.rindex("Rubbers Date") :]
    assert "ended before any deal was played: it settles nothing (ruling C5)" in rubbers
    assert rubbers.count("Complete") == 1, rubbers


def test_the_room_display_lists_no_sitting_ended_before_any_deal_as_settled(
    client, club, unplayed_then_played
):
    """The room display listed the sitting ended before any deal among the sittings
    finished, "settled", and counted it."""
    evening = unplayed_then_played
    page = words(client.get(reverse("evening-room", args=[club.slug, evening.pk])))
    finished = page[page.index("Sittings finished") : page.index("Money")]
    assert finished.startswith("Sittings finished: 1 "), finished
    assert finished.count("settled") == 1, finished
