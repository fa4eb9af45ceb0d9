"""The secretary's board in a browser, its forms sent empty or half filled: each refusal
says in words what to write or tick, never the log's keys ("'cut' needs 'cards': {player:
card, ...}", "'substitute' needs 'substitute'", "'consent' must name exactly them"), and
nothing is done; at a phone's width no form of the board widens the page. Screenshots in
artifacts/screenshots/board-words-*.png."""

import re
from decimal import Decimal

import pytest

from club import evenings, recording
from club.models import Evening
from scoring.models import Rubber
from tests.browser import log_in, settled, shot
from tests.club.test_browser_board_live import click, open_board, open_evening, seat_four

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = "document.documentElement.scrollWidth"


def refusal(page) -> str:
    return " ".join(page.locator("#board .alert.error").inner_text().split())


def no_key_named(text: str) -> None:
    for key in ("'cut'", "'cards'", "'substitute'", "'consent'", "'deal_jack'", "{player"):
        assert key not in text


def version(evening: Evening) -> int:
    evening.refresh_from_db()
    return evening.version


def test_a_cut_sent_with_no_card_says_to_write_the_cards_or_draw(
    browser_page, live_server, club, secretary
):
    """Ruling T10: every card cut is recorded; a cut sent with no card written was refused
    with "'cut' needs 'cards': {player: card, ...}"."""
    evening = open_evening(club)
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    before = version(evening)
    page = browser_page
    open_board(page, live_server, evening)
    click(page, "enter-cut")
    said = refusal(page)
    assert "No card was written" in said
    assert "Draw for them" in said and "ruling T10" in said
    no_key_named(said)
    assert version(evening) == before  # nothing was done
    shot(page, "board-words-empty-cut")


def test_a_substitute_with_no_name_or_a_consent_missing_is_refused_in_words(
    browser_page, live_server, club, secretary
):
    """Law 18, ruling T6: a substitute sits in with the consent of the other three. A name
    left empty was refused with "'substitute' needs 'substitute': a player's name", and a
    consent not ticked with "'consent' must name exactly them"."""
    evening = open_evening(club)
    seat_four(evening)  # Ann and Bob (JH, AH) against Cora and Dan; Ann deals, North
    evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": "Edith"})
    before = version(evening)
    page = browser_page
    open_board(page, live_server, evening)
    page.click("#comings-1 summary")
    page.select_option("#sub-1-player", "Ann")
    page.get_by_role("button", name="Substitute (law 18 / ruling T6)").click()
    page.wait_for_selector("#board .alert.error")
    said = refusal(page)
    assert "Write the name of the player who sits in" in said and "law 18" in said
    no_key_named(said)

    page.fill("#sub-1-name", "Edith")
    page.get_by_role("button", name="Substitute (law 18 / ruling T6)").click()
    page.wait_for_function(
        "document.querySelector('#board .alert.error').innerText.includes('none of them')"
    )
    said = refusal(page)
    assert "only with the consent of the other three players" in said
    assert "none of them has consented" in said
    no_key_named(said)
    assert page.locator("#sub-1-name").input_value() == "Edith"  # kept, to be put right

    # Two of the three consent: the board names the one whose consent is missing.
    page.locator("#comings-1 input[name=consent][value=Bob]").check()
    page.locator("#comings-1 input[name=consent][value=Cora]").check()
    page.get_by_role("button", name="Substitute (law 18 / ruling T6)").click()
    page.wait_for_function(
        "document.querySelector('#board .alert.error').innerText.includes('is not given')"
    )
    said = refusal(page)
    assert "the consent of Dan is not given" in said and "Law 18" in said
    no_key_named(said)
    assert version(evening) == before  # nothing was done
    shot(page, "board-words-substitute")


def test_call_ace_throws_sent_empty_say_how_to_write_them(
    browser_page, live_server, club, secretary
):
    """Call-Ace law 1: the first jack thrown round deals; the throws sent empty were
    refused with "'deal_jack' needs 'cards': [[player, card], ...] in the order thrown"."""
    evening = evenings.evening_open(
        club=club, date="1905-03-01", ruleset="call-ace-foster-1905", stake=Decimal("0.10")
    )
    for name in ["Ann", "Bob", "Cora", "Dan", "Edith"]:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    before = version(evening)
    page = browser_page
    open_board(page, live_server, evening)
    page.get_by_role("button", name="Enter the throws").click()
    page.wait_for_selector("#board .alert.error")
    said = refusal(page)
    assert 'write the cards thrown round, in order, as "Ann 9♠, Bob J♦"' in said
    assert "Throw for them" in said and "law 1" in said
    no_key_named(said)
    assert version(evening) == before


