"""The director's other doors counted as the board's posts are.

A progressive's round table scored by its director (its deals, sent by the page's queue,
and its corrections) and the form making a new tournament took posts without counting
them, where the board's buttons, the people page, the form opening an evening and the
director's buttons are counted per account in the API's windows (THROTTLE_USER,
config.ratelimit.api_rate_wait): a script could record and correct deals, or make
tournaments, by the thousand. Past the rate each is refused with 429, Retry-After and
the page saying in words how long to wait, nothing done, what was typed kept; an ordinary
director, under the rate, is never refused."""

import html
import re

import pytest

from core.models import IdempotencyRecord
from scoring.models import Hand
from tests.tournaments.test_director_pages import new_form
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

WAIT_WORDS = (
    r"Too many requests from your account in the last minute; wait (\d+) seconds and try again\."
)


def url(tournament, round_number=1, number=1):
    return f"/secretary/tournaments/{tournament.pk}/rounds/{round_number}/tables/{number}/"


def text(answer) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", answer.content.decode())).split())


def waited(answer) -> int:
    """The refusal's wait, said in words and in Retry-After alike (55 to 60 seconds)."""
    assert answer.status_code == 429
    wait = int(answer["Retry-After"])
    assert 55 <= wait <= 60
    found = re.search(WAIT_WORDS, text(answer))
    assert found, text(answer)
    assert int(found.group(1)) == wait
    return wait


def deal(number: int, makers: str = "NS", tricks: str = "3") -> dict:
    return {"makers": makers, "tricks": tricks, "expected_number": str(number)}


def test_past_the_rate_a_deal_at_the_directors_table_is_refused_and_not_recorded(
    directing, four_deals, rates
):
    rubber = four_deals.rounds.get(number=1).tables.get(number=1).rubber
    # Five posts a minute (`rates`): an ordinary director's three deals and two refusals
    # are answered as ever, none refused for the rate.
    answers = [directing.post(url(four_deals), deal(n)) for n in (1, 2, 3)]
    answers += [directing.post(url(four_deals), deal(1)) for _ in range(2)]  # sent twice
    assert [a.status_code for a in answers] == [302, 302, 302, 409, 409]
    # The sixth, sent by the page's queue with its key: refused, nothing recorded or kept
    # (the queue keeps the deal and sends it again after the wait, in these words).
    queued = directing.post(
        url(four_deals), deal(4, "EW"), HTTP_IDEMPOTENCY_KEY="deal-4", HTTP_HX_REQUEST="true"
    )
    waited(queued)
    assert "Nothing was recorded." in text(queued)
    assert not IdempotencyRecord.objects.filter(key="deal-4").exists()
    # Posted without the page's script: the sheet, the form as typed.
    posted = directing.post(url(four_deals), deal(4, "EW"))
    waited(posted)
    assert "Not recorded." in text(posted)
    assert 'value="EW" checked' in posted.content.decode()
    assert Hand.objects.filter(rubber=rubber).count() == 3


def test_past_the_rate_a_correction_at_the_directors_table_is_refused_and_not_made(
    directing, four_deals, rates
):
    rubber = four_deals.rounds.get(number=1).tables.get(number=1).rubber
    assert directing.post(url(four_deals), deal(1)).status_code == 302
    for _ in range(4):
        directing.post(url(four_deals), deal(1))  # refused as recorded: counted all the same
    correction = {**deal(1, "EW"), "change": "correct", "correct": "1", "reason": "Misheard"}
    refused = directing.post(url(four_deals), correction)
    waited(refused)
    assert "Not corrected." in text(refused)
    assert "Misheard</textarea>" in refused.content.decode()  # the reason as typed
    hand = Hand.objects.get(rubber=rubber, number=1)
    assert hand.data["makers"] == "NS" and not hand.corrections.exists()


def test_past_the_rate_a_new_tournament_is_refused_and_not_made(directing, club, rates):
    path = f"/secretary/clubs/{club.slug}/tournaments/new/"
    answers = [directing.post(path, new_form(slug=f"t{n}")) for n in range(1, 5)]
    answers.append(directing.post(path, new_form(slug="t1")))  # its address taken: refused, 400
    assert [a.status_code for a in answers] == [302, 302, 302, 302, 400]
    refused = directing.post(path, new_form(slug="t6", name="Sixth progressive"))
    waited(refused)
    assert "No tournament was created." in text(refused)
    page = refused.content.decode()
    assert 'value="Sixth progressive"' in page and 'value="t6"' in page  # as typed
    assert sorted(Tournament.objects.filter(club=club).values_list("slug", flat=True)) == [
        "t1", "t2", "t3", "t4",
    ]  # fmt: skip
