"""The round sheets' browser tests' set-up (tests/tournaments/test_browser_round_sheets.py
and test_browser_round_sheets_long.py): a rotation progressive of twelve seated at three
tables, the sheets of its round 1 opened at the board's width, and the page laid out as
chromium prints it (static/js/round-sheets.js)."""

from tests.browser import log_in
from tournaments import rounds, services

TWELVE = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace", "Hugh", "Ida", "Jack",
          "Kate", "Len"]  # fmt: skip
# A4 upright inside the sheets' 12 mm margins, in CSS pixels (96 to the inch).
PRINTABLE_PX = ((210 - 24) * 96 / 25.4, (297 - 24) * 96 / 25.4)
# A4 upright in PDF points, as chromium's PDF gives a page's size.
A4_PT = (595.3, 841.9)


def round_one_seated(club, secretary):
    """A rotation progressive played as rubbers ("Spring progressive"), TWELVE entered,
    round 1 seated at three tables, nothing recorded. Returns (the tournament, its
    round)."""
    tournament = services.tournament_create(
        club=club, name="Spring progressive", slug="spring", kind="progressive",
        ruleset="euchre-somerset-1888", movement="rotation",
    )  # fmt: skip
    for name in TWELVE:
        rounds.tournament_enter(tournament=tournament, name=name)
    return tournament, rounds.round_seat_next(tournament_id=tournament.pk, user=secretary)


def open_sheets(page, live_server, tournament) -> None:
    """The secretary logged in, round 1's sheets opened at the board's width (1280)."""
    log_in(page, live_server)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/secretary/tournaments/{tournament.pk}/rounds/1/sheets/")


def as_printed(page) -> None:
    """The page laid out under the print rules, at the printable width of an A4 page."""
    page.set_viewport_size({"width": int(PRINTABLE_PX[0]), "height": 900})
    page.emulate_media(media="print")


def all_a4(pages: list[tuple[float, float]]) -> bool:
    """Whether every page of a PDF (tests.club.test_browser_table_cards.pdf_pages) is A4
    upright."""
    return all(abs(w - A4_PT[0]) < 2 and abs(h - A4_PT[1]) < 2 for w, h in pages)
