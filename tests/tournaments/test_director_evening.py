"""A director's evening as he meets it, in words: a new tournament refused names the field
in words (never Django's "This field is required." or "slug"), a ladder's evenings are told
apart by their dates, a misspelt arrival is said to be a new guest, the round-1 cut's
cards are asked for only where a round is cut, a level table says so (ruling P1), and a
tournament whose planned rounds are all seated offers nothing more to seat, enter or
excuse, and refuses it."""

import html
import re

import pytest

from club import recording
from club.models import Member
from tests.factories import EveningFactory
from tournaments import rounds, services
from tournaments.models import Tournament

from .conftest import EIGHT
from .test_director_pages import act, finish_round, new_form

NEW = "/secretary/clubs/somerset/tournaments/new/"

#: Django's own refusals, which name no field and say "slug", a word for programmers.
DJANGOS_WORDS = ["This field is required", "Ensure this value", "slug", "Enter a whole number"]


def words(response) -> str:
    """The page's text as read: its tags taken out, its spaces as one."""
    text = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(html.unescape(text).split())


@pytest.fixture
def rotation(make):
    """A rotation of one deal a round, EIGHT entered, no round seated."""
    return make("rotation", deals=1)


@pytest.mark.parametrize(
    ("values", "field", "said"),
    [
        ({"name": ""}, "name", "Give the tournament a name: it heads its standings."),
        ({"slug": ""}, "slug", "Give the tournament an address: letters, digits and hyphens."),
        ({"slug": "spring fair"}, "slug", "The address may hold only letters a to z, digits"),
        ({"kind": ""}, "kind", "Choose the kind of tournament: a club ladder or a progressive."),
        ({"rounds_planned": "0"}, "rounds_planned", "The rounds planned must be a whole number "
         "from 1 to 100, written in the digits 0 to 9; blank: the tournament ends"),
        ({"rounds_planned": "٣"}, "rounds_planned", "The rounds planned must be a whole number"),
        ({"deals_per_round": "101"}, "deals_per_round", "The deals per round (ruling P1) must "
         "be a whole number from 1 to 100, written in the digits 0 to 9; blank: each table"),
        ({"stake": "-1"}, "stake", "The stake per point cannot be below nought; 0 or blank: "
         "the rounds settle nothing (ruling P2)."),
        ({"stake": "0.255"}, "stake", "at most two decimal places (ruling M1)."),
        ({"stake": "a quarter"}, "stake", "The stake per point is an amount such as 0.25"),
        ({"precedence": ["marches", "points", "marches"]}, "precedence",
         "Marches is listed twice: each metric ranks once"),
    ],
)  # fmt: skip
def test_a_new_tournament_refused_names_its_field_in_words(directing, club, values, field, said):
    response = directing.post(NEW, new_form(**values))
    assert response.status_code == 400
    assert any(said in message for message in response.context["form"].errors[field])
    page = words(response)
    assert said in page
    for django in DJANGOS_WORDS:
        assert django not in " ".join(response.context["form"].errors[field]), django
    assert not Tournament.objects.filter(club=club).exists()


def test_a_progressive_without_rule_set_or_movement_is_told_both_at_once(directing, club):
    """Both fields at once, in the page's words, not the API's keys ('cut', 'rotation')."""
    response = directing.post(NEW, new_form(ruleset="", movement=""))
    errors = response.context["form"].errors
    assert errors["ruleset"] == ["A progressive tournament is played under one rule set."]
    assert errors["movement"] == [
        "Choose the movement that seats the rounds (a progressive is played in rounds)."
    ]
    assert "'cut'" not in words(response)
    assert not Tournament.objects.exists()


def test_the_api_is_told_the_movements_keys_with_their_titles(club, secretary_api):
    response = secretary_api.post(
        f"/api/v1/clubs/{club.slug}/tournaments/",
        {"name": "P", "slug": "p", "kind": "progressive", "ruleset": "euchre-somerset-1888"},
        format="json",
    )
    assert response.status_code == 400
    message = response.json()["error"]["message"]
    assert "'rotation' (Rotation chart: a new partner every round)" in message


