"""Posts the director's page never sends (a crafted post, a page kept from another
tournament): each refused in words naming its field (the player, the evening, the table,
the round, the metrics to rank by) and what to do, never as a bare "give a whole number",
and never listing the metrics by their internal keys, only by the names the page's lists
show; nothing changes."""

import html
import re

import pytest

from tournaments.metrics import METRICS
from tournaments.models import Tournament

from .test_director_corrections import words
from .test_tournament_end import act

pytestmark = pytest.mark.django_db

#: The metrics the "Ranked by" lists offer a Euchre progressive of fixed deals (`round_one`):
#: no Bridge honours (a Bridge metric), nor net rubber points or rubbers won (no rubber is
#: played out at fixed deals, ruling P1). A refusal names these and no other.
NAMES = (
    "points won, rounds won, games won, marches, lone hands made, euchres suffered, "
    "head-to-head and stake won"
)


def offered(page: str) -> str:
    """The first "Ranked by" list's choices, in words, as a refusal names them."""
    select = page[page.index('id="precedence-1"') :].split("</select>", 1)[0]
    titles = [t.lower() for t in re.findall(r'<option value="[^"]+"[^>]*>([^<]+)<', select)]
    return f"{', '.join(titles[:-1])} and {titles[-1]}"


def refused(answer) -> str:
    """The page's refusals (role="alert"), in words."""
    assert answer.status_code == 400
    alerts = re.findall(r'role="alert"[^>]*>(.*?)</p>', answer.content.decode(), re.S)
    return " ".join(words(type("R", (), {"content": a.encode()})) for a in alerts)


def no_keys(said: str) -> None:
    for key in METRICS:
        if "_" in key:
            assert key not in said, key
    assert "Give a whole number" not in said


@pytest.mark.parametrize(
    ("form", "said"),
    [
        ({"action": "leave", "member": "abc"}, "The player is chosen from the tournament's "
         "list of players, and 'abc' is none of them: reload the page and choose again."),
        ({"action": "bye", "member": "1e3"}, "The player is chosen from the tournament's list "
         "of players, and '1e3' is none of them"),
        ({"action": "unbye", "member": "-2"}, "The player is chosen from the tournament's list"),
        ({"action": "new_link", "table": "two"}, "The table is chosen from the tournament's "
         "tables by its number, and 'two' is none of them"),
        ({"action": "end", "round": "last"}, "The round to end the tournament after is the "
         "latest seated, by its number, and 'last' is none of them"),
        ({"action": "precedence", "precedence": ["luck"]}, "'luck' is none of the metrics to "
         f"rank by: choose each from {NAMES}."),
        ({"action": "precedence", "precedence": ["points", "points"]}, "Points won is listed "
         "twice: each metric ranks once."),
        ({"action": "precedence", "precedence": ["", ""]}, "Choose at least one metric to rank "
         f"by, the one that decides most first, from {NAMES}."),
    ],
)  # fmt: skip
def test_a_progressives_crafted_post_is_refused_in_words(directing, round_one, form, said):
    before = Tournament.objects.get(pk=round_one.pk).precedence
    page = directing.get(f"/secretary/tournaments/{round_one.pk}/").content.decode()
    assert html.unescape(offered(page)) == NAMES  # what the page offers, the refusal names
    shown = refused(act(directing, round_one, **form))
    assert said in shown
    no_keys(shown)
    assert Tournament.objects.get(pk=round_one.pk).precedence == before
    assert not round_one.players.exclude(left_round=None).exists()
    assert not round_one.players.exclude(bye_rounds=[]).exists()


def test_a_ladders_crafted_evening_is_refused_in_words(client, secretary, ladder):
    client.force_login(secretary)
    shown = refused(act(client, ladder, action="attach", evening="abc"))
    assert (
        "The evening is chosen from the club's list of evenings, and 'abc' is none of them"
    ) in shown
    no_keys(shown)
    assert ladder.evenings.count() == 1


def test_the_api_names_the_metrics_with_their_keys(round_one, director):
    """The API's words are its keys: a metric it does not know is refused with each key
    and the name the pages give it."""
    from tests.conftest import token_client

    from .test_tournament_end import api_url

    api = token_client(director)
    url = api_url(round_one, "")[:-1]
    error = api.patch(url, {"precedence": ["luck"]}, format="json").json()["error"]
    assert error["field"].startswith("precedence")
    assert error["message"].startswith(
        "'luck' is none of the metrics to rank by: give each by its key, 'points' (points "
        "won), 'net_rubber_points' (net rubber points), "
    )
    error = api.patch(url, {"precedence": "points"}, format="json").json()["error"]
    assert error["field"] == "precedence"
    assert error["message"] == (
        "The metrics to rank by are a list of their keys, the one that decides most first, "
        'such as ["rounds_won", "points"].'
    )


LONG = "x" * 10_000  # a crafted value far past anything the page sends


@pytest.mark.parametrize(
    ("form", "said"),
    [
        ({"action": "leave", "member": LONG}, "The player is chosen from the tournament's "
         f"list of players, and '{'x' * 40}…' is none of them: reload the page and choose "
         "again."),
        ({"action": "end", "round": LONG}, "The round to end the tournament after is the "
         f"latest seated, by its number, and '{'x' * 40}…' is none of them: reload the page "
         "and choose again."),
        ({"action": "precedence", "precedence": [LONG]}, f"'{'x' * 40}…' is none of the "
         f"metrics to rank by: choose each from {NAMES}."),
    ],
)  # fmt: skip
def test_a_value_of_ten_thousand_characters_is_quoted_short(directing, round_one, form, said):
    """core.quoted: the refusal repeats at most 40 characters of the value sent, so the
    words saying what was wrong and what to do are all there (quoted whole, the value was
    cut at ECHO_MAX and took them away)."""
    shown = refused(act(directing, round_one, **form))
    assert said in shown
    assert "x" * 41 not in shown
    assert Tournament.objects.get(pk=round_one.pk).ended_after_round is None
    assert not round_one.players.exclude(left_round=None).exists()