@pytest.mark.parametrize(
    "ruleset", ["bridge-elwell-1907", "euchre-somerset-1888", "call-ace-foster-1905"]
)
def test_the_board_fits_a_phone(browser_page, live_server, club, secretary, ruleset):
    """At 360 px the candidates' list of actions (at Bridge "announces the desire to
    succeed at the full table (ruling T13)") widened the page past the screen."""
    evening = evenings.evening_open(
        club=club, date="1907-01-05", ruleset=ruleset, stake=Decimal("0.10")
    )
    if ruleset != "call-ace-foster-1905":  # a table, with its forms for comings and goings
        seat_four(evening)
    evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": "Edith"})
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 800})
    open_board(page, live_server, evening)
    for details in page.locator("details[id^=comings-] > summary").all():
        details.click()
    assert page.locator("#candidate-action").is_visible()
    assert page.evaluate(WIDTH) <= 360
    shot(page, f"board-words-phone-{ruleset}")


def call_ace_table(club) -> tuple[Evening, list[str]]:
    """Five at a Call-Ace table, the first jack thrown for (law 1); the order of play."""
    evening = evenings.evening_open(
        club=club, date="1905-03-01", ruleset="call-ace-foster-1905", stake=Decimal("0.10")
    )
    for name in ["Ann", "Bob", "Cora", "Dan", "Edith"]:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    evenings.evening_act(
        evening_id=evening.pk, event={"type": "deal_jack", "table": 1, "draw": True}
    )
    evening.refresh_from_db()
    return evening, evenings.evening_summary(evening=evening)["tables"][0]["playing"]


def test_a_call_ace_table_on_the_board_speaks_of_sittings_and_deals(
    browser_page, live_server, club, secretary
):
    """Call-Ace (law 1, ruling C5): each plays for himself in a sitting of deals, with no
    rubbers and no substitutes. Its table on the board said "Rubber 1, 1 hand", counted
    "Consecutive rubbers", offered "Substitute (law 18)", and its history read "A hand is
    recorded at table 1 (rubber 1)"."""
    evening, order = call_ace_table(club)
    deal = {"maker": order[0], "partner": order[1], "alone": False, "tricks": 5}
    recording.hand_record(evening_id=evening.pk, table_number=1, data=deal)
    page = browser_page
    open_board(page, live_server, evening)
    card = page.locator("article#table-1")
    page.click("#comings-1 summary")
    said = " ".join(card.inner_text().split())
    assert "Sitting 1, 1 deal" in said and "correct or take off a deal" in said
    assert "ubber" not in said and "Substitute" not in said and " hand" not in said
    assert page.locator("#board h2", has_text="Sittings").count() == 1
    assert "0 deals so far" not in page.locator("#board .closing").inner_text()
    assert "1 deal so far" in page.locator("#board .closing").inner_text()
    history = page.get_by_test_id("history").inner_text()
    assert "A deal is recorded at table 1 (sitting 1)" in history
    assert "A hand is recorded" not in history
    shot(page, "board-words-call-ace")