@pytest.mark.parametrize(
    ("given", "field"),
    [({"deals_per_round": "3"}, "deals_per_round"), ({"rounds_planned": "3"}, "rounds_planned")],
)
def test_a_ladder_with_a_progressives_round_format_is_refused(directing, club, given, field):
    """A ladder counts evenings: deals a round were once kept on it, silently."""
    values = {"kind": "ladder", "ruleset": "", "movement": "", "rounds_planned": ""}
    values["deals_per_round"] = ""
    response = directing.post(NEW, new_form(**{**values, **given}))
    assert response.status_code == 400
    assert response.context["form"].errors[field] == [
        "A ladder has no rounds, movement or deals a round; it counts evenings."
    ]
    assert not Tournament.objects.exists()


def test_a_ladders_evenings_are_told_apart_by_their_dates(directing, club, ladder, evening):
    """Evenings of one title ("Club night") were listed alike, on the form and the page."""
    import datetime

    evening.title = "Club night"
    evening.save(update_fields=["title"])
    EveningFactory(club=club, date=datetime.date(1888, 11, 28), title="Club night")
    form = words(directing.get(NEW))
    assert "Wednesday 21 November 1888: Club night" in form
    assert "Wednesday 28 November 1888: Club night" in form
    page = directing.get(f"/secretary/tournaments/{ladder.pk}/")
    assert "Wednesday 21 November 1888: Club night stop counting it" in words(page)
    assert "Wednesday 28 November 1888: Club night</option>" in page.content.decode()


def test_with_every_evening_counted_no_evening_is_offered(directing, ladder):
    """The list once offered "(every evening is counted)" and a button refusing it."""
    page = directing.get(f"/secretary/tournaments/{ladder.pk}/").content.decode()
    assert 'data-testid="all-counted"' in page
    assert 'data-testid="attach"' not in page


def test_an_arrival_new_to_the_club_is_said_to_be_added_as_a_guest(directing, club, rotation):
    """A name misspelt ("Edtih") is a new guest on the roster: the notice says so."""
    page = words(act(directing, rotation, "enter", name="Edtih"))
    assert (
        "Edtih is new to the club: added to its players as a guest. Edtih plays from round 1."
    ) in page
    assert Member.objects.get(club=club, name="Edtih").is_guest
    club.members.create(name="Ida")
    known = words(act(directing, rotation, "enter", name="ida"))
    assert "Ida plays from round 1." in known and "new to the club" not in known


def test_the_cards_cut_are_asked_for_only_where_the_round_is_cut(directing, rotation, commit):
    """Round 2 of a rotation is the chart's, not a cut (docs/movements.md): a field for its
    cards invited cards that the movement then refused."""
    page = directing.get(f"/secretary/tournaments/{rotation.pk}/").content.decode()
    assert 'id="seat-cards"' in page
    act(directing, rotation, "seat")
    finish_round(rotation, commit)
    page = directing.get(f"/secretary/tournaments/{rotation.pk}/")
    assert 'id="seat-cards"' not in page.content.decode()
    assert "Round 2 is seated by the movement from the rounds before: no cards are cut." in words(
        page
    )


def test_every_round_of_the_cut_movement_asks_for_its_cards(directing, make, commit):
    cut = make("cut", deals=1)
    act(directing, cut, "seat")
    finish_round(cut, commit)
    assert 'id="seat-cards"' in directing.get(f"/secretary/tournaments/{cut.pk}/").content.decode()


@pytest.fixture
def two_deals(club, roster):
    tournament = services.tournament_create(
        club=club, name="Two deals", slug="two", kind="progressive",
        ruleset="euchre-somerset-1888", movement="rotation", deals_per_round=2,
        rounds_planned=1,
    )  # fmt: skip
    for name in EIGHT:
        rounds.tournament_enter(tournament=tournament, name=name)
    return tournament


