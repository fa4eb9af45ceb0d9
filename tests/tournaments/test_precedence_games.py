"""A metric that can never rank the tournament is refused in words at every door (the
new tournament's form, the director's "Ranked by", the API), with its ruling: Bridge
honours at Euchre (rulings B3, B4), Euchre's marches, lone hands and euchres at Bridge,
rubbers won or net rubber points at a progressive of fixed deals, whose rounds are won on
points and play no rubber out (ruling P1). The director's lists offer only the metrics
that can apply; a ladder of any game is offered them all (tournaments.metrics `applies`)."""

import pytest

from tests.conftest import token_client
from tournaments import services
from tournaments.metrics import METRICS, applies
from tournaments.models import Tournament

from .test_director_corrections import words
from .test_director_crafted_posts import refused
from .test_director_pages import new_form
from .test_tournament_end import act, api_url

pytestmark = pytest.mark.django_db

NEW = "/secretary/clubs/somerset/tournaments/new/"
EUCHRE_FIXED = (
    "points won, rounds won, games won, marches, lone hands made, euchres suffered, "
    "head-to-head and stake won"
)
BRIDGE = (
    "points won, net rubber points, rubbers won, rounds won, games won, bridge honours, "
    "head-to-head and stake won"
)


def test_the_registry_says_which_games_each_metric_can_rank():
    def keys(**where):
        return [key for key, metric in METRICS.items() if applies(metric, **where)]

    assert keys() == list(METRICS)  # a ladder of any game
    assert "honours" not in keys(game="euchre") and "honours" in keys(game="bridge")
    assert not {"marches", "lone_hands", "euchres"} & set(keys(game="bridge"))
    assert not {"rubbers_won", "games_won", "honours"} & set(keys(game="call_ace"))
    fixed = keys(game="euchre", fixed_deals=True)
    assert "rubbers_won" not in fixed and "net_rubber_points" not in fixed
    assert {"rounds_won", "points", "head_to_head"} <= set(fixed)


def test_the_new_tournament_form_refuses_honours_at_euchre(directing):
    answer = directing.post(NEW, new_form(precedence=["honours", "points"]))
    assert answer.status_code == 400
    said = words(answer)
    assert (
        "Bridge honours can never rank a tournament of Euchre: only Bridge scores honours "
        f"(rulings B3, B4). Rank it by {EUCHRE_FIXED}."
    ) in said
    assert "net_rubber_points" not in said
    assert not Tournament.objects.filter(slug="spring").exists()


def test_the_new_tournament_form_refuses_rubbers_won_at_fixed_deals(directing):
    answer = directing.post(NEW, new_form(precedence=["net_rubber_points"]))
    assert answer.status_code == 400
    assert (
        "Net rubber points can never rank this tournament: its rounds are a fixed number of "
        "deals, no rubber is played out, and each round is won on points (ruling P1). Rank it "
        f"by {EUCHRE_FIXED}."
    ) in words(answer)
    # Played as rubbers, the same tournament may rank by them.
    answer = directing.post(NEW, new_form(precedence=["rubbers_won"], deals_per_round=""))
    assert answer.status_code == 302
    assert Tournament.objects.get(slug="spring").precedence == ["rubbers_won"]


def test_the_directors_lists_offer_what_applies_and_refuse_the_rest(directing, round_one):
    """round_one: Euchre, one deal a round."""
    page = directing.get(f"/secretary/tournaments/{round_one.pk}/").content.decode()
    lists = page[page.index('class="precedence"') : page.index('data-testid="precedence"')]
    for title in ("Bridge honours", "Rubbers won", "Net rubber points"):
        assert title not in lists
    assert ">Rounds won<" in lists and ">Marches<" in lists
    before = list(round_one.precedence)
    for chosen, said in (
        (["rubbers_won"], "Rubbers won can never rank this tournament: its rounds are a fixed "
         "number of deals"),
        (["points", "honours"], "Bridge honours can never rank a tournament of Euchre"),
    ):  # fmt: skip
        shown = refused(act(directing, round_one, action="precedence", precedence=chosen))
        assert said in shown
    round_one.refresh_from_db()
    assert round_one.precedence == before


def test_the_api_refuses_what_never_applies_with_its_ruling(club, director):
    api = token_client(director)
    url = f"/api/v1/clubs/{club.slug}/tournaments/"
    answer = api.post(
        url,
        {"name": "Whist-like", "slug": "b", "kind": "progressive", "ruleset": "bridge-elwell-1907",
         "movement": "rotation", "precedence": ["marches", "points"]},
        format="json",
    )  # fmt: skip
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["field"] == "precedence"
    assert error["message"] == (
        "Marches can never rank a tournament of Bridge: a march is Euchre's five tricks, and "
        f"Bridge has none. Rank it by {BRIDGE}."
    )
    assert not Tournament.objects.filter(slug="b").exists()

    fixed = services.tournament_create(
        club=club, name="F", slug="f", kind="progressive", ruleset="euchre-somerset-1888",
        movement="rotation", deals_per_round=2,
    )  # fmt: skip
    answer = api.patch(api_url(fixed, "")[:-1], {"precedence": ["rubbers_won"]}, format="json")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert (error["field"], error["law"]) == ("precedence", "ruling P1")
    fixed.refresh_from_db()
    assert fixed.precedence == ["rounds_won", "points", "head_to_head"]