def test_ending_a_call_ace_sitting_asks_first(browser_page, live_server, club, secretary):
    """Ruling C5: a sitting ended is settled and cannot be undone; one tap on "End the
    sitting and settle" ended it without a question. Now the board asks, and a secretary
    who answers no has done nothing."""
    evening, order = call_ace_table(club)
    deal = {"maker": order[0], "partner": order[1], "alone": False, "tricks": 5}
    recording.hand_record(evening_id=evening.pk, table_number=1, data=deal)
    before = version(evening)
    page = browser_page
    open_board(page, live_server, evening)
    page.click("#comings-1 summary")
    asked = []

    def answer(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", answer)
    page.get_by_role("button", name="End the sitting and settle (C5)").click()
    settled(page)  # anything sent all the same would be answered by now
    assert asked and "End table 1's sitting now, after 1 deal" in asked[0]
    assert "cannot be undone (ruling C5)" in asked[0]
    assert version(evening) == before  # nothing was done
    assert Rubber.objects.get().status == Rubber.Status.IN_PROGRESS


def test_a_second_substitute_is_consented_to_by_the_first_who_sits_in(
    browser_page, live_server, club, secretary
):
    """Law 18, ruling T6: a substitute needs the consent of the other three at the table,
    and a substitute already sitting in is one of them. The board offered the absent
    player's name to tick in his stead, which the laws refuse, so no second substitute
    could be named from the board; and its seats showed the absent player in his place."""
    evening = open_evening(club)
    seat_four(evening)  # Ann and Bob (JH, AH) against Cora and Dan; Ann deals, North
    for name in ["Edith", "Frank"]:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(
        evening_id=evening.pk,
        event={"type": "substitute", "table": 1, "player": "Ann", "substitute": "Edith",
               "consent": ["Bob", "Cora", "Dan"]},
    )  # fmt: skip
    page = browser_page
    open_board(page, live_server, evening)
    assert page.locator("#table-1 .seat.n").inner_text() == "N Edith for Ann"
    page.click("#comings-1 summary")
    page.select_option("#sub-1-player", "Bob")
    page.fill("#sub-1-name", "Frank")
    for name in ["Edith", "Cora", "Dan"]:
        page.locator(f"#comings-1 input[name=consent][value={name}]").check()
    assert page.locator("#comings-1 input[name=consent][value=Ann]").count() == 0
    page.get_by_role("button", name="Substitute (law 18 / ruling T6)").click()
    page.wait_for_selector("#board .alert.ok")
    assert page.locator("#board .alert.error").count() == 0
    assert "Frank sits in for Bob" in page.locator("#board .alert.ok").inner_text()
    evening.refresh_from_db()
    table = evening.state["tables"][0]
    assert table["substitutes"] == {"Ann": "Edith", "Bob": "Frank"}
    shot(page, "board-words-two-substitutes")


def test_closing_with_a_rubber_abandoned_and_no_reason_names_the_rubber_and_marks_its_box(
    browser_page, live_server, club, secretary
):
    """Closing, a rubber still in play is abandoned with its reason. Left without one, the
    board said only "Say why the rubber was abandoned.", naming no rubber and marking no
    box; now it names the table's rubber and marks its box, the answers kept as given."""
    evening = open_evening(club)
    seat_four(evening)
    before = version(evening)
    page = browser_page
    open_board(page, live_server, evening)
    rubber = Rubber.objects.get()
    page.check(f"#outcome-{rubber.pk}-abandoned")
    page.once("dialog", lambda dialog: dialog.accept())
    click(page, "close-evening")
    said = refusal(page)
    assert "Table 1's rubber 1 (Ann & Bob v Cora & Dan) was abandoned: say why" in said
    assert page.locator(f"#reason-{rubber.pk}").get_attribute("aria-invalid") == "true"
    assert page.locator(f"#outcome-{rubber.pk}-abandoned").is_checked()  # kept
    assert version(evening) == before
    evening.refresh_from_db()
    assert evening.status == "open"


def printed_sheet(page, live_server, evening: Evening) -> str:
    page.goto(f"{live_server.url}/secretary/evenings/{evening.pk}/sheet/")
    page.emulate_media(media="print")
    return " ".join(page.locator("main").inner_text().split())


def test_the_printed_sheet_of_a_call_ace_evening_counts_its_sittings(
    browser_page, live_server, club, secretary
):
    """Ruling C5: a Call-Ace table plays sittings. Its printed sheet said "0 rubbers
    played" of a table whose sitting was settled, under a heading "Rubbers"."""
    evening, order = call_ace_table(club)
    deal = {"maker": order[0], "partner": order[1], "alone": False, "tricks": 5}
    recording.hand_record(evening_id=evening.pk, table_number=1, data=deal)
    evenings.evening_close_sitting(evening_id=evening.pk, table_number=1, user=secretary)
    page = browser_page
    log_in(page, live_server)
    said = printed_sheet(page, live_server, evening)
    assert "1 sitting played." in said
    assert "Sittings Table 1, sitting 1" in said
    assert "rubber" not in said.lower()


def test_the_printed_sheet_says_why_no_table_is_listed(browser_page, live_server, club, secretary):
    """A table broken up (law 21) is no longer standing: the printed sheet's "Tables" stood
    empty above the ledger, as if something had failed to print."""
    evening = open_evening(club)
    seat_four(evening)
    evenings.evening_act(evening_id=evening.pk, event={"type": "break_up", "table": 1})
    page = browser_page
    log_in(page, live_server)
    said = printed_sheet(page, live_server, evening)
    assert (
        "Tables No table is standing now: the rubbers below were played at tables since "
        "broken up. Ledger" in said
    )


def test_the_board_says_who_broke_up_a_table_and_he_has_no_prior_right(
    browser_page, live_server, club, secretary
):
    """Law 21 / ruling T9: when a player breaks up a table, the remaining players have the
    prior right to places at other tables. The board had no way to say who broke it up, so
    he kept a prior right the law gives only to the others; and its question did not say
    that the rubber in play is abandoned."""
    evening = open_evening(club)
    seat_four(evening)  # table 1: Ann, Bob, Cora, Dan
    names = ["Edith", "Frank", "Grace", "Hugh"]
    for name in names:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    evenings.evening_act(
        evening_id=evening.pk,
        event={"type": "cut", "cards": dict(zip(names, ["JS", "AS", "KS", "QS"], strict=True))},
    )  # table 2 of four: two places for the broken table's players
    page = browser_page
    open_board(page, live_server, evening)
    page.click("#comings-1 summary")
    page.select_option("#break-1-by", "Ann")
    asked = []

    def answer(dialog):
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", answer)
    with page.expect_response(re.compile(r"/action/$")):
        page.locator("#table-1").get_by_role(
            "button", name="Break up the table (law 21 / ruling T9)"
        ).click()
    settled(page)
    assert (
        asked
        and "Its rubber in play, 0 hands so far, is abandoned (law 21 / ruling T9)" in asked[0]
    )
    notice = " ".join(page.locator("#board .alert.ok").inner_text().split())
    assert "table 1 is broken up by Ann" in notice
    evening.refresh_from_db()
    # Bob, Cora and Dan cut for the two places (ruling T9); Ann, who broke it up, does not.
    cutters = {p for cut in evening.state["pending_cuts"] for p in cut["players"]}
    assert cutters == {"Bob", "Cora", "Dan"}


def test_a_table_with_a_long_name_among_its_members_fits_a_phone(
    browser_page, live_server, club, secretary
):
    """A member's name of 80 characters (the most a name may have) in the lists of a
    table's comings and goings: the list of who broke up the table, inside its label,
    widened the board to 653 px at 360."""
    evening = open_evening(club)
    long = "Maximilian-Bartholomew-Featherstonehaugh-Cholmondeley-Marjoribanks-Wriothesley"
    for name in ["Ann", "Bob", "Cora", "Dan", long]:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    cards = {"Ann": "JS", "Bob": "AS", "Cora": "KS", "Dan": "QS", long: "10S"}  # no tie
    evenings.evening_act(evening_id=evening.pk, event={"type": "cut", "cards": cards})
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 800})
    open_board(page, live_server, evening)
    page.click("#comings-1 summary")
    assert page.locator("#break-1-by option", has_text=long).count() == 1  # he waits
    assert page.evaluate(WIDTH) <= 360