def test_a_table_level_after_its_deals_says_so(directing, two_deals, commit):
    act(directing, two_deals, "seat")
    table = two_deals.rounds.get(number=1).tables.get(number=1)
    for makers in ("NS", "EW"):
        commit(
            recording.hand_record, rubber_id=table.rubber_id, data={"makers": makers, "tricks": 3}
        )
    page = directing.get(f"/secretary/tournaments/{two_deals.pk}/").content.decode()
    assert '<span data-testid="level-1-1">level: one more deal at a time (ruling P1)</span>' in page


def test_with_its_rounds_all_seated_nothing_more_is_seated_entered_or_excused(
    directing, two_deals, commit
):
    """A one-round tournament once offered "Seat round 2", "Enter from round 2" and "Sits
    out round 2", and took the arrival and the bye for a round never to be played."""
    act(directing, two_deals, "seat")
    raw = directing.get(f"/secretary/tournaments/{two_deals.pk}/")
    assert (
        "The tournament's only round is seated: it is over once their tables have finished."
    ) in words(raw)
    for offered in ('data-testid="seat"', 'data-testid="enter"', 'data-testid="bye-Ann"'):
        assert offered not in raw.content.decode()
    arrival = words(act(directing, two_deals, "enter", name="Ida"))
    assert "The tournament has no round 2 for Ida: its only round is seated." in arrival
    assert not two_deals.players.filter(member__name="Ida").exists()
    ann = two_deals.players.get(member__name="Ann")
    bye = words(act(directing, two_deals, "bye", member=ann.member_id))
    assert "The tournament has no round 2 for Ann: its only round is seated." in bye
    ann.refresh_from_db()
    assert ann.bye_rounds == []
    for table in two_deals.rounds.get(number=1).tables.all():
        for _ in range(2):
            commit(
                recording.hand_record, rubber_id=table.rubber_id, data={"makers": "NS", "tricks": 3}
            )
    over = words(directing.get(f"/secretary/tournaments/{two_deals.pk}/"))
    assert "The tournament is over: its only round is played." in over


def test_a_player_leaving_is_told_in_words(directing, rotation):
    cora = rotation.players.get(member__name="Cora")
    page = words(act(directing, rotation, "leave", member=cora.member_id))
    assert "Cora leaves: seated in no round from round 1 on." in page


# --- the table's sheet ------------------------------------------------------------------------


def test_a_director_who_is_not_the_secretary_corrects_on_the_tables_sheet(
    directing, round_one, commit
):
    """A director who is not the secretary had no way to a correction: the table's sheet
    now offers him any deal of the table, as the club's referee (ruling E9), once one is
    recorded (tournaments/corrections.py; the limits are tested there)."""
    table = round_one.rounds.get(number=1).tables.get(number=1)
    url = f"/secretary/tournaments/{round_one.pk}/rounds/1/tables/1/"
    assert 'data-testid="corrections"' not in directing.get(url).content.decode()
    commit(recording.hand_record, rubber_id=table.rubber_id, data={"makers": "NS", "tricks": 3})
    page = words(directing.get(url))
    assert "Correct a hand" in page
    assert "As the club's referee (ruling E9): any hand of this table" in page


def test_table_cards_refused_in_words(directing, round_one):
    response = directing.get(f"/secretary/tournaments/{round_one.pk}/table-cards/?per_page=3")
    assert response.status_code == 400
    assert response.content.decode() == "Cards to an A4 page: '3' is not a choice; print 2 or 4."
    response = directing.get(
        f"/secretary/tournaments/{round_one.pk}/table-cards/?per_page={'9' * 10_000}"
    )
    said = f"Cards to an A4 page: '{'9' * 40}…' is not a choice; print 2 or 4."
    assert response.status_code == 400 and response.content.decode() == said  # core.quoted


# --- the room display ---------------------------------------------------------------------------


