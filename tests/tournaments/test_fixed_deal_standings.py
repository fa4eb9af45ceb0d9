"""How a progressive of fixed deals is ranked when its director chooses nothing: by the
rounds its players won (ruling P1: the side ahead on points when the round is over) and
then their points, never by rubbers, which such a tournament never plays out; and the room
display showing those figures, not "0 0" for everyone."""

import html
import re

from club import recording
from tournaments import rounds, services
from tournaments.metrics import DEFAULT_PRECEDENCE, FIXED_DEALS_PRECEDENCE
from tournaments.models import Tournament

from .conftest import EIGHT
from .test_director_pages import new_form

NEW = "/secretary/clubs/somerset/tournaments/new/"


def words(response) -> str:
    return words_of(response.content.decode())


def test_the_form_says_what_blank_ranks_by(directing):
    page = words(directing.get(NEW))
    assert (
        "All blank: a progressive of fixed deals is ranked by rounds won, points won, "
        "head-to-head (its rounds are won on points, not by rubbers: ruling P1); a ladder, or "
        "a progressive played as rubbers, by net rubber points, rubbers won, points won, "
        "head-to-head."
    ) in page
    # Nothing is chosen for him: the kind he picks decides the default.
    assert "selected>Net rubber points" not in directing.get(NEW).content.decode()


def test_a_progressive_of_fixed_deals_created_without_a_precedence_ranks_by_rounds_won(
    directing, club
):
    blank = ["", "", ""]
    fixed = directing.post(NEW, new_form(slug="fixed", deals_per_round="2", precedence=blank))
    assert fixed.status_code == 302, fixed.context and fixed.context["form"].errors
    assert Tournament.objects.get(slug="fixed").precedence == FIXED_DEALS_PRECEDENCE
    rubbers = directing.post(NEW, new_form(slug="rubbers", deals_per_round="", precedence=blank))
    assert rubbers.status_code == 302
    assert Tournament.objects.get(slug="rubbers").precedence == DEFAULT_PRECEDENCE
    chosen = directing.post(
        NEW, new_form(slug="chosen", deals_per_round="2", precedence=["points", ""])
    )
    assert chosen.status_code == 302
    assert Tournament.objects.get(slug="chosen").precedence == ["points"]  # his choice stands


def test_the_api_defaults_the_same_way(club):
    fixed = services.tournament_create(
        club=club, name="F", slug="f", kind="progressive", ruleset="euchre-somerset-1888",
        movement="cut", deals_per_round=4,
    )  # fmt: skip
    ladder = services.tournament_create(club=club, name="L", slug="l", kind="ladder")
    assert fixed.precedence == ["rounds_won", "points", "head_to_head"]
    assert ladder.precedence == DEFAULT_PRECEDENCE


def fixed_deals_seated(club, *, deals: int):
    """A progressive of `deals` fixed deals a round, EIGHT entered, round 1 seated by cut."""
    tournament = services.tournament_create(
        club=club, name="Fixed", slug="fixed", kind="progressive",
        ruleset="euchre-somerset-1888", movement="cut", deals_per_round=deals,
    )  # fmt: skip
    for name in EIGHT:
        rounds.tournament_enter(tournament=tournament, name=name)
    return tournament, rounds.round_seat_next(tournament_id=tournament.pk)


def test_the_room_shows_rounds_and_points_won_for_a_progressive_of_fixed_deals(
    client, club, commit
):
    tournament, first = fixed_deals_seated(club, deals=2)
    for table in first.tables.all():
        for deal in ({"makers": "NS", "tricks": 5}, {"makers": "EW", "tricks": 3}):  # 2 - 1
            commit(recording.hand_record, rubber_id=table.rubber_id, data=deal)
    page = words(client.get(f"/clubs/somerset/tournaments/{tournament.slug}/room/"))
    assert "Place Player Rounds won Points won" in page
    for seats in (t["seats"] for t in first.seating["tables"]):
        assert f"{seats['N']} 1 2" in page and f"{seats['S']} 1 2" in page  # won, 2 points
        assert f"{seats['E']} 0 1" in page and f"{seats['W']} 0 1" in page
    assert "Net rubber points" not in page


def test_the_rooms_tables_show_the_points_over_the_deals_not_games(client, club, commit):
    """A round of fixed deals is decided by the sides' points over its deals (ruling P1),
    not by games: the room's table shows those points, and no "games won" (it showed the
    game in play's points and "0 games", a table already won on points included)."""
    tournament, first = fixed_deals_seated(club, deals=3)
    one, two = first.tables.order_by("number")
    # Table 1: two deals of three, N-S 2 (a march) and E-W 1, still in play; a game of
    # five points would show N-S 2 in the game and no game won, which reads alike, so
    # table 2 plays all three: N-S 2, 2 then E-W 1, over at N-S 4, E-W 1.
    for deal in ({"makers": "NS", "tricks": 5}, {"makers": "EW", "tricks": 3}):
        commit(recording.hand_record, rubber_id=one.rubber_id, data=deal)
    for deal in ({"makers": "NS", "tricks": 5}, {"makers": "NS", "tricks": 5},
                 {"makers": "EW", "tricks": 3}):  # fmt: skip
        commit(recording.hand_record, rubber_id=two.rubber_id, data=deal)
    page = client.get(f"/clubs/somerset/tournaments/{tournament.slug}/room/").content.decode()
    tables = {
        number: words_of(part)
        for number, part in re.findall(r'data-table="(\d)"(.*?)</article>', page, re.S)
    }
    seats = {t["number"]: t["seats"] for t in first.seating["tables"]}
    for number, ns, ew in (("1", 2, 1), ("2", 4, 1)):
        s = seats[int(number)]
        assert f"North-South {s['N']} & {s['S']} {ns}" in tables[number], tables[number]
        assert f"East-West {s['E']} & {s['W']} {ew}" in tables[number], tables[number]
        assert "game" not in tables[number]
        assert "Points over the round's deals" in tables[number]
    assert "2 of 3 deals played" in tables["1"]
    assert "Won by" in tables["2"]


def words_of(markup: str) -> str:
    text = re.sub(r"<[^>]+>", " ", markup)
    return " ".join(html.unescape(text).split())