def test_a_double_tap_on_draw_for_them_draws_one_cut(browser_page, live_server, club, secretary):
    """Ruling T10: each cut is recorded as it was made. A double tap on "Draw for them"
    was queued by the page and sent again once the answer was in, with the form the answer
    had put in its place: it drew the next cut (partners and deal) too, which the
    secretary never saw asked for. The second tap is dropped."""
    evening = open_evening(club)
    for name in ["Ann", "Bob", "Cora", "Dan", "Edith"]:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    page = browser_page
    open_board(page, live_server, evening)
    settled(page)
    with page.expect_response(re.compile(r"/action/$")):
        page.get_by_test_id("draw-cut").dblclick()
    # A second tap queued (not dropped) is sent as soon as the first is answered, and the
    # board is not settled until its answer is in.
    settled(page)
    assert evening.events.filter(type="cut").count() == 1
    # What comes next (a cut for partners and deal, or a tie cut again) is asked for, and
    # waits for the secretary.
    assert page.get_by_test_id("draw-cut").count() == 1


def test_at_euchre_the_board_offers_no_fresh_table_to_change_to(
    browser_page, live_server, club, secretary
):
    """Law 20 / ruling T8: only the Bridge laws let a player make up a fresh table and keep
    a right of re-entry. At Euchre the board offered "cuts into a fresh table", which the
    laws always refused ("... leaves his table (leave) and cuts in as a candidate"); with
    one table it offered nothing else. With a second table, only that table is offered."""
    evening = open_evening(club)
    seat_four(evening)
    page = browser_page
    open_board(page, live_server, evening)
    page.click("#comings-1 summary")
    assert page.locator("#change-1-player").count() == 0  # no other table to cut into
    names = ["Edith", "Frank", "Grace", "Hugh"]
    for name in names:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    page.reload()
    page.click("#comings-1 summary")
    options = page.locator("#change-1-table option").all_inner_texts()
    assert options == ["table 2"]
    bridge = evenings.evening_open(
        club=club, date="1907-01-05", ruleset="bridge-elwell-1907", stake=Decimal("0.10")
    )
    seat_four(bridge)
    page.goto(f"{live_server.url}/secretary/evenings/{bridge.pk}/")
    page.click("#comings-1 summary")
    assert page.locator("#change-1-table option").all_inner_texts() == ["a fresh table"]