def test_the_room_says_where_a_round_of_fixed_deals_stands(client, directing, two_deals, commit):
    """The projector said "Hand 0 of 2" before the first deal, "Hand 2 of 2" for a table
    level after its deals (ruling P1), and never that a table had won its round; its foot
    showed the standings' version number, a counter of the service's."""
    act(directing, two_deals, "seat")
    table = two_deals.rounds.get(number=1).tables.get(number=1)
    seats = two_deals.rounds.get(number=1).seating["tables"][0]["seats"]
    room = f"/clubs/somerset/tournaments/{two_deals.slug}/room/"
    page = words(client.get(room))
    assert "0 of 2 deals played" in page and "Hand 0" not in page
    assert "standings version" not in page and "Updates by itself." in page
    for makers in ("NS", "EW"):
        commit(
            recording.hand_record, rubber_id=table.rubber_id, data={"makers": makers, "tricks": 3}
        )
    assert "Level after 2 deals: one more at a time (ruling P1)" in words(client.get(room))
    commit(recording.hand_record, rubber_id=table.rubber_id, data={"makers": "NS", "tricks": 3})
    page = words(client.get(room))
    assert (
        f"Table 1 finished Won by {seats['N']} & {seats['S']}, ahead after the round's deals "
        "(ruling P1)"
    ) in page


def test_a_refused_form_says_at_its_top_which_fields_to_put_right(directing, club):
    """On a phone the refusals sat below eleven lists of metrics, out of sight of the top
    of the page the form came back at."""
    response = directing.post(NEW, new_form(movement="", rounds_planned="0"))
    page = response.content.decode()
    assert (
        'The tournament was not created: put right <a href="#field-movement">Movement '
        '(progressive)</a> and <a href="#field-rounds_planned">Rounds planned (progressive)</a>'
        ", below."
    ) in page
    assert 'id="field-movement"' in page and 'id="field-rounds_planned"' in page
    assert 'data-testid="refused"' not in directing.get(NEW).content.decode()


def post(client, tournament, **form):
    """A button of the director's page, posted the ordinary way (no JavaScript)."""
    return client.post(f"/secretary/tournaments/{tournament.pk}/act/", form)


STAKE_DIGITS = (
    "The stake per point must be an amount written in the digits 0 to 9, with a point before "
    "the pence, such as 0.25; blank: the rounds settle nothing (rulings P2, M1)."
)


@pytest.mark.parametrize("stake", ["\u0660.\u0662\u0665", "\u0661", "0.\uff12\uff15"])
def test_a_stake_in_another_scripts_digits_is_refused_in_words(directing, club, stake):
    """Django's field, like Python's Decimal, read Arabic-Indic (or full-width) digits as
    0.25: the tournament was created with a stake the director never typed in digits."""
    response = directing.post(NEW, new_form(stake=stake))
    assert response.status_code == 400
    assert response.context["form"].errors["stake"] == [STAKE_DIGITS]
    assert STAKE_DIGITS in words(response)
    assert not Tournament.objects.filter(club=club).exists()


#: What Python's Decimal (and Django's field) reads as an amount though it is not written in
#: the digits 0 to 9 and a point: "1e3" made a progressive played for 1000.00 a point (the
#: field is type=number, so the browser sends it).
NOT_DIGITS_AND_A_POINT = ["1e3", "1E2", "NaN", "Infinity", "1_000"]


def progressive_posted(api, club, stake):
    """A progressive with this stake posted to the API."""
    return api.post(
        f"/api/v1/clubs/{club.slug}/tournaments/",
        {"name": "P", "slug": "p", "kind": "progressive", "ruleset": "euchre-somerset-1888",
         "movement": "cut", "stake": stake},
        format="json",
    )  # fmt: skip


