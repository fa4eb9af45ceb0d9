"""A director creates a progressive tournament from the page, enters the players, seats a
round and sees a full recalculation reach "done" (Playwright driving Debian's chromium)."""

import re
from decimal import Decimal

import pytest

from club import evenings
from tests.browser import log_in, settled, shot
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def press(page, testid: str):
    """Click a director's button and wait until htmx has swapped in what it answered."""
    settled(page)
    with page.expect_response(re.compile(r"/act/$")):
        page.get_by_test_id(testid).first.click()
    settled(page)


def test_a_tournament_run_from_the_pages(browser_page, live_server, club, secretary):
    page = browser_page
    log_in(page, live_server)
    page.get_by_test_id("new-tournament-somerset").click()
    page.wait_for_url(re.compile(r"/secretary/clubs/somerset/tournaments/new/$"))

    page.fill("input[name=name]", "Thanksgiving progressive")
    page.fill("input[name=slug]", "thanksgiving")
    page.check("input[name=kind][value=progressive]")
    page.select_option("select[name=ruleset]", "euchre-somerset-1888")
    page.select_option("select[name=movement]", "cut")
    page.fill("input[name=deals_per_round]", "1")
    page.select_option("select[aria-label='Metric 1']", "points")
    page.select_option("select[aria-label='Metric 2']", "rounds_won")
    page.select_option("select[aria-label='Metric 3']", "")
    page.select_option("select[aria-label='Metric 4']", "")
    page.get_by_test_id("create").click()
    page.wait_for_url(re.compile(r"/secretary/tournaments/\d+/$"))
    tournament = Tournament.objects.get(slug="thanksgiving")
    assert tournament.precedence == ["points", "rounds_won"]

    for name in ["Ann", "Bob", "Cora", "Dan", "Edith"]:
        page.fill("input[name=name]", name)
        press(page, "enter")
        assert f"{name} plays from round 1." in page.get_by_test_id("notice").inner_text()
    press(page, "bye-Edith")
    press(page, "seat")
    assert "Round 1 is seated." in page.get_by_test_id("notice").inner_text()
    assert "Sitting out at their request: Edith" in page.locator("#director").inner_text()
    shot(page, "director-2-round-seated")

    press(page, "recalculate")
    page.wait_for_function(
        "document.querySelector('#progress').innerText.includes('Done')", timeout=8000
    )
    assert page.locator("#progress progress").get_attribute("value") == "100"
    shot(page, "director-3-recalculated")


# Each radio button and tick box of the new-tournament form, with the box around its words:
# the label's height, and whether the box sits within the label's first line.
ON_ITS_LINE = """() => Array.from(document.querySelectorAll(
    'form.stack input[type=radio], form.stack input[type=checkbox]')).map(box => {
  const label = box.closest('label').getBoundingClientRect();
  const own = box.getBoundingClientRect();
  const line = parseFloat(getComputedStyle(box.closest('label')).lineHeight);
  return {name: box.name, value: box.value, height: label.height, line: line,
          top: own.top - label.top, bottom: own.bottom - label.top};
})"""


def test_the_new_tournament_form_keeps_each_choice_on_its_line_and_fits_a_phone(
    browser_page, live_server, club, secretary
):
    """The kind's radio buttons, the evenings' and "Public standings"' tick boxes sit on
    the line of their words (each once sat alone on a line above them, centred, so that
    "Club ladder"'s button seemed to belong to the line before); at 360 px nothing is
    wider than the screen (the rule sets' long titles once made it 464 px)."""
    evenings.evening_open(
        club=club, date="1888-11-21", ruleset="euchre-somerset-1888", stake=Decimal("0.25")
    )
    page = browser_page
    log_in(page, live_server)
    page.get_by_test_id("new-tournament-somerset").click()
    page.wait_for_url(re.compile(r"/secretary/clubs/somerset/tournaments/new/$"))
    for viewport in ({"width": 1280, "height": 800}, {"width": 360, "height": 740}):
        page.set_viewport_size(viewport)
        boxes = page.evaluate(ON_ITS_LINE)
        assert {b["name"] for b in boxes} >= {"kind", "evenings", "is_public"}
        for box in boxes:
            # One line: the box and its words side by side (none of them is long).
            assert box["height"] < 1.5 * box["line"], box
            assert box["top"] >= 0 and box["bottom"] <= box["line"] + 1, box
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shot(page, "director-1-new-on-a-phone")


