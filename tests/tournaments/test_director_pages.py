"""The director's pages (issue #16, item 3): a new ladder or progressive from a form,
a ladder's evenings, the metrics' order, seating with the movement's report, byes,
arrivals and departures. Each button once done and once refused, with its words."""

import re
from decimal import Decimal

import pytest

from club import recording
from tests.factories import EveningFactory
from tournaments import rounds, services
from tournaments.models import Tournament

EIGHT = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Hugh"]


def act(client, tournament, action, **data):
    return client.post(
        f"/secretary/tournaments/{tournament.pk}/act/",
        {"action": action, **data},
        HTTP_HX_REQUEST="true",
    )


def new_form(**values):
    form = {
        "name": "Spring progressive",
        "slug": "spring",
        "kind": "progressive",
        "ruleset": "euchre-somerset-1888",
        "is_public": "on",
        "precedence": ["rounds_won", "points", ""],
        "movement": "rotation",
        "rounds_planned": "3",
        "deals_per_round": "1",
    }
    form.update(values)
    return form


@pytest.fixture
def rotation(club, roster):
    tournament = services.tournament_create(
        club=club, name="Rotation", slug="rotation", kind="progressive",
        ruleset="euchre-somerset-1888", movement="rotation", deals_per_round=1,
    )  # fmt: skip
    for name in EIGHT:
        rounds.tournament_enter(tournament=tournament, name=name)
    return tournament


def finish_round(tournament, commit):
    """One deal at each table of the last round (fixed deals: North-South win it)."""
    played = tournament.rounds.order_by("-number").first()
    for table in played.tables.all():
        commit(
            recording.hand_record,
            rubber_id=table.rubber_id,
            data={"makers": "NS", "tricks": 3},
        )


# --- a new tournament ---------------------------------------------------------------------


def test_a_director_creates_a_progressive_with_its_metrics_in_order(directing, club):
    page = directing.get(f"/secretary/clubs/{club.slug}/tournaments/new/")
    assert page.status_code == 200 and "Ranked by" in page.content.decode()
    response = directing.post(f"/secretary/clubs/{club.slug}/tournaments/new/", new_form())
    tournament = Tournament.objects.get(club=club, slug="spring")
    assert response.status_code == 302
    assert response["Location"] == f"/secretary/tournaments/{tournament.pk}/"
    assert tournament.kind == "progressive" and tournament.movement == "rotation"
    assert tournament.precedence == ["rounds_won", "points"]
    assert (tournament.rounds_planned, tournament.deals_per_round) == (3, 1)
    assert tournament.stake == 0  # left blank: the rounds settle nothing (ruling P2)


def test_the_form_says_what_public_standings_off_hides(directing, club):
    """Off, a progressive's tables and rubbers are hidden too, and a guest entered there
    (test_private_play.py): the director is told so beside the box, not by its label
    alone."""
    import html

    page = html.unescape(
        directing.get(f"/secretary/clubs/{club.slug}/tournaments/new/").content.decode()
    )
    assert "Public standings" in page
    assert "a progressive's tables and rubbers are for the club's secretaries" in page
    assert "a ladder's evenings stay on the club's public pages" in page
    assert (
        "and so is a guest entered there (added to the club's players) until he plays at an "
        "evening or a public tournament"
    ) in " ".join(page.split())


def test_a_director_sets_the_stake_of_a_progressive(directing, club):
    """Ruling P2: a progressive tournament may have a stake per point, like an evening."""
    response = directing.post(
        f"/secretary/clubs/{club.slug}/tournaments/new/", new_form(stake="0.25")
    )
    assert response.status_code == 302
    assert Tournament.objects.get(club=club, slug="spring").stake == Decimal("0.25")
    refused = directing.post(
        f"/secretary/clubs/{club.slug}/tournaments/new/", new_form(slug="other", stake="-1")
    )
    assert refused.status_code == 400
    assert not Tournament.objects.filter(slug="other").exists()