@pytest.mark.parametrize("stake", NOT_DIGITS_AND_A_POINT)
def test_a_stake_not_in_digits_and_a_point_makes_no_progressive(
    directing, club, secretary_api, stake
):
    """Rulings P2, M1: refused in the same words at the director's form and at the API."""
    response = directing.post(NEW, new_form(stake=stake))
    assert response.status_code == 400
    assert response.context["form"].errors["stake"] == [STAKE_DIGITS]
    created = progressive_posted(secretary_api, club, stake)
    assert created.status_code == 400
    error = created.json()["error"]
    assert (error["field"], error["message"]) == ("stake", STAKE_DIGITS)
    assert not Tournament.objects.filter(club=club).exists()


@pytest.mark.parametrize("stake", ["\u0660.\u0662\u0665", "\u0661"])
def test_the_api_refuses_a_stake_in_another_scripts_digits(club, secretary_api, stake):
    url = f"/api/v1/clubs/{club.slug}/tournaments/"
    created = progressive_posted(secretary_api, club, stake)
    assert created.status_code == 400
    error = created.json()["error"]
    assert (error["field"], error["law"], error["message"]) == (
        "stake", "rulings P2, M1", STAKE_DIGITS,
    )  # fmt: skip
    assert not Tournament.objects.filter(club=club).exists()
    made = secretary_api.post(
        url,
        {"name": "P", "slug": "p", "kind": "progressive", "ruleset": "euchre-somerset-1888",
         "movement": "cut", "stake": "0.25"},
        format="json",
    )  # fmt: skip
    assert made.status_code == 201
    changed = secretary_api.patch(f"{url}p/", {"stake": stake}, format="json")
    assert changed.status_code == 400 and changed.json()["error"]["message"] == STAKE_DIGITS
    assert str(Tournament.objects.get(slug="p").stake) == "0.25"


@pytest.mark.parametrize(
    ("players", "said"),
    [
        (7, "The rotation movement seats 8 to 32 players from its charts, and 7 are present "
            "for round 1: enter 1 more player before seating it (the movement is chosen when "
            "the tournament is created and is not changed)"),
        (5, "and 5 are present for round 1: enter 3 more players before seating it"),
    ],
)  # fmt: skip
def test_a_rotation_short_of_players_says_what_the_director_can_do(directing, make, players, said):
    """The refusal once told him to seat it by the cut or the progressive movement, which
    he cannot choose once the tournament is created."""
    tournament = make("rotation", players=EIGHT[:players], deals=1)
    answer = post(directing, tournament, action="seat")
    assert answer.status_code == 400
    assert said in words(answer)
    assert "seat this tournament by" not in words(answer)
    assert not tournament.rounds.exists()
    # He does as it says: entering the players short, round 1 is seated.
    for name in ["Zed", "Yves", "Xan"][: 8 - players]:
        post(directing, tournament, action="enter", name=name, new_player="1")
    assert post(directing, tournament, action="seat").status_code == 200
    assert tournament.rounds.count() == 1


def test_a_rotation_of_too_many_players_is_told_to_have_some_sit_round_one_out(directing, make):
    names = [f"Player {n:02d}" for n in range(33)]
    tournament = make("rotation", players=names, deals=1)
    answer = post(directing, tournament, action="seat")
    assert answer.status_code == 400
    assert (
        "and 33 are present for round 1: 1 of them must ask to sit round 1 out (a bye), or "
        "leave, before it is seated; one sitting it out plays from round 2, "
        "placed as an arrival"
    ) in words(answer)
    # He does as it says: one sits round 1 out, and plays from round 2.
    late = tournament.players.get(member__name="Player 32")
    post(directing, tournament, action="bye", member=str(late.member_id))
    assert post(directing, tournament, action="seat").status_code == 200
    for table in tournament.rounds.get(number=1).tables.all():
        recording.hand_record(rubber_id=table.rubber_id, data={"makers": "NS", "tricks": 3})
    assert post(directing, tournament, action="seat").status_code == 200
    second = tournament.rounds.get(number=2).seating
    seated = {p for table in second["tables"] for p in table["seats"].values()}
    assert "Player 32" in seated or "Player 32" in second["byes"]
    assert len(seated) + len(second["byes"]) == 33