def test_the_directors_typing_survives_a_refusal_and_another_button(
    browser_page, live_server, club, secretary
):
    """The director types the cards cut for round 1 and one of them is written wrong: the
    refusal says which and keeps the cards typed (they were emptied, every card to be
    typed again). He is typing a latecomer's name when he presses another player's
    'Sits out': the name stays (the whole page was replaced, the name with it)."""
    from tournaments import rounds, services

    tournament = services.tournament_create(
        club=club, name="Thanksgiving", slug="thanksgiving", kind="progressive",
        ruleset="euchre-somerset-1888", movement="cut", deals_per_round=1,
    )  # fmt: skip
    for name in ["Ann", "Bob", "Cora", "Dan", "Edith"]:
        rounds.tournament_enter(tournament=tournament, name=name)
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/tournaments/{tournament.pk}/")

    typed = "Ann: JS, Bob: AS, Cora KS, Dan: QS, Edith: 9S"
    page.fill("input[name=cards]", typed)
    press(page, "seat")
    assert "'Cora KS' is not" in page.locator("#director").inner_text()
    assert page.input_value("input[name=cards]") == typed
    assert not tournament.rounds.exists()

    page.fill("input[name=name]", "Fred")
    press(page, "bye-Edith")
    assert "Edith sits out round 1." in page.get_by_test_id("notice").inner_text()
    assert page.input_value("input[name=name]") == "Fred"
    assert page.input_value("input[name=cards]") == typed
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "director-4-typing-kept")

    # The cards put right (Edith, sitting out, does not cut; each player's second card is
    # his cut for partners), the round is seated and the field is emptied: it was sent.
    page.fill("input[name=cards]", "Ann: JS JH, Bob: AS AH, Cora: KS KH, Dan: QS QH")
    press(page, "seat")
    assert "Round 1 is seated." in page.get_by_test_id("notice").inner_text()
    assert page.input_value("input[name=cards]") == ""
    assert page.input_value("input[name=name]") == "Fred"


# The closed rule-set list at its first choice: the text's width in the list's font, the
# room inside the list for it, the list's height and line height, and whether anything in
# it is cut off (scrolled out of its box).
CLOSED_LIST = """() => {
  const list = document.querySelector('select[name=ruleset]');
  const style = getComputedStyle(list);
  const pen = document.createElement('canvas').getContext('2d');
  pen.font = style.font;
  const px = value => parseFloat(value) || 0;
  return {
    text: pen.measureText(list.options[list.selectedIndex].text).width,
    room: list.clientWidth - px(style.paddingLeft) - px(style.paddingRight),
    height: list.clientHeight,
    line: px(style.lineHeight) || 1.2 * px(style.fontSize),
    clipped: list.scrollWidth > list.clientWidth + 1 || list.scrollHeight > list.clientHeight + 1,
    right: list.getBoundingClientRect().right,
  };
}"""


def test_the_rule_sets_long_choice_wraps_in_the_closed_list_at_360_px(
    browser_page, live_server, club, secretary
):
    """At 360 px "Any (a ladder counts its evenings' games)", the list's first choice, was
    cut off at "games" in the closed list: the list now wraps it onto a second line."""
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/clubs/somerset/tournaments/new/")
    chosen = page.locator("select[name=ruleset] option:checked").inner_text()
    assert chosen == "Any (a ladder counts its evenings' games)"
    seen = page.evaluate(CLOSED_LIST)
    assert seen["right"] <= 360 and not seen["clipped"], seen
    # Longer than a line of the list: it can only be read whole on two lines or more.
    assert seen["text"] > seen["room"], seen
    assert seen["height"] >= 2 * seen["line"], seen
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "director-new-rule-set-wraps-360")
    # The list still chooses: a progressive's rule set, by keyboard or pointer alike.
    page.select_option("select[name=ruleset]", "euchre-somerset-1888")
    assert page.input_value("select[name=ruleset]") == "euchre-somerset-1888"