def test_a_ladder_is_created_over_the_evenings_chosen(
    directing, club, django_capture_on_commit_callbacks
):
    first, second = EveningFactory(club=club), EveningFactory(club=club)
    with django_capture_on_commit_callbacks(execute=True):
        response = directing.post(
            f"/secretary/clubs/{club.slug}/tournaments/new/",
            new_form(kind="ladder", slug="winter", ruleset="", movement="", rounds_planned="",
                     deals_per_round="", evenings=[first.pk]),
        )  # fmt: skip
    assert response.status_code == 302
    ladder = Tournament.objects.get(slug="winter")
    assert list(ladder.evenings.all()) == [first]
    assert second not in ladder.evenings.all()


@pytest.mark.parametrize(
    ("values", "field", "words"),
    [
        ({"ruleset": ""}, "ruleset", "A progressive tournament is played under one rule set."),
        ({"movement": ""}, "movement", "Choose the movement that seats the rounds"),
        ({"slug": "Spring Fair!"}, "slug", "The address may hold only letters a to z"),
        ({"precedence": ["points", "points"]}, "precedence", "Points won is listed twice"),
        ({"rounds_planned": "0"}, "rounds_planned", "The rounds planned must be a whole number"),
        ({"ruleset": "call-ace-foster-1905"}, "ruleset", "Call-Ace"),
    ],
)
def test_a_new_tournament_refused_says_why_beside_the_field(directing, club, values, field, words):
    response = directing.post(f"/secretary/clubs/{club.slug}/tournaments/new/", new_form(**values))
    assert response.status_code == 400
    form = response.context["form"]
    assert any(words in message for message in form.errors[field]), form.errors
    assert words.replace("'", "&#x27;").split("!")[0] in response.content.decode()
    assert not Tournament.objects.filter(club=club).exists()


def test_a_slug_taken_is_refused_beside_the_address(directing, club, rotation):
    response = directing.post(
        f"/secretary/clubs/{club.slug}/tournaments/new/", new_form(slug="rotation")
    )
    assert response.status_code == 400
    assert "already" in response.context["form"].errors["slug"][0]
    assert Tournament.objects.filter(club=club).count() == 1


def test_a_long_slug_taken_is_quoted_short(club):
    """core.quoted: the refusal repeats at most 40 characters of the address sent."""
    from core.errors import UserError

    slug = "s" * 60  # the longest a tournament's address may be
    ladder = {"club": club, "name": "Winter", "kind": "ladder"}
    services.tournament_create(slug=slug, **ladder)
    with pytest.raises(UserError) as refused:
        services.tournament_create(slug=slug, **ladder)
    said = f"The club has a tournament called '{'s' * 40}…' already."
    assert (refused.value.field, refused.value.message) == ("slug", said)


# --- a ladder's evenings and the metrics' order ----------------------------------------------


def test_evenings_attached_and_detached(
    directing, club, ladder, evening, django_capture_on_commit_callbacks
):
    later = EveningFactory(club=club)
    with django_capture_on_commit_callbacks(execute=True):
        page = act(directing, ladder, "attach", evening=later.pk)
    assert "The evening is counted." in page.content.decode()
    assert set(ladder.evenings.all()) == {evening, later}
    with django_capture_on_commit_callbacks(execute=True):
        page = act(directing, ladder, "detach", evening=evening.pk)
    assert "The evening is no longer counted." in page.content.decode()
    assert list(ladder.evenings.all()) == [later]
    again = act(directing, ladder, "detach", evening=evening.pk).content.decode()
    assert "That evening is not counted in this ladder." in again