def test_a_ladder_of_one_game_refuses_another_games_metric(club, commit, director):
    """A ladder of any game may rank by any metric; one of Euchre's evenings, not by Bridge
    honours."""
    anything = services.tournament_create(
        club=club, name="Any", slug="any", kind="ladder", precedence=["honours", "marches"]
    )
    assert anything.precedence == ["honours", "marches"]
    euchre = services.tournament_create(
        club=club, name="E", slug="e", kind="ladder", ruleset="euchre-somerset-1888"
    )
    answer = token_client(director).patch(
        api_url(euchre, "")[:-1], {"precedence": ["honours"]}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["law"] == "rulings B3, B4"


def test_a_saved_metric_that_can_no_longer_rank_is_said_in_words_not_a_blank_list(
    client, directing, round_one
):
    """Saved before the lists offered only what applies: Bridge honours (rulings B3, B4)
    and rubbers won (ruling P1) at a Euchre progressive of one deal a round. The director's
    page names each in words, where it showed a blank list and the next save dropped it
    unsaid; the public standings say why its column decides no place."""
    Tournament.objects.filter(pk=round_one.pk).update(
        precedence=["honours", "points", "rubbers_won", "rounds_won"]
    )
    answer = directing.get(f"/secretary/tournaments/{round_one.pk}/")
    page, said = answer.content.decode(), words(answer)
    assert (
        "Bridge honours: no longer ranks a Euchre tournament (rulings B3, B4); it is left "
        "out when you save."
    ) in said
    assert (
        "Rubbers won: no longer ranks a progressive of fixed deals, whose rounds are won on "
        "points (ruling P1); it is left out when you save."
    ) in said
    # The lists start with what still ranks it, in the saved order; none is left blank
    # in its place.
    lists = page[page.index("<ol>", page.index('class="precedence"')) :]
    chosen = [lists.index(f'<option value="{key}" selected>') for key in ("points", "rounds_won")]
    assert chosen == sorted(chosen)
    assert lists.index('id="precedence-2"') < chosen[1] < lists.index('id="precedence-3"')
    assert "Ranked by points won, then rounds won." in said  # on paper

    # The public standings show only what ranks it (test below): no column for it to explain.
    public = words(client.get(f"/clubs/somerset/tournaments/{round_one.slug}/"))
    assert "Bridge honours" not in public and "Rubbers won" not in public

    act(directing, round_one, action="precedence", precedence=["points", "rounds_won"])
    round_one.refresh_from_db()
    assert round_one.precedence == ["points", "rounds_won"]
    page = directing.get(f"/secretary/tournaments/{round_one.pk}/").content.decode()
    assert "no longer ranks" not in page


@pytest.mark.parametrize("recalculated", [False, True], ids=["saved only", "recalculated"])
def test_a_metric_that_no_longer_ranks_is_not_shown_where_the_standings_are(
    client, round_one, recalculated
):
    """Until the director saves again, the standings (the page and the API's `precedence`)
    list what the ranking uses: the saved list without Bridge honours (rulings B3, B4) and
    rubbers won (ruling P1), not a column everyone is equal on. Before the fix the API
    listed them, and the page showed their columns."""
    from tournaments.metrics import precedence_of

    Tournament.objects.filter(pk=round_one.pk).update(
        precedence=["honours", "points", "rubbers_won", "rounds_won"]
    )
    round_one.refresh_from_db()
    assert precedence_of(round_one) == ["points", "rounds_won"]  # what the ranking uses
    if recalculated:
        version = services.standings_full_recalculation(tournament_id=round_one.pk)
        assert version.precedence == ["points", "rounds_won"]
        # A version published before the fix, with the old list, is read the same way.
        type(version).objects.filter(pk=version.pk).update(
            precedence=["honours", "points", "rubbers_won", "rounds_won"]
        )
    api = client.get(f"/api/v1/clubs/somerset/tournaments/{round_one.slug}/standings/")
    assert [m["key"] for m in api.json()["precedence"]] == ["points", "rounds_won"]
    page = client.get(f"/clubs/somerset/tournaments/{round_one.slug}/").content.decode()
    head = page[page.index("<thead>") : page.index("</thead>")]
    assert "Points won" in head and "Rounds won" in head
    assert "Bridge honours" not in head and "Rubbers won" not in head
