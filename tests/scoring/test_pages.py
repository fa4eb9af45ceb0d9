"""The public score sheet page of a stored rubber: what a reader sees for each game,
who may see it, and that it reads the rubber in a fixed number of queries."""

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from club import recording
from scoring import services
from tests.browser import shot
from tests.scoring.conftest import PAIRS, euchre

pytestmark = pytest.mark.django_db

# The Euchre example of docs/scoresheet.md, with the roster's names (ruling E1-E6):
# game 1 single with a lap of 1, game 2 double with a lap of 3, game 3 to EW single
# with a lap of 1, so a fourth game, double to EW, whose lap of 3 is lost. NS 5, EW 3.
EUCHRE_HANDS = [
    euchre("NS", 3),
    euchre("EW", 5, alone=True),
    euchre("NS", 5, revokes=["EW"]),
    euchre("EW", 2),
    euchre("NS", 4, alone=True, law90="EW"),
    euchre("EW", 5, alone=True, law102=True),
    euchre("EW", 5),
    euchre("EW", 5),
    euchre("NS", 1, revokes=["NS", "EW"]),
    euchre("EW", 4),
    euchre("EW", 5, alone=True),
]

# The Bridge example of docs/scoresheet.md: odd trick capped at 100, worth 82 (ruling B7).
BRIDGE_HANDS = [
    {
        "declarer": "NS",
        "trump": "H",
        "doubles": 1,
        "tricks": {"NS": 9, "EW": 4},
        "honours": {"side": "NS", "held": 4, "in_one_hand": 3},
        "chicane": {"NS": 0, "EW": 1},
    },
    {
        "declarer": "EW",
        "trump": "NT",
        "tricks": {"NS": 3, "EW": 10},
        "honours": {"side": "EW", "held": 4, "in_one_hand": 4},
    },
    {
        "declarer": "NS",
        "trump": "S",
        "tricks": {"NS": 12, "EW": 1},
        "honours": {"side": "EW", "held": 3, "in_one_hand": 2},
    },
    {
        "declarer": "NS",
        "trump": "D",
        "tricks": {"NS": 13, "EW": 0},
        "honours": {"side": "NS", "held": 5, "in_one_hand": 4},
        "revokes": {"NS": 1, "EW": 0},
    },
    {
        "declarer": "EW",
        "trump": "NT",
        "doubles": 1,
        "tricks": {"NS": 6, "EW": 7},
        "honours": None,
    },
    {
        "declarer": "NS",
        "trump": "H",
        "tricks": {"NS": 7, "EW": 6},
        "honours": {"side": "EW", "held": 3, "in_one_hand": 3},
    },
]

# The Call-Ace example of docs/scoresheet.md: five players, totals 5 6 8 5 9 (ruling C5).
# The tricks of the revoke and void deals are given (the laws let them be left out)
# because a deal stored without tricks breaks Hand.tricks' NOT NULL (reported).
CALL_ACE_PLAYERS = ["Ann", "Bob", "Cora", "Dan", "Edith"]
CALL_ACE_DEALS = [
    {"maker": "Ann", "alone": True, "tricks": 5},
    {"maker": "Bob", "partner": "Cora", "tricks": 4},
    {"maker": "Dan", "partner": "Ann", "tricks": 2},
    {"maker": "Edith", "partner": None, "tricks": 5},
    {"maker": "Cora", "partner": "Dan", "revoke": "adversaries", "tricks": 2},
    {"maker": "Bob", "partner": "Edith", "tricks": 5, "no_score": ["Edith"]},
    {"maker": "Ann", "partner": "Bob", "revoke": "makers", "tricks": 2},
    {"void": True, "tricks": 0},
    {"maker": "Dan", "partner": "Cora", "tricks": 3, "revoke": "both"},
]