def test_a_rubber_abandoned_at_the_close_is_not_said_to_have_broken_up_its_table(
    browser_page, live_server, club, secretary
):
    """A rubber still in play when the evening closes may be abandoned, with its reason;
    the board's list of rubbers then said "abandoned: its table broke up (law 21)", as of a
    table that broke up, where the printed sheet gives the reason."""
    evening = open_evening(club)
    seat_four(evening)
    page = browser_page
    open_board(page, live_server, evening)
    rubber = Rubber.objects.get()
    page.check(f"#outcome-{rubber.pk}-abandoned")
    page.fill(f"#reason-{rubber.pk}", "the club closed at eleven")
    page.once("dialog", lambda dialog: dialog.accept())
    click(page, "close-evening")
    row = " ".join(page.locator("#board table.grid tbody tr").first.inner_text().split())
    assert "abandoned when the evening closed: the club closed at eleven" in row
    assert "broke up" not in row


def test_the_public_results_of_a_call_ace_evening_list_its_sittings(
    browser_page, live_server, club, secretary
):
    """Ruling C5: the public results of a Call-Ace evening listed its sittings under
    "Rubbers", and counted each player's "Rubbers" in its ledger."""
    evening, order = call_ace_table(club)
    deal = {"maker": order[0], "partner": order[1], "alone": False, "tricks": 5}
    recording.hand_record(evening_id=evening.pk, table_number=1, data=deal)
    evenings.evening_close_sitting(evening_id=evening.pk, table_number=1, user=secretary)
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(f"{live_server.url}/clubs/{club.slug}/evenings/{evening.pk}/")
    said = " ".join(page.locator("main").inner_text().split())
    assert "Sittings" in said and "rubber" not in said.lower()
    assert page.evaluate(WIDTH) <= 360


def test_the_room_display_of_a_call_ace_evening_counts_sittings(
    browser_page, live_server, club, secretary
):
    """Ruling C5: the room display of a Call-Ace evening said "Rubbers finished: 1" of a
    sitting settled."""
    evening, order = call_ace_table(club)
    deal = {"maker": order[0], "partner": order[1], "alone": False, "tricks": 5}
    recording.hand_record(evening_id=evening.pk, table_number=1, data=deal)
    evenings.evening_close_sitting(evening_id=evening.pk, table_number=1, user=secretary)
    page = browser_page
    page.goto(f"{live_server.url}/clubs/{club.slug}/evenings/{evening.pk}/room/")
    said = " ".join(page.locator("main").inner_text().split())
    assert "Sittings finished: 1" in said and "rubber" not in said.lower()
