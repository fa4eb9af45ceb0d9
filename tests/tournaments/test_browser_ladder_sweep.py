"""A director's club ladder across several evenings, as he meets it in Debian's chromium at
1280 and 360 px: the ladder made on the new-tournament form, the evenings of its game
added (a Bridge evening never offered), the standings recalculated (Celery eager, as the
tests run it), the public ladder page, a player's page from it (his place there, and the way back),
and the standings printed.
Nothing runs sideways off the screen on the way."""

import re

import pytest

from tests.browser import log_in, settled, shot
from tests.factories import EveningFactory
from tests.tournaments.conftest import start, sweep
from tests.tournaments.test_browser_director import CLOSED_LIST
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def press(page, testid: str):
    settled(page)
    with page.expect_response(re.compile(r"/act/$")):
        page.get_by_test_id(testid).first.click()
    settled(page)


def no_sideways(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width, page.url


@pytest.mark.parametrize("width", [1280, 360])
def test_a_ladder_across_three_evenings(browser_page, live_server, club, roster, secretary, width):
    from club import recording

    nights = [EveningFactory(club=club, title=f"Night {n}", stake="0.25") for n in (1, 2, 3)]
    EveningFactory(club=club, ruleset="bridge-elwell-1907", title="Bridge drive")
    for number, night in enumerate(nights):  # Ann & Cora win the first two, lose the third
        rubber = start(club, night, ["Ann", "Cora"], ["Bob", "Dan"])
        for h in sweep("NS" if number < 2 else "EW"):
            recording.hand_record(rubber_id=rubber.pk, data=h)
    page = browser_page
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/clubs/somerset/tournaments/new/")
    page.fill("input[name=name]", "Winter ladder")
    page.fill("input[name=slug]", "winter")
    page.check("input[name=kind][value=ladder]")
    page.select_option("select[name=ruleset]", "euchre-somerset-1888")
    offered = page.locator("fieldset.choices input[name=evenings]").count()
    no_sideways(page, width)
    page.get_by_text("Night 1").first.click()
    page.get_by_test_id("create").click()
    page.wait_for_url(re.compile(r"/secretary/tournaments/\d+/$"))
    ladder = Tournament.objects.get(slug="winter")
    assert list(ladder.evenings.values_list("title", flat=True)) == ["Night 1"]
    no_sideways(page, width)
    shot(page, f"ladder-sweep-{width}-1-made")

    # The evening to count is read whole in the closed list, on two lines at 360 px: it
    # was cut off at "Wednesday 21 November 1888: N" (as the rule set's list was).
    seen = page.evaluate(CLOSED_LIST.replace("select[name=ruleset]", "#attach-evening"))
    assert seen["right"] <= width and not seen["clipped"], seen
    if seen["text"] > seen["room"]:
        assert seen["height"] >= 2 * seen["line"], seen
    if width == 360:
        assert seen["text"] > seen["room"], seen  # too long for one line: wrapped, not cut
    # The other two evenings, one at a time; the Bridge drive is never offered (ruling T5).
    for _ in range(2):
        options = page.locator("#attach-evening option").all_inner_texts()
        assert options and not any("Bridge" in o for o in options), options
        press(page, "attach")
        assert "The evening is counted." in page.get_by_test_id("notice").inner_text()
    assert ladder.evenings.count() == 3
    assert offered >= 3
    press(page, "recalculate")
    page.wait_for_function(
        "document.querySelector('#progress').innerText.includes('Done')", timeout=10_000
    )
    no_sideways(page, width)
    shot(page, f"ladder-sweep-{width}-2-recalculated")

    page.goto(f"{live_server.url}/clubs/somerset/tournaments/winter/")
    page.wait_for_selector("#standings tbody a")
    no_sideways(page, width)
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 4
    first = rows.first.inner_text()
    assert "Ann" in first or "Cora" in first, first  # two rubbers of three
    shot(page, f"ladder-sweep-{width}-3-public")
    link = page.locator("#standings tbody a", has_text="Ann").first
    name_box = link.bounding_box()
    assert name_box["x"] >= 0 and name_box["x"] + name_box["width"] <= width
    link.click()
    page.wait_for_load_state()
    assert page.get_by_role("heading", name=re.compile("Ann")).first.is_visible()
    no_sideways(page, width)
    shot(page, f"ladder-sweep-{width}-4-player")

    # His place in the ladder, and the way back to it: his page said neither.
    assert page.get_by_test_id("places").inner_text().endswith("Winter ladder: placed =1 of 4")
    page.get_by_role("link", name="Winter ladder").click()
    page.wait_for_selector("#standings tbody a")
    page.emulate_media(media="print")
    assert page.get_by_test_id("printed-club").inner_text() == "Somerset Club"
    for row in page.locator("#standings tbody tr").all():
        assert row.is_visible()
    shot(page, f"ladder-sweep-{width}-5-printed")
    assert page.pdf(format="A4").startswith(b"%PDF")