def test_a_ladder_of_one_rule_set_counts_only_its_evenings(directing, club, secretary_api):
    """A Euchre ladder took a Bridge evening, and its every rubber counted: Bridge's
    hundreds of points among Euchre's few, under a page headed "Euchre"."""
    euchre = EveningFactory(club=club, title="Club night")
    bridge = EveningFactory(club=club, ruleset="bridge-elwell-1907", title="Bridge drive")
    response = directing.post(
        f"/secretary/clubs/{club.slug}/tournaments/new/",
        new_form(kind="ladder", slug="winter", ruleset="euchre-somerset-1888", movement="",
                 rounds_planned="", deals_per_round="", evenings=[euchre.pk, bridge.pk]),
    )  # fmt: skip
    assert response.status_code == 400
    said = (
        "This ladder counts evenings of Euchre (Somerset Club laws, 1888) only, and this one "
        "is not: Wednesday 21 November 1888: Bridge drive, Bridge (Elwell's laws, revised "
        "1907). Leave it out, or make a ladder of any rule set."
    )
    assert said in response.context["form"].errors["evenings"]
    assert not Tournament.objects.filter(club=club).exists()

    ladder = services.tournament_create(
        club=club, name="Winter", slug="winter", kind="ladder", ruleset="euchre-somerset-1888",
        evening_ids=[euchre.pk],
    )  # fmt: skip
    page = directing.get(f"/secretary/tournaments/{ladder.pk}/").content.decode()
    assert "Bridge drive" not in page  # not offered to count
    assert "Every evening of the club played under Euchre" in page
    refused = act(directing, ladder, "attach", evening=bridge.pk)
    assert said in refused.context["errors"]["attach"]
    url = f"/api/v1/clubs/{club.slug}/tournaments/winter/"
    api = secretary_api.patch(url, {"evenings": [euchre.pk, bridge.pk]}, format="json")
    assert api.status_code == 400 and api.json()["error"]["field"] == "evenings"
    assert list(ladder.evenings.all()) == [euchre]


def test_another_clubs_evening_is_not_attached(directing, ladder, evening, other_club):
    theirs = EveningFactory(club=other_club)
    page = act(directing, ladder, "attach", evening=theirs.pk).content.decode()
    assert f"No such evenings in this club: [{theirs.pk}]." in page
    assert list(ladder.evenings.all()) == [evening]


def test_the_metrics_order_is_changed_and_refused_when_repeated(directing, ladder):
    page = act(directing, ladder, "precedence", precedence=["points", "marches", ""])
    assert "ranked anew" in page.content.decode()
    ladder.refresh_from_db()
    assert ladder.precedence == ["points", "marches"]
    refused = act(directing, ladder, "precedence", precedence=["marches", "marches"])
    assert "Marches is listed twice" in refused.context["errors"]["precedence"]
    ladder.refresh_from_db()
    assert ladder.precedence == ["points", "marches"]


# --- a progressive's rounds and players --------------------------------------------------------


def test_rounds_seated_with_the_movements_report_and_a_bye(directing, rotation, commit):
    page = act(directing, rotation, "seat").content.decode()
    assert "Round 1 is seated." in page and "The movement kept all its promises" in page
    refused = act(directing, rotation, "seat").content.decode()
    assert "Round 1 is still being played at tables 1, 2." in refused
    finish_round(rotation, commit)
    ann = rotation.players.get(member__name="Ann")
    page = act(directing, rotation, "bye", member=ann.member_id).content.decode()
    assert "Ann sits out round 2." in page
    twice = act(directing, rotation, "bye", member=ann.member_id).content.decode()
    assert "Ann sits out round 2 already." in twice
    page = act(directing, rotation, "seat").content.decode()
    assert "Sitting out at their request: Ann" in page
    second = rotation.rounds.get(number=2)
    assert "Ann" not in [p for t in second.seating["tables"] for p in t["seats"].values()]
    assert second.seating["requested_byes"] == ["Ann"]


def test_the_movements_report_of_what_it_could_not_honour(directing, club, roster, commit):
    tournament = services.tournament_create(
        club=club, name="Four", slug="four", kind="progressive",
        ruleset="euchre-somerset-1888", movement="progressive", deals_per_round=1,
    )  # fmt: skip
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        act(directing, tournament, "enter", name=name)
    for number in range(1, 4):
        page = act(directing, tournament, "seat").content.decode()
        assert f"Round {number} is seated." in page
        finish_round(tournament, commit)
    # Four players have three partners each: the fourth round must repeat a partnership.
    page = act(directing, tournament, "seat").content.decode()
    assert "Round 4 is seated." in page
    assert 'data-testid="report-4"' in page and "A new partner every round: partners again" in page