class _Page(HTMLParser):
    """What a reader sees: the text of every element with an id, and the cells of each
    table row with an id, whitespace collapsed."""

    VOID = {"area", "br", "col", "hr", "img", "input", "link", "meta", "source", "wbr"}
    INLINE = {"a", "abbr", "b", "code", "em", "i", "s", "small", "span", "strong"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[dict] = []
        self.text: dict[str, str] = {}
        self.cells: dict[str, list[str]] = {}

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append({"tag": tag, "id": dict(attrs).get("id"), "parts": [], "cells": []})

    def handle_endtag(self, tag):
        while self.stack:
            node = self.stack.pop()
            text = "".join(node["parts"])
            if node["tag"] not in self.INLINE:
                text = f" {text} "
            if node["id"]:
                self.text[node["id"]] = " ".join(text.split())
                if node["tag"] == "tr":
                    self.cells[node["id"]] = node["cells"]
            if self.stack:
                self.stack[-1]["parts"].append(text)
                if node["tag"] in ("td", "th"):
                    self.stack[-1]["cells"].append(" ".join(text.split()))
            if node["tag"] == tag:
                break

    def handle_data(self, data):
        if self.stack:
            self.stack[-1]["parts"].append(data)


def read(client, rubber, slug="somerset") -> _Page:
    """Fetch a rubber's page and parse what it shows."""
    response = client.get(reverse("rubber-detail", kwargs={"slug": slug, "pk": rubber.pk}))
    assert response.status_code == 200
    page = _Page()
    page.feed(response.content.decode())
    page.close()
    return page


def euchre_rubber(club, evening, table, secretary, hands=EUCHRE_HANDS):
    """The Euchre example, with hand 4 first recorded wrongly as EW making three tricks and
    put right by the secretary, as referee, after hand 5 had been recorded (ruling E9)."""
    rubber = services.rubber_start(
        club=club, ruleset="euchre-somerset-1888", players=PAIRS, evening=evening, table=table
    )

    def record(*played):
        for hand in played:
            recording.hand_record(rubber_id=rubber.pk, data=hand, table=table)

    if len(hands) < 5:
        record(*hands)
    else:
        record(*hands[:3], euchre("EW", 3), hands[4])
        recording.hand_correct(
            rubber_id=rubber.pk,
            number=4,
            data=hands[3],
            reason="EW took two tricks, not three",
            user=secretary,
            is_secretary=True,
        )
        record(*hands[5:])
    rubber.refresh_from_db()
    return rubber


def bridge_rubber(club):
    """The Bridge example, recorded hand by hand."""
    rubber = services.rubber_start(
        club=club,
        ruleset="bridge-elwell-1907",
        players=PAIRS,
        options={"odd_trick_cap": 100},
        stake="0.01",
    )
    for hand in BRIDGE_HANDS:
        recording.hand_record(rubber_id=rubber.pk, data=hand)
    rubber.refresh_from_db()
    return rubber


@pytest.fixture
def euchre_sheet(club, roster, evening, table, secretary):
    return euchre_rubber(club, evening, table, secretary)


def test_euchre_sheet_shows_games_laps_values_rubber_and_ledger(client, euchre_sheet):
    rubber = euchre_sheet
    assert rubber.value == 2
    page = read(client, rubber)
    game = {n: page.text[f"rubber-{rubber.pk}-game-{n}"] for n in (1, 2, 3, 4)}
    hand = {n: page.cells[f"rubber-{rubber.pk}-hand-{n}"] for n in range(1, 12)}

    # Game 1: running scores per side; EW's revoke (3) comes before NS's march (2) and
    # takes NS to six: five, and a lap of 1 (rulings E2, E6).
    assert hand[1][2:] == ["1 +1", "0"]
    assert hand[2][2:] == ["1", "4 +4"]
    assert hand[3][1].startswith("N-S make, 5 tricks (march); revoke by E-W")
    assert hand[3][2:] == ["5 +5 lap 1", "4"]
    assert "Game 1 to N-S: single, counts 1 (ruling E3)" in game[1]
    assert "N-S's lap of 1: carried into game 2 (ruling E2)" in game[1]

    # Game 2 opens with NS's lap of 1; EW never score: double.
    assert "Lap carried in from game 1 (ruling E2) 1 0" in game[2]
    assert hand[4][2:] == ["3 +2", "0"]
    assert "Game 2 to N-S: double, counts 2 (ruling E3)" in game[2]
    # Game 3 opens with NS's lap of 3; game 4 with EW's lap of 1, and its lap is lost.
    assert "Lap carried in from game 2 (ruling E2) 3 0" in game[3]
    assert "Game 3 to E-W: single, counts 1" in game[3]
    assert "Lap carried in from game 3 (ruling E2) 0 1" in game[4]
    assert "a fourth game" in game[4]
    assert hand[11][2:] == ["0", "5 +1 lap 3, lost"]
    assert "Game 4 to E-W: double, counts 2" in game[4]
    assert "E-W's lap of 3: lost, the rubber's last game (ruling E2)" in game[4]

    # Ruling E4: NS 1 + 2 and two for the rubber, EW 1 + 2: worth 2.
    result = page.text[f"rubber-{rubber.pk}-result"]
    assert "Games won, by value (ruling E3) 1 + 2 1 + 2" in result
    assert "For the rubber (ruling E4) 2 Total 5 3" in result
    assert "Rubber to Ann & Cora (N-S), worth 2 (ruling E4)." in result  # named, not "NS"
    # The sides' columns are headed in words, as the phone names them ("N-S", not "NS").
    html = client.get(reverse("rubber-detail", kwargs={"slug": "somerset", "pk": rubber.pk}))
    heads = re.findall(r'<th class="num side" scope="col">([^<]*)<span', html.content.decode())
    assert heads[:2] == ["N-S", "E-W"]
    # Ruling M1: at 0.25 a point, each NS player receives 0.50 from one EW player.
    ledger = page.text[f"rubber-{rubber.pk}-ledger"]
    assert "At 0.25 USD a point" in ledger
    # A loss with a true minus (U+2212), as every page writes money (the `money` filter).
    assert "Ann +0.50 USD Cora +0.50 USD Bob \u22120.50 USD Dan \u22120.50 USD" in ledger


def test_euchre_sheet_shows_a_correction_beside_the_original(client, euchre_sheet):
    rubber = euchre_sheet
    page = read(client, rubber)
    play = page.cells[f"rubber-{rubber.pk}-hand-4"][1]
    # Ruling E9: the corrected hand, marked, with the original and who corrected it, why.
    assert play.startswith("E-W make, 2 tricks (euchred) corrected")
    assert "was E-W make, 3 tricks: N-S 0, E-W 1;" in play
    # Named by his role: the secretary has no full name, and his login name is never shown;
    # the role every account that corrects holds (a director, the staff), ruling E9.
    assert "corrected by the club's referee," in play
    assert "(secretary)" not in play
    assert "“EW took two tricks, not three”" in play
    # The explanation of the corrected score is there to unfold.
    assert "law 2: E-W make, two tricks (euchred): 2 to N-S" in play
    assert "corrected" not in page.cells[f"rubber-{rubber.pk}-hand-5"][1]


def test_euchre_rubber_in_progress_shows_the_current_game(client, club, roster, evening, table):
    rubber = euchre_rubber(club, evening, table, None, hands=EUCHRE_HANDS[:4])
    page = read(client, rubber)
    assert "Score so far 3 0" in page.text[f"rubber-{rubber.pk}-game-2"]
    assert "In progress." in page.text[f"rubber-{rubber.pk}-result"]
    assert f"rubber-{rubber.pk}-ledger" not in page.text


def test_bridge_sheet_shows_the_line_games_rubber_and_ledger(client, club, roster):
    rubber = bridge_rubber(club)
    page = read(client, rubber)

    line = page.text[f"rubber-{rubber.pk}-line"]
    # Above the line, written upwards: the rubber's 100 on top, NS's first honours
    # (32 less EW's chicane, 16) just above the line.
    above = line.split("Game 1")[0]
    assert above.index("100 rubber") < above.index("54 honours, hand 4")
    assert above.index("54 honours, hand 4") < above.index("20 little slam, hand 3")
    assert above.index("20 little slam, hand 3") < above.index("16 honours less chicane, hand 1")
    assert "100 honours, hand 2" in above and "4 honours, hand 3" in above
    # Below the line, game by game: tricks, then the game's rule.
    assert "Game 1: N-S 48 hand 1" in line
    assert "Game 2: E-W 48 hand 2" in line
    assert "Game 3: N-S 12 hand 3 24 hand 5 16 hand 4 8 hand 6" in line

    # Hand 4: NS's revoke moves three tricks and holds them at 28 (ruling B6).
    hand4 = page.cells[f"rubber-{rubber.pk}-hand-4"]
    assert hand4[1].startswith("N-S declare diamonds; N-S 13 tricks, E-W 0; N-S 5 honours")
    assert "1 revoke by N-S" in hand4[1]
    assert hand4[2:] == ["16", "54", "", ""]
    assert "Game 3 to N-S (ruling B2) 36 24" in page.text[f"rubber-{rubber.pk}-game-3"]

    # Ruling B7: NS 84 + 90 + 100 = 274, EW 72 + 120 = 192, worth 82.
    result = page.text[f"rubber-{rubber.pk}-result"]
    assert "Below the line (tricks) 84 72" in result
    assert "Above the line (honours, chicane, slams) 90 120" in result
    assert "For the rubber (ruling B7) 100 Total 274 192" in result
    assert "Rubber to Ann & Cora (N-S), worth 82 (ruling B7)." in result
    ledger = page.text[f"rubber-{rubber.pk}-ledger"]
    assert "Ann +0.82 USD Cora +0.82 USD Bob \u22120.82 USD Dan \u22120.82 USD" in ledger


def test_call_ace_sheet_shows_running_totals_settlement_and_ledger(
    client, club, roster, evening, table
):
    rubber = services.rubber_start(
        club=club,
        ruleset="call-ace-foster-1905",
        players=CALL_ACE_PLAYERS,
        stake="0.05",
        evening=evening,
        table=table,
    )
    for i, deal in enumerate(CALL_ACE_DEALS, 1):
        if i == 2:
            # Recorded as a march, put right at the table before the next deal (law 5).
            recording.hand_record(rubber_id=rubber.pk, data={**deal, "tricks": 5}, table=table)
            recording.hand_correct(rubber_id=rubber.pk, number=2, data=deal, table=table)
        else:
            recording.hand_record(rubber_id=rubber.pk, data=deal, table=table)
    recording.sitting_close(rubber_id=rubber.pk)
    page = read(client, rubber)

    cell = {n: page.cells[f"rubber-{rubber.pk}-hand-{n}"] for n in range(1, 10)}
    assert cell[1][1].startswith("Ann alone, 5 tricks")
    assert cell[1][2:] == ["5 +5", "0", "0", "0", "0"]
    assert cell[3][2:] == ["5", "3 +2", "3 +2", "0", "2 +2"]
    assert cell[6][1].startswith("Bob with Edith, 5 tricks; no score: Edith")
    assert cell[9][2:] == ["5", "6", "8", "5", "9"]

    assert cell[2][1].startswith("Bob with Cora, 4 tricks corrected")
    assert "was Bob with Cora, 5 tricks: Ann 0, Bob 3, Cora 3, Dan 0, Edith 0" in cell[2][1]
    assert "corrected by the players, before the next hand (the table's phone)" in cell[2][1]

    # Ruling C5: nets n x own - 33, and the money at 0.05 a point.
    assert page.cells[f"rubber-{rubber.pk}-totals"][1:] == ["5", "6", "8", "5", "9"]
    assert page.cells[f"rubber-{rubber.pk}-settlement"][1:] == ["-8", "-3", "+7", "-8", "+12"]
    ledger = page.text[f"rubber-{rubber.pk}-ledger"]
    assert (
        "Ann \u22120.40 USD Bob \u22120.15 USD Cora +0.35 USD Dan \u22120.40 USD Edith +0.60 USD"
        in ledger
    )


@pytest.mark.parametrize(
    ("ruleset", "players", "empty"),
    [
        ("euchre-somerset-1888", PAIRS, "No hand played yet."),
        ("bridge-elwell-1907", PAIRS, "No hand played yet."),
        ("call-ace-foster-1905", CALL_ACE_PLAYERS[:4], "No deal played yet."),
    ],
)
def test_a_rubber_just_started_shows_an_empty_sheet(client, club, roster, ruleset, players, empty):
    rubber = services.rubber_start(club=club, ruleset=ruleset, players=players)
    page = read(client, rubber)
    sheet = page.text[f"rubber-{rubber.pk}"]
    assert empty in sheet
    assert "in progress" in sheet.lower()
    assert f"rubber-{rubber.pk}-ledger" not in page.text


def test_private_club_rubber_is_hidden_from_the_public(client, euchre_sheet, secretary):
    club = euchre_sheet.club
    club.is_public = False
    club.save(update_fields=["is_public"])
    url = reverse("rubber-detail", kwargs={"slug": club.slug, "pk": euchre_sheet.pk})
    assert client.get(url).status_code == 404
    client.force_login(secretary)
    assert client.get(url).status_code == 200


def test_another_clubs_rubber_is_not_found_under_this_club(client, euchre_sheet, other_club):
    url = reverse("rubber-detail", kwargs={"slug": other_club.slug, "pk": euchre_sheet.pk})
    assert client.get(url).status_code == 404
    missing = reverse("rubber-detail", kwargs={"slug": "somerset", "pk": euchre_sheet.pk + 1000})
    assert client.get(missing).status_code == 404


def test_the_page_reads_a_rubber_in_a_fixed_number_of_queries(
    client, club, roster, evening, table, secretary, django_assert_max_num_queries
):
    # The club, the rubber (with its evening and table), its hands, their corrections
    # (with who made them) and its settlements: the same five for one hand or eleven.
    short = euchre_rubber(club, evening, table, secretary, hands=EUCHRE_HANDS[:1])
    long = euchre_rubber(club, evening, table, secretary)
    for rubber in (short, long):
        with django_assert_max_num_queries(5):
            read(client, rubber)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_on_a_phone_only_the_sheets_scroll_and_print_keeps_the_corrections(
    browser_page,
    live_server,
    club,
    roster,
    evening,
    table,
    secretary,
):
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 740})

    def goto(rubber):
        kwargs = {"slug": "somerset", "pk": rubber.pk}
        page.goto(live_server.url + reverse("rubber-detail", kwargs=kwargs))

    # Bridge's hand tables fit a phone, both sides' columns in view (they scrolled inside
    # their own box, E-W's out of sight: tests/scoring/test_browser_bridge_sheet_phone.py),
    # and the page itself never scrolls sideways.
    goto(bridge_rubber(club))
    widths = (
        "[...document.querySelectorAll('.sheet-scroll')].map(e => e.scrollWidth - e.clientWidth)"
    )
    assert max(page.evaluate(widths)) <= 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "scoresheet-bridge-phone")

    goto(euchre_rubber(club, evening, table, secretary))
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.locator("tr.corrected .tag").first.is_visible()
    shot(page, "scoresheet-euchre-phone")
    # On paper: the explanations fold away, the corrections stay.
    page.emulate_media(media="print")
    assert not page.locator("details.why").first.is_visible()
    assert page.locator(".correction").first.is_visible()


@pytest.mark.parametrize(
    ("ruleset", "players", "label"),
    [
        ("euchre-somerset-1888", PAIRS, "Rubber"),
        ("bridge-elwell-1907", PAIRS, "Rubber"),
        ("call-ace-foster-1905", CALL_ACE_PLAYERS[:4], "Sitting"),
    ],
)
def test_the_page_is_headed_with_the_games_own_word(client, club, roster, ruleset, players, label):
    rubber = services.rubber_start(club=club, ruleset=ruleset, players=players)
    response = client.get(reverse("rubber-detail", kwargs={"slug": "somerset", "pk": rubber.pk}))
    assert f"<h1>{label} {rubber.pk}: " in response.content.decode()
    assert str(rubber) == f"{label} {rubber.pk}"  # no rule set key: pages show the game