def test_a_bye_tapped_for_the_wrong_player_is_taken_back(
    browser_page, live_server, club, secretary, roster
):
    """ "Sits out round 1" tapped on Ann's line, meant for Bob's, could not be undone: Ann sat
    out the round she came to play. The button turns into "Plays round 1 after all"."""
    from tournaments import rounds, services

    tournament = services.tournament_create(
        club=club, name="Progressive", slug="prog", kind="progressive",
        ruleset="euchre-somerset-1888", movement="progressive", deals_per_round=1,
    )  # fmt: skip
    for name in ["Ann", "Bob", "Cora", "Dan", "Edith"]:
        rounds.tournament_enter(tournament=tournament, name=name)
    page = browser_page
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/tournaments/{tournament.pk}/")
    press(page, "bye-Ann")
    assert page.get_by_test_id("bye-Ann").count() == 0
    press(page, "unbye-Ann")
    assert "Ann plays round 1 after all." in page.get_by_test_id("notice").inner_text()
    assert page.get_by_test_id("bye-Ann").is_visible()
    assert tournament.players.get(member__name="Ann").bye_rounds == []
    press(page, "bye-Bob")
    press(page, "seat")
    played = rounds.round_as_dict(tournament.rounds.get(number=1))
    assert played["requested_byes"] == ["Bob"]
    assert "Ann" in {seat for table in played["tables"] for seat in table["seats"].values()}
    page.set_viewport_size({"width": 360, "height": 740})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_player_back_after_leaving_is_listed_with_the_rounds_he_was_in(
    browser_page, live_server, club, secretary, roster
):
    """Printed, the players' list read "Ann: from round 3" of one who had played round 1,
    left, and come back for round 3."""
    from club import recording
    from tournaments import rounds, services

    tournament = services.tournament_create(
        club=club, name="Progressive", slug="prog", kind="progressive",
        ruleset="euchre-somerset-1888", movement="cut", deals_per_round=1,
    )  # fmt: skip
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        rounds.tournament_enter(tournament=tournament, name=name)

    def play_round():
        played = rounds.round_seat_next(tournament_id=tournament.pk, user=secretary)
        for table in played.tables.all():
            recording.hand_record(rubber_id=table.rubber_id, data={"makers": "NS", "tricks": 3})

    play_round()
    ann = tournament.players.get(member__name="Ann")
    rounds.tournament_withdraw(tournament=tournament, member_id=ann.member_id)
    rounds.tournament_enter(tournament=tournament, name="Edith")
    play_round()
    rounds.tournament_enter(tournament=tournament, name="Ann")
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/tournaments/{tournament.pk}/")
    page.emulate_media(media="print")
    row = page.locator("tr", has=page.locator("td", has_text=re.compile("^Ann$")))
    assert row.locator("td").nth(1).inner_text() == "in round 1, then left; back from round 3"
    edith = page.locator("tr", has=page.locator("td", has_text=re.compile("^Edith$")))
    assert edith.locator("td").nth(1).inner_text() == "from round 2"


def test_a_euchre_ladder_offers_and_takes_only_euchre_evenings(
    browser_page, live_server, club, secretary
):
    """It offered the club's Bridge evening to count, and counted it."""
    from tests.factories import EveningFactory
    from tournaments import services

    euchre = EveningFactory(club=club, title="Club night")
    EveningFactory(club=club, ruleset="bridge-elwell-1907", title="Bridge drive")
    later = EveningFactory(club=club, title="Second night")
    ladder = services.tournament_create(
        club=club, name="Winter", slug="winter", kind="ladder", ruleset="euchre-somerset-1888",
        evening_ids=[euchre.pk],
    )  # fmt: skip
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, live_server)
    page.goto(f"{live_server.url}/secretary/tournaments/{ladder.pk}/")
    offered = page.locator("#attach-evening option").all_inner_texts()
    assert offered == ["Wednesday 21 November 1888: Second night"]
    press(page, "attach")
    assert "The evening is counted." in page.get_by_test_id("notice").inner_text()
    assert set(ladder.evenings.all()) == {euchre, later}
    assert page.get_by_test_id("all-counted").inner_text() == (
        "Every evening of the club played under Euchre (Somerset Club laws, 1888) is counted."
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_the_page_says_the_recalculation_is_done_once_it_is(
    browser_page, live_server, club, secretary, ladder
):
    """The words about a full recalculation follow its progress, polled live: "asked for"
    while it waits, "done" once done, and nothing left saying it is still asked for (a
    notice "A full recalculation is asked for: its progress is below." stayed on beside
    "Done")."""
    from django.core.cache import cache

    from tournaments import services

    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, live_server)
    # Asked for and not started yet, as services.standings_request_full leaves it.
    cache.set(services.PROGRESS_KEY.format(ladder.pk), {"state": "queued", "percent": 0}, 60)
    page.goto(f"{live_server.url}/secretary/tournaments/{ladder.pk}/")
    words = page.get_by_test_id("progress-words")
    assert "A full recalculation is asked for: waiting to start" in words.inner_text()
    services.standings_full_recalculation(tournament_id=ladder.pk)  # what the worker does
    page.wait_for_function(
        "document.querySelector('#progress').innerText.includes('Done')", timeout=8000
    )
    assert "asked for" not in page.locator("#director").inner_text()

    # The button: the recalculation runs at once here (tasks in-process), and the answer
    # says it is done, with nothing saying it is only asked for.
    press(page, "recalculate")
    shown = page.locator("#director").inner_text()
    assert "Done: the standings are up to date." in shown
    assert "asked for" not in shown and "its progress is below" not in shown
    shot(page, "director-recalculation-done-1280")