def test_arrivals_and_departures_from_the_page(directing, rotation):
    page = act(directing, rotation, "enter", name="Ida").content.decode()
    assert "Ida plays from round 1." in page
    again = act(directing, rotation, "enter", name="Ida").content.decode()
    assert "Ida is entered already." in again
    ida = rotation.players.get(member__name="Ida")
    page = act(directing, rotation, "leave", member=ida.member_id).content.decode()
    assert "Ida leaves" in page
    ida.refresh_from_db()
    assert ida.left_round == 1
    gone = act(directing, rotation, "leave", member=ida.member_id).content.decode()
    assert "That player is not playing in the tournament." in gone
    no_bye = act(directing, rotation, "bye", member=ida.member_id).content.decode()
    assert "That player is not playing in the next round." in no_bye


def test_a_movement_that_cannot_seat_says_so(directing, club, roster):
    tournament = services.tournament_create(
        club=club, name="Small", slug="small", kind="progressive",
        ruleset="euchre-somerset-1888", movement="rotation",
    )  # fmt: skip
    for name in ["Ann", "Bob", "Cora"]:
        rounds.tournament_enter(tournament=tournament, name=name)
    page = act(directing, tournament, "seat").content.decode()
    assert (
        "Round 1 cannot be seated: a table needs four players, and 3 are present for it: "
        "Ann, Bob, Cora. To go on, enter another player." in page
    )
    assert not tournament.rounds.exists()


def test_too_few_left_for_a_round_says_what_the_director_may_do(directing, club, commit):
    """It said "round 2: four players are needed for a table, 3 present", and nothing of
    the player sitting out at his request, nor of ending the tournament."""
    tournament = services.tournament_create(
        club=club, name="Small", slug="small", kind="progressive",
        ruleset="euchre-somerset-1888", movement="progressive", deals_per_round=1,
    )  # fmt: skip
    for name in ["Ann", "Bob", "Cora", "Dan", "Edith"]:
        rounds.tournament_enter(tournament=tournament, name=name)
    act(directing, tournament, "seat")
    finish_round(tournament, commit)
    entries = {e.member.name: e.member_id for e in tournament.players.select_related("member")}
    act(directing, tournament, "leave", member=entries["Ann"])
    act(directing, tournament, "bye", member=entries["Bob"])
    response = act(directing, tournament, "seat")
    assert response.context["errors"]["seat"] == (
        "Round 2 cannot be seated: a table needs four players, and 3 are present for it: "
        "Cora, Dan, Edith. To go on, enter another player, or let Bob play it after all (a "
        "bye asked for), or end the tournament after round 1."
    )
    assert tournament.rounds.count() == 1


def test_a_ladder_has_no_rounds_to_seat(directing, ladder):
    page = act(directing, ladder, "seat").content.decode()
    assert "Only a progressive tournament has players entered and rounds." in page


def test_without_javascript_the_whole_page_comes_back(directing, ladder):
    response = directing.post(f"/secretary/tournaments/{ladder.pk}/act/", {"action": "seat"})
    assert response.status_code == 400
    assert "<html" in response.content.decode()


# --- who may ------------------------------------------------------------------------------------


def test_who_may_open_the_director_pages(
    client, club, ladder, secretary, director, other_secretary
):
    new = f"/secretary/clubs/{club.slug}/tournaments/new/"
    page = f"/secretary/tournaments/{ladder.pk}/"
    assert client.get(new)["Location"].startswith("/accounts/login/")
    assert client.get(page)["Location"].startswith("/accounts/login/")
    for user, status in [(secretary, 200), (director, 200), (other_secretary, 404)]:
        client.force_login(user)
        assert client.get(new).status_code == status, user
        assert client.get(page).status_code == status, user
        assert act(client, ladder, "recalculate").status_code == status, user
    client.force_login(other_secretary)
    assert client.post(new, new_form()).status_code == 404
    assert not Tournament.objects.filter(slug="spring").exists()


