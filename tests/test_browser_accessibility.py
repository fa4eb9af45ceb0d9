"""Every kind of page passes axe-core with no serious or critical violation (issue #15,
item 10): the secretary's home and board, the evening sheet, the printed table cards (an
evening's, a progressive's), the club's people, the director's page, a progressive's table
as its director scores it, the public club home, players, evening results, standings, a
player's record, a rubber, the two room displays, the table's phone page (an evening's
table's, a progressive's) and the login page.

axe-core is the copy bundled in axe-playwright-python (no download at test time); it runs
in Debian's chromium. Each page is checked as it first loads and, where it polls, after a
hand has been recorded and swapped in.
"""

import pytest

from club import recording
from tests.browser import log_in, settled
from tests.club.rooms import evening_with_a_table, record
from tournaments import rounds as progressive
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GRAVE = {"serious", "critical"}


def grave_violations(page) -> list[str]:
    """axe-core's serious and critical violations on the page, one line per rule, naming
    the elements (at most five) and what is wrong with the first."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    found = []
    for violation in results.response["violations"]:
        if violation["impact"] not in GRAVE:
            continue
        nodes = violation["nodes"]
        targets = ", ".join(str(node["target"]) for node in nodes[:5])
        summary = nodes[0].get("failureSummary", "").replace("\n", " ") if nodes else ""
        found.append(f"{violation['id']} ({violation['impact']}): {targets} — {summary}")
    return found


@pytest.fixture
def world(club, secretary):
    """A public club's evening with a table in play, a ladder over it and a progressive
    tournament with a round seated and a hand played."""
    evening = evening_with_a_table(club)
    record(evening, "NS", 5)
    ladder = services.tournament_create(
        club=club, name="Winter ladder", slug="winter", kind="ladder", evening_ids=[evening.pk]
    )
    spring = services.tournament_create(
        club=club, name="Spring progressive", slug="spring", kind="progressive",
        ruleset="euchre-somerset-1888", movement="rotation",
    )  # fmt: skip
    for name in ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Hugh"]:
        progressive.tournament_enter(tournament=spring, name=name)
    played = progressive.round_seat_next(tournament_id=spring.pk)
    recording.hand_record(
        rubber_id=played.tables.get(number=1).rubber_id, data={"makers": "EW", "tricks": 3}
    )
    return evening, ladder, spring


def test_no_page_has_a_serious_or_critical_violation(browser_page, live_server, world, club):
    evening, ladder, spring = world
    page = browser_page
    member = club.members.order_by("pk").first()
    rubber = evening.rubbers.get()
    table = evening.tables.get(number=1)
    public = {
        "login": "/accounts/login/",
        "site home": "/",
        "club home": f"/clubs/{club.slug}/",
        "players": f"/clubs/{club.slug}/players/?name=a",
        "evening results": f"/clubs/{club.slug}/evenings/{evening.pk}/",
        "evening room": f"/clubs/{club.slug}/evenings/{evening.pk}/room/",
        "standings": f"/clubs/{club.slug}/tournaments/{ladder.slug}/",
        "tournament room": f"/clubs/{club.slug}/tournaments/{spring.slug}/room/",
        "player record": f"/clubs/{club.slug}/players/{member.pk}/",
        "rubber": f"/clubs/{club.slug}/rubbers/{rubber.pk}/",
        "table's phone": f"/t/{table.token}/",
        # A progressive's table's phone, its players' (tournaments/views_phone.py).
        "a progressive's table's phone": f"/p/{spring.table_links.get(number=1).token}/",
    }
    secretary = {
        "secretary home": "/secretary/",
        "board": f"/secretary/evenings/{evening.pk}/",
        "evening sheet": f"/secretary/evenings/{evening.pk}/sheet/",
        "table cards": f"/secretary/evenings/{evening.pk}/table-cards/",
        "club's people": f"/secretary/clubs/{club.slug}/people/",
        "director": f"/secretary/tournaments/{spring.pk}/",
        "director (ladder)": f"/secretary/tournaments/{ladder.pk}/",
        # A progressive's table as its director scores it (tournaments/views_table.py).
        "a progressive's table": f"/secretary/tournaments/{spring.pk}/rounds/1/tables/1/",
        "a progressive's table cards": f"/secretary/tournaments/{spring.pk}/table-cards/",
        # With the forms to correct a hand or take one off (scoring/views_secretary.py).
        "rubber, as its secretary": f"/clubs/{club.slug}/rubbers/{rubber.pk}/",
    }
    problems = {}

    def check(name: str, path: str) -> None:
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 200, (name, path, response.status)
        # Loaded (goto waits for its load event: styles, scripts, images) and no htmx
        # request in flight: no page fetches more after loading, but for its polls,
        # which "networkidle" waited half a second each page to see none of.
        settled(page)
        found = grave_violations(page)
        if found:
            problems[name] = found

    for name, path in public.items():
        check(name, path)
    log_in(page, live_server)
    for name, path in secretary.items():
        check(name, path)
    # The board after an action swapped in (the error and notice boxes, the cut form).
    page.goto(f"{live_server.url}{secretary['board']}")
    page.fill("input[name=player]", "Grace")
    page.get_by_test_id("arrive").click()
    page.wait_for_selector("#board .alert.ok")
    found = grave_violations(page)
    if found:
        problems["board after an action"] = found
    assert not problems, "\n".join(
        f"{name}:\n  " + "\n  ".join(lines) for name, lines in problems.items()
    )


def test_the_check_finds_a_missing_label_and_poor_contrast(browser_page):
    """The check above can fail: axe-core, as bundled, finds an unlabelled input and grey
    text on white on a page made to have them."""
    page = browser_page
    page.set_content(
        "<html><body><main><h1>Bad</h1><input type=text>"
        "<p style='color:#bbb;background:#fff'>faint</p></main></body></html>"
    )
    found = " ".join(grave_violations(page))
    assert "label (critical)" in found
    assert "color-contrast (serious)" in found
    assert "html-has-lang (serious)" in found


def test_a_player_is_found_from_the_clubs_page_with_the_keyboard_alone(
    browser_page, live_server, world, club
):
    page = browser_page
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    for _ in range(12):  # past the site's header links to the search box
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "find-player-name":
            break
    assert page.evaluate("document.activeElement.id") == "find-player-name"
    page.keyboard.type("Cor")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{live_server.url}/clubs/{club.slug}/players/?name=Cor")
    page.keyboard.press("Tab")  # focus moves on through the page's links to Cora's
    for _ in range(12):
        if page.evaluate("document.activeElement.textContent") == "Cora":
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_selector("h1:has-text('Cora')")
