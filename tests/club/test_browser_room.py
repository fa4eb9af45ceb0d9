"""The room displays and the printable scorecard in Debian's chromium (issue #15, items 6
and 7). The room shows a hand recorded at a table without being reloaded, fits a
1920x1080 screen and is still readable at 1280x720; a player's record prints as a
scorecard. Screenshots in artifacts/screenshots/room-*.png and scorecard-*.png."""

import re

import pytest

from club.models import Member
from tests.browser import shot
from tests.club.rooms import SWEEP, evening_with_a_table, form_all_tables, record, table_one
from tests.room_wall import evening_room, open_room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HD = {"width": 1920, "height": 1080}  # a projector's or a television's screen


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def font_px(page, selector: str) -> float:
    return page.evaluate(
        "s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize)", selector
    )


def test_the_evening_room_updates_itself_and_fits_the_screen(browser_page, live_server, club):
    page = browser_page
    evening = evening_with_a_table(club)
    seats = table_one(evening)["seats"]
    north_south = f"{seats['N']} & {seats['S']}"
    open_room(page, evening_room(live_server, evening), HD, clock=True)
    page.evaluate("window.notReloaded = true")
    row = page.locator(".room-score tbody tr").filter(has_text=north_south)
    score = row.locator(".room-points")
    assert score.inner_text() == "0"
    assert no_sideways_scroll(page)
    assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight")
    assert font_px(page, ".room-table h3") >= 36  # large type across the room
    shot(page, "room-1-evening-1920")

    record(evening, "NS", 5)  # a march, recorded from the table's phone link
    page.clock.run_for(3000)
    page.wait_for_function(
        "t => [...document.querySelectorAll('.room-score tbody tr')].some("
        "r => r.textContent.includes(t) && r.querySelector('.room-points').textContent === '2')",
        arg=north_south,
        timeout=10_000,
    )
    assert page.evaluate("window.notReloaded === true")  # swapped in, not reloaded

    for tricks in SWEEP[1:]:
        record(evening, "NS", tricks)
    page.clock.run_for(3000)
    page.wait_for_selector("text=Rubbers finished: 1", timeout=10_000)
    assert page.locator(".room-leaders li").first.inner_text().endswith("(1 rubber won)")
    assert page.evaluate("window.notReloaded === true")
    assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight")
    shot(page, "room-2-evening-rubber-won")

    page.set_viewport_size({"width": 1280, "height": 720})
    assert no_sideways_scroll(page)
    assert font_px(page, "body") >= 18
    shot(page, "room-3-evening-1280")


def test_a_full_evening_fits_a_1920x1080_screen(browser_page, live_server, club):
    """Sixteen players at three tables (two waiting at two of them), a rubber won, a
    player in the room at no table: all on one screen, nothing scrolled."""
    names = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Hugh", "Iris", "Jack",
             "Kate", "Lewis", "Mabel", "Ned", "Olive", "Percival"]  # fmt: skip
    evening = evening_with_a_table(club, players=names)
    form_all_tables(evening)
    from club import evenings

    evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": "Quentin"})
    for tricks in SWEEP:
        record(evening, "EW", tricks, table=2)
    page = browser_page
    open_room(page, evening_room(live_server, evening), HD)
    assert page.locator("article.room-table").count() == 3
    assert page.get_by_test_id("room-candidates").inner_text() == "Quentin"
    assert no_sideways_scroll(page)
    shot(page, "room-5-full-evening-1920")
    assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight")
    page.set_viewport_size({"width": 1280, "height": 720})
    assert no_sideways_scroll(page)
    shot(page, "room-6-full-evening-1280")


def test_the_tournament_room_updates_itself(browser_page, live_server, club):
    from club import recording
    from tournaments import rounds as progressive
    from tournaments import services

    tournament = services.tournament_create(
        club=club, name="Spring progressive", slug="spring", kind="progressive",
        ruleset="euchre-somerset-1888", movement="rotation",
    )  # fmt: skip
    for name in ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Hugh"]:
        progressive.tournament_enter(tournament=tournament, name=name)
    played = progressive.round_seat_next(tournament_id=tournament.pk)
    page = browser_page
    # On the room's own clock: its poll (every 3 s) is run forward, not waited for.
    open_room(page, f"{live_server.url}/clubs/somerset/tournaments/spring/room/", HD, clock=True)
    page.evaluate("window.notReloaded = true")
    assert page.locator("article.room-table").count() == 2
    rubber = played.tables.get(number=1).rubber
    for tricks in SWEEP:
        recording.hand_record(rubber_id=rubber.pk, data={"makers": "NS", "tricks": tricks})
    page.clock.run_for(3_000)
    page.wait_for_selector("article[data-table='1'] .room-doing", timeout=10_000)
    assert "finished" in page.locator("article[data-table='1'] h3").inner_text()
    assert "Won by" in page.locator("article[data-table='1'] caption").inner_text()
    # The standings follow once the recalculation has published its version.
    page.clock.run_for(3_000)
    page.wait_for_function(
        "document.querySelectorAll('.room-standings tbody th').length >= 4", timeout=10_000
    )
    assert page.evaluate("window.notReloaded === true")
    assert no_sideways_scroll(page)
    shot(page, "room-4-tournament-1920")