def test_a_director_is_shown_his_clubs_tournaments_but_not_their_evenings(
    directing, ladder, evening
):
    home = directing.get("/secretary/").content.decode()
    assert f"/secretary/tournaments/{ladder.pk}/" in home
    assert f"/secretary/evenings/{evening.pk}/" not in home
    assert directing.get(f"/secretary/evenings/{evening.pk}/").status_code == 404


def test_a_director_runs_tournaments_through_the_api(club, director, ladder):
    from tests.conftest import token_client

    api = token_client(director)
    url = f"/api/v1/clubs/{club.slug}/tournaments/"
    assert (
        api.post(url, {"name": "L", "slug": "l", "kind": "ladder"}, format="json").status_code
        == 201
    )
    assert (
        api.post(f"/api/v1/clubs/{club.slug}/members/", {"name": "Zed"}, format="json").status_code
        == 403
    )


def test_the_api_records_a_bye(club, secretary_api, rotation):
    ann = rotation.players.get(member__name="Ann")
    url = f"/api/v1/clubs/{club.slug}/tournaments/rotation/players/{ann.member_id}/bye/"
    response = secretary_api.post(url)
    assert response.status_code == 200 and response.json()["bye_rounds"] == [1]
    again = secretary_api.post(url)
    assert again.status_code == 400
    assert again.json()["error"]["message"] == "Ann sits out round 1 already."


@pytest.mark.parametrize("member", ["ann", "9" * 40, "", "٣"])
def test_a_player_not_named_by_a_number_is_refused(directing, rotation, member):
    response = act(directing, rotation, "bye", member=member)
    assert response.status_code == 200
    assert response.context["errors"]["bye"]
    assert not rotation.players.exclude(bye_rounds=[]).exists()


def _four(club, directing):
    tournament = services.tournament_create(
        club=club, name="Four", slug="four", kind="progressive",
        ruleset="euchre-somerset-1888", movement="progressive", deals_per_round=1,
    )  # fmt: skip
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        act(directing, tournament, "enter", name=name)
    return tournament


def test_round_one_is_seated_by_the_cards_the_players_cut(directing, club, roster):
    """Ruling T10: the director may type the cards actually cut; they are kept. Round 1
    of a progressive is two cuts: for places at the tables, then for partners and deal."""
    tournament = _four(club, directing)
    cards = "Ann: JS 9H, Bob: AS 10H, Cora: KS JH, Dan: QS AH"
    page = act(directing, tournament, "seat", cards=cards).content.decode()
    assert "Round 1 is seated." in page
    assert "as the players cut, ruling T10" in page and "Ann J♠" in page and "Ann JS" not in page
    seating = tournament.rounds.get(number=1).seating
    assert seating["drawn_by_service"] is False
    assert [c["cards"] for c in seating["cuts"] if c["player"] == "Ann"] == [["JS"], ["9H"]]


def test_cut_cards_under_names_typed_in_small_letters_are_the_players(directing, club, roster):
    """Ruling T10: "ann: JS" is Ann's card, as "ann" arriving is Ann (club.services.
    member_named); it was refused as the card of someone "not playing this round"."""
    tournament = _four(club, directing)
    cards = "ann: JS 9H, BOB: AS 10H, co ra: KS JH, Dan: QS AH"
    page = act(directing, tournament, "seat", cards=cards).content.decode()
    assert "not playing this round" not in page
    assert "Round 1 is seated." in page
    cuts = tournament.rounds.get(number=1).seating["cuts"]
    assert {c["player"] for c in cuts} == {"Ann", "Bob", "Cora", "Dan"}
    assert [c["cards"] for c in cuts if c["player"] == "Cora"] == [["KS"], ["JH"]]


