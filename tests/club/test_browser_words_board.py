"""A newcomer's stumbles on the secretary's board and the public results, in Debian's
chromium at a phone's width (360 px): an undo offered on a board where nothing was done,
a claim's table left at "—" though there is one table, a throw refused without saying at
which of two tables, a close refused only by the browser's own tooltip, and the public
results' "Complete" and bare "Abandoned". Screenshots in
artifacts/screenshots/words-board-*.png."""

import pytest
from django.urls import reverse

from club import evenings, recording
from club.models import Evening
from scoring.models import Rubber
from tests.browser import PHONE, settled, shot
from tests.club.test_browser_board_live import click, open_board, open_evening, seat_four

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def refusal(page) -> str:
    return " ".join(page.locator("#board .alert.error").inner_text().split())


def on_phone(page, live_server, evening: Evening) -> None:
    page.set_viewport_size(PHONE)
    open_board(page, live_server, evening)
    settled(page)


def test_a_board_whose_last_entry_is_kept_says_so_as_a_state(
    browser_page, live_server, club, secretary
):
    """A fresh board offers no undo and says nothing of one; once the last entry is one
    the board does not undo (a hand, law 5 / ruling E9), the board said "Nothing to
    undo." as if refusing something the secretary had not asked for."""
    evening = open_evening(club)
    page = browser_page
    on_phone(page, live_server, evening)
    assert page.get_by_test_id("cannot-undo").count() == 0
    assert page.get_by_test_id("undo").count() == 0
    seat_four(evening)
    recording.hand_record(evening_id=evening.pk, table_number=1, data={"makers": "NS", "tricks": 3})
    page.reload()
    said = " ".join(page.get_by_test_id("cannot-undo").inner_text().split())
    assert "Nothing to undo" not in said
    assert said.startswith("The last entry stays")
    assert "ruling E9" in said
    shot(page, "words-board-undo-state")


def test_with_one_table_a_claim_is_for_that_table(browser_page, live_server, club, secretary):
    """Law 10 / ruling T6: a candidate claims admission at a table; with one table the
    form left the table at "—", and "Do it" was refused for want of a table."""
    evening = open_evening(club)
    seat_four(evening)
    evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": "Edith"})
    page = browser_page
    on_phone(page, live_server, evening)
    assert page.input_value("#candidate-table") == "1"
    with page.expect_response(lambda r: r.url.endswith("/action/")):
        page.get_by_role("button", name="Do it", exact=True).click()
    settled(page)
    assert page.locator("#board .alert.error").count() == 0
    assert "claims: Edith" in page.locator("#table-1").inner_text()
    shot(page, "words-board-claim-one-table")
    # The table chosen for him is no hindrance to what names none: he withdraws, leaves.
    for action, done in (("withdraw", "withdraws a claim"), ("depart", "leaves the room")):
        page.select_option("#candidate-action", action)
        with page.expect_response(lambda r: r.url.endswith("/action/")):
            page.get_by_role("button", name="Do it", exact=True).click()
        settled(page)
        assert page.locator("#board .alert.error").count() == 0
        assert f"Edith {done}" in page.get_by_test_id("history").inner_text()


ELEVEN = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Hugh", "Iris", "Jack", "Kim"]


def test_a_throw_refused_with_two_tables_waiting_names_its_table(
    browser_page, live_server, club, secretary
):
    """Law 1, ruling T14: two Call-Ace tables wait for their first jack; "Enter the
    throws" sent empty under table 2 was refused without saying which table."""
    evening = evenings.evening_open(
        club=club, date="1905-11-21", ruleset="call-ace-foster-1905", stake=1
    )
    for name in ELEVEN:
        evenings.evening_act(evening_id=evening.pk, event={"type": "arrive", "player": name})
    for _ in range(2):
        evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    page = browser_page
    on_phone(page, live_server, evening)

    def throws_entered(table: int) -> str:
        """The refusal of table `table`'s cut form's "Enter the throws"."""
        form = page.locator("form.cut-form").filter(has=page.locator(f"#throws-{table}"))
        with page.expect_response(lambda r: r.url.endswith("/action/")):
            form.get_by_role("button", name="Enter the throws").click()
        settled(page)
        return refusal(page)

    said = throws_entered(2)
    assert "table 2" in said and "table 1" not in said
    page.fill("#throws-1", "Ann")
    said = throws_entered(1)
    assert "table 1" in said and "table 2" not in said
    shot(page, "words-board-throw-which-table")


def test_closing_with_a_rubber_unanswered_shows_the_service_refusal(
    browser_page, live_server, club, secretary
):
    """Closing with a rubber still in play needs its fate; the browser's own tooltip was
    all the secretary saw. The service's refusal names the table's rubber."""
    evening = open_evening(club)
    seat_four(evening)
    before = Evening.objects.get(pk=evening.pk).version
    page = browser_page
    on_phone(page, live_server, evening)
    page.on("dialog", lambda dialog: dialog.accept())
    click(page, "close-evening")
    said = refusal(page)
    assert "table 1's rubber 1" in said
    assert "Record the hands that finished a rubber before closing, or say it was abandoned" in said
    evening.refresh_from_db()
    assert evening.status == "open" and evening.version == before
    shot(page, "words-board-close-unanswered")


def test_the_public_results_use_the_boards_words_and_say_why_abandoned(
    browser_page, live_server, club, secretary
):
    """The public results said "Complete" and a bare "Abandoned" where the board says
    "finished" and why (law 21: its table broke up; or the evening closed, with the
    secretary's reason)."""
    evening = open_evening(club)
    seat_four(evening)
    evenings.evening_act(evening_id=evening.pk, event={"type": "break_up", "table": 1})
    # They are candidates again: a table forms and they cut (ruling T4).
    evenings.evening_act(evening_id=evening.pk, event={"type": "form_table"})
    cards = dict(zip(["Ann", "Bob", "Cora", "Dan"], ["JS", "AS", "KS", "QS"], strict=True))
    evenings.evening_act(evening_id=evening.pk, event={"type": "cut", "cards": cards})
    rubber = Rubber.objects.get(evening=evening, status=Rubber.Status.IN_PROGRESS)
    evenings.evening_close(
        evening_id=evening.pk,
        rubbers=[
            {
                "table": rubber.table.number,
                "rubber": 1,
                "outcome": "abandoned",
                "reason": "the hall closed at eleven",
            }
        ],
    )
    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + reverse("evening-results", args=[club.slug, evening.pk]))
    text = page.locator("table.grid").first.inner_text()
    assert "Abandoned" not in text and "Complete" not in text
    assert "its table broke up" in text
    assert "the hall closed at eleven" in text
    shot(page, "words-board-public-results")
