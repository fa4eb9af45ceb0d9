"""A stale board's refusal tells what another device did since it was loaded in people's
words: a cut's cards by their suits' symbols ("Ann J♥"), as the board and its history
show them, never the log's codes ("Ann JH"); the log keeps the code (ruling T10)."""

import html
import re

import pytest
from django.urls import reverse

from club import evenings
from club.models import Evening, EveningEvent

pytestmark = pytest.mark.django_db

FOUR = {"Ann": "JH", "Bob": "AH", "Cora": "KH", "Dan": "10H"}


def test_a_stale_boards_refusal_names_the_cards_cut_meanwhile_by_their_suits(
    client, secretary, evening
):
    for name in FOUR:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    loaded = Evening.objects.get(pk=evening.pk).version
    # Meanwhile another device enters the cut for partners and deal (ruling T4).
    evenings.evening_act(evening_id=evening.pk, event={"type": "cut", "cards": FOUR})
    client.force_login(secretary)
    answer = client.post(
        reverse("evening-board-action", args=[evening.pk]),
        {"type": "arrive", "player": "Edith", "version": str(loaded)},
    )
    page = answer.content.decode()
    alert = page[page.index('data-testid="refusal"') :].split("</div>", 1)[0]
    said = " ".join(html.unescape(re.sub(r"<[^>]+>", "", alert)).split())
    assert "The board was out of date" in said
    for name, card in {"Ann": "J♥", "Bob": "A♥", "Cora": "K♥", "Dan": "10♥"}.items():
        assert f"{name} {card}" in said
    assert not re.search(r"\b(10|[2-9JQKA])[SHDC]\b", said), said
    assert EveningEvent.objects.get(evening=evening, type="cut").data["cards"] == FOUR