def test_one_player_named_twice_in_the_cut_is_refused(directing, club, roster):
    tournament = _four(club, directing)
    cards = "Ann: JS 9H, ann: 8S, Bob: AS 10H, Cora: KS JH, Dan: QS AH"
    page = act(directing, tournament, "seat", cards=cards).content.decode()
    assert "Round 1 is seated." not in page
    assert not tournament.rounds.exists()


def test_cut_cards_typed_wrong_are_refused_and_nothing_is_seated(directing, club, roster):
    tournament = _four(club, directing)
    page = act(directing, tournament, "seat", cards="Ann JS, Bob AS").content.decode()
    assert "Write each player&#x27;s card as &#x27;Ann: J♠&#x27; (or &#x27;Ann: JS&#x27;)" in page
    page = act(directing, tournament, "seat", cards="Ann: ZZ, Bob: AS").content.decode()
    # Ruling T1: the card refused in the words of every card refusal (club.formation.cards).
    assert "Ann&#x27;s card &#x27;ZZ&#x27; is not a card: write its rank then its suit" in page
    assert "Round 1 is seated." not in page
    assert not tournament.rounds.exists()


def test_cut_cards_of_ten_thousand_characters_are_quoted_short(directing, club, roster):
    """Ruling T10, core.quoted: the refusal repeats at most 40 characters of what was
    typed, so the words saying how to write the cards are all there."""
    from .test_director_corrections import words

    tournament = _four(club, directing)
    page = words(act(directing, tournament, "seat", cards="A" * 10_000))
    said = (
        "Write each player's card as 'Ann: J♠' (or 'Ann: JS'), separated by commas; "
        f"'{'A' * 40}…' is not."
    )
    assert said in page
    assert "A" * 41 not in page
    page = words(act(directing, tournament, "seat", cards=f"Ann: {'Z' * 10_000}"))
    said = f"Ann's card '{'Z' * 40}…' is not a card: write its rank then its suit, as J♠ or JS"
    assert said in page
    assert "Z" * 41 not in page
    assert not tournament.rounds.exists()


def test_a_rounds_winners_are_named_not_coded(directing, rotation, commit):
    """Words, not labels: a table's winners are the players, with their side in words."""
    act(directing, rotation, "seat")
    finish_round(rotation, commit)
    played = rotation.rounds.get(number=1)
    page = directing.get(f"/secretary/tournaments/{rotation.pk}/").content.decode()
    for table in played.seating["tables"]:
        seats = table["seats"]
        assert (
            f'<td class="name" data-label="Won by">{seats["N"]} &amp; {seats["S"]} (N-S)</td>'
            in page
        )
    assert ">NS</td>" not in page


def test_a_player_who_left_and_is_entered_again_plays_from_the_next_round(directing, club, commit):
    """He was told he "plays from round 1", the round he first joined, and the director's
    list said so too, when he came back for round 3."""
    tournament = services.tournament_create(
        club=club, name="Cut", slug="cut", kind="progressive",
        ruleset="euchre-somerset-1888", movement="cut", deals_per_round=1,
    )  # fmt: skip
    for name in [*EIGHT, "Ida"]:
        rounds.tournament_enter(tournament=tournament, name=name)
    ida = tournament.players.get(member__name="Ida")
    act(directing, tournament, "seat")
    act(directing, tournament, "leave", member=ida.member_id)  # before round 2
    finish_round(tournament, commit)
    act(directing, tournament, "seat")
    assert "Ida" not in rounds.round_as_dict(tournament.rounds.get(number=2))["byes"]
    finish_round(tournament, commit)
    page = act(directing, tournament, "enter", name="Ida").content.decode()
    assert "Ida is entered again and plays from round 3." in page
    assert "plays from round 1" not in page
    ida.refresh_from_db()
    assert (ida.joined_round, ida.left_round) == (3, None)
    assert "Ida" in rounds.present_at(tournament=tournament, round_number=3)
    row = re.search(r"<tr[^>]*>(?:(?!</tr>).)*Ida(?:(?!</tr>).)*</tr>", page, re.S).group(0)
    assert "from round 3" in row and "from round 1" not in row
    # Nor does it read as if she had missed round 1, on the screen or on paper.
    assert "in round 1, then left; back from round 3" in row