def test_the_players_record_prints_as_a_scorecard(browser_page, live_server, club):
    evening = evening_with_a_table(club)
    seats = table_one(evening)["seats"]
    for tricks in SWEEP:
        record(evening, "NS", tricks)
    member = Member.objects.get(name=seats["N"])
    page = browser_page
    page.goto(f"{live_server.url}/clubs/somerset/")
    page.get_by_role("searchbox", name="Find a player").fill(seats["N"])
    page.get_by_role("button", name="Find").click()
    page.get_by_role("link", name=seats["N"], exact=True).click()
    page.wait_for_url(re.compile(rf"/players/{member.pk}/$"))
    scorecard = page.locator("table.scorecard-table")
    assert scorecard.is_visible()
    assert page.get_by_role("button", name="Print the scorecard").is_visible()
    assert not page.locator(".print-only").is_visible()
    shot(page, "scorecard-1-screen")

    page.emulate_media(media="print")
    assert scorecard.is_visible()
    assert "Season 1888: 1 evening" in scorecard.locator("tfoot").inner_text()
    assert page.locator(".print-only").is_visible()  # the club and the season, on paper
    for hidden in ("header.site", ".crumbs", "form.find-player", ".every-rubber"):
        assert page.locator(hidden).count() == 0 or not page.locator(hidden).first.is_visible()
    assert not page.get_by_role("button", name="Print the scorecard").is_visible()
    shot(page, "scorecard-2-print")
    pdf = page.pdf(format="A4", landscape=True)
    assert pdf.startswith(b"%PDF")


# Every element that shows text, with its colour and the background it is printed on: a
# browser prints no background colour unless told to (print-color-adjust: economy), so
# the paper's white is behind the text unless a background is kept.
PRINTED_INK = """() => {
  const rgb = c => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => v / 255)
    .map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const worst = [];
  for (const el of document.querySelectorAll('#room *')) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.offsetParent) continue;
    const style = getComputedStyle(el);
    const kept = style.printColorAdjust === 'exact';
    let paper = [255, 255, 255];
    for (let up = el; up && kept; up = up.parentElement) {
      const bg = getComputedStyle(up).backgroundColor;
      if (!bg.startsWith('rgba(0, 0, 0, 0)')) { paper = rgb(bg); break; }
    }
    const [a, b] = [lum(rgb(style.color)), lum(paper)];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) worst.push([el.textContent.trim().slice(0, 30), style.color, ratio]);
  }
  return worst;
}"""


def test_a_printed_room_display_is_readable_on_white_paper(browser_page, live_server, club):
    """The room display is white type on near-black for a projector. Printed (a club
    pinning the evening's table and money on the board), the browser leaves the dark
    background out and the near-white type was all but invisible on the paper: every text
    of the printed room now reads at WCAG AA's 4.5:1 against what it is printed on, and
    the paper does not say it updates by itself."""
    page = browser_page
    evening = evening_with_a_table(club)
    for tricks in SWEEP:
        record(evening, "NS", tricks)
    page.emulate_media(media="print")
    page.goto(evening_room(live_server, evening))
    page.wait_for_selector("text=Rubbers finished: 1")
    assert page.evaluate(PRINTED_INK) == []
    assert not page.get_by_text("Updates by itself").is_visible()
    shot(page, "room-evening-printed")


@pytest.mark.parametrize("width", [360, 1280])
def test_a_call_ace_evening_calls_its_sittings_sittings(browser_page, live_server, club, width):
    """Call-Ace plays sittings, settled when they close, not rubbers (ruling C5): its
    score sheet says "Sitting 2", and its room display said "Rubber 1", "No rubber
    settled yet" and "Rubbers finished", its results page "Rubbers". Both say sittings."""
    from tests.worlds import bridge_and_call_ace_in_play

    evening = bridge_and_call_ace_in_play(club).call_ace.evening
    page = browser_page
    open_room(page, evening_room(live_server, evening), {"width": width, "height": 800})
    room = page.locator("#room").inner_text()
    assert "Sitting 1" in room
    assert "No sitting settled yet." in room
    assert "Sittings finished: 0" in room
    assert "ubber" not in room  # neither "Rubber" nor "rubber"
    shot(page, f"room-call-ace-{width}")
    page.goto(f"{live_server.url}/clubs/somerset/evenings/{evening.pk}/")
    assert page.get_by_role("heading", name="Sittings").is_visible()
    assert "ubber" not in page.locator("main").inner_text()
    assert no_sideways_scroll(page)