def test_a_bye_asked_for_is_taken_back_before_its_round_is_seated(club, secretary_api, rotation):
    """Both doors: the page's "Plays round 1 after all", the API's DELETE of the bye."""
    ann = rotation.players.get(member__name="Ann")
    url = f"/api/v1/clubs/{club.slug}/tournaments/rotation/players/{ann.member_id}/bye/"
    assert secretary_api.post(url).json()["bye_rounds"] == [1]
    taken_back = secretary_api.delete(url)
    assert taken_back.status_code == 200 and taken_back.json()["bye_rounds"] == []
    again = secretary_api.delete(url)
    assert again.status_code == 400
    assert again.json()["error"]["message"] == (
        "Ann has no bye asked for round 1, the next to be seated: a round seated already "
        "stands as seated."
    )
    assert again.json()["error"]["field"] == "member"


def test_a_bye_of_a_round_seated_is_not_taken_back(directing, club, roster):
    tournament = _four(club, directing)
    act(directing, tournament, "enter", name="Edith")
    edith = tournament.players.get(member__name="Edith")
    act(directing, tournament, "bye", member=edith.member_id)
    assert "Round 1 is seated." in act(directing, tournament, "seat").content.decode()
    response = act(directing, tournament, "unbye", member=edith.member_id)
    assert "Edith has no bye asked for round 2" in response.context["errors"]["unbye"]
    edith.refresh_from_db()
    assert edith.bye_rounds == [1]


def test_leaving_tapped_by_mistake_is_undone_by_entering_him_again(directing, rotation):
    """Back before the round he left for is seated, he missed no round: his list line said
    "from round 2" when he had played from round 1."""
    act(directing, rotation, "seat")
    ann = rotation.players.get(member__name="Ann")
    act(directing, rotation, "leave", member=ann.member_id)
    page = act(directing, rotation, "enter", name="Ann").content.decode()
    assert "Ann is entered again and plays from round 2." in page
    ann.refresh_from_db()
    assert (ann.joined_round, ann.left_round) == (1, None)
    row = re.search(r"<tr[^>]*>(?:(?!</tr>).)*<td[^>]*>Ann</td>(?:(?!</tr>).)*</tr>", page, re.S)
    assert "from round 1" in row.group(0)


def test_a_round_past_the_planned_last_is_refused_in_words(club, secretary_api, commit):
    """The API's answer was "The tournament has 1 rounds."."""
    tournament = services.tournament_create(
        club=club, name="One", slug="one", kind="progressive", ruleset="euchre-somerset-1888",
        movement="cut", deals_per_round=1, rounds_planned=1,
    )  # fmt: skip
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        rounds.tournament_enter(tournament=tournament, name=name)
    url = f"/api/v1/clubs/{club.slug}/tournaments/one/rounds/"
    assert secretary_api.post(url, {}, format="json").status_code == 201
    finish_round(tournament, commit)
    refused = secretary_api.post(url, {}, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["message"] == (
        "The tournament has no round 2: its only round is seated."
    )


def test_a_card_refused_is_quoted_as_the_director_typed_it(directing, club, roster):
    """Ruling T1: a card that is no card is quoted as it was typed, trimmed ('q♥x'), not
    as the service reads cards, upper-cased ('QHX')."""
    from .test_director_corrections import words

    tournament = _four(club, directing)
    page = words(act(directing, tournament, "seat", cards="Ann: q♥x 9H, Bob: AS 10H"))
    assert "Ann's card 'q♥x' is not a card: write its rank then its suit" in page
    assert "QHX" not in page
    assert not tournament.rounds.exists()
