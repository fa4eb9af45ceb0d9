"""CSV exports a spreadsheet cannot be tricked into running (issue 12, section 5): a
member named like a formula comes out of every export as text (OWASP's CSV-injection
guidance: a single quote before a cell beginning with =, +, -, @, tab or carriage
return), while numbers, negative ones too, stay numbers."""

import csv
import io
from decimal import Decimal

import pytest

from club import evenings, recording
from config.csvexport import write_rows
from tests.factories import MemberFactory
from tests.worlds import euchre_table

# Each would be read as a formula (or as one after its leading whitespace is stripped).
HOSTILE = ['=HYPERLINK("http://x","y")', "+1", "@SUM(A1)", "\tcmd", "\rcmd", "-2+3"]
# A member's name cannot begin with a tab or a carriage return (core/text.py refuses
# control characters and trims), so the names at the table are the other four; the
# writer's own test covers the tab and the carriage return.
HOSTILE_NAMES = [name for name in HOSTILE if not name.startswith(("\t", "\r"))]
DANGEROUS_START = ("=", "+", "-", "@", "\t", "\r")
MARCH, THREE = {"makers": "NS", "tricks": 5}, {"makers": "NS", "tricks": 3}
SWEEP = [MARCH, MARCH, THREE] * 3  # N-S win the rubber, 8 points (ruling E4)


def read(response) -> list[list[str]]:
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.reader(io.StringIO(response.content.decode(), newline="")))


def assert_neutralised(rows: list[list[str]], names: list[str]) -> None:
    cells = [cell for row in rows for cell in row]
    for name in names:
        assert "'" + name in cells, f"{name!r} is not written as text"
    for cell in cells:
        # A negative number may start with "-"; nothing else may start a formula.
        if cell.startswith(DANGEROUS_START):
            assert Decimal(cell) < 0, f"{cell!r} would be read as a formula"


def played_evening(club, names: list[str]):
    """An evening at which four members with these names played a whole rubber."""
    for name in names:
        MemberFactory(club=club, name=name)
    evening = euchre_table(club, names)
    cards = dict(zip(names, ["JS", "AS", "KS", "QS"], strict=True))
    evenings.evening_act(evening_id=evening.pk, event={"type": "cut", "cards": cards})
    for hand in SWEEP:
        recording.hand_record(evening_id=evening.pk, table_number=1, data=hand)
    return evening


def test_the_ledger_csv_writes_formula_names_as_text(club, secretary_api):
    evening = played_evening(club, HOSTILE_NAMES)
    rows = read(secretary_api.get(f"/api/v1/clubs/somerset/evenings/{evening.pk}/ledger.csv"))
    assert_neutralised(rows, HOSTILE_NAMES)
    # The amounts stay numbers a spreadsheet adds up: 8 points x 0.25 won and lost.
    amounts = sorted(row[4] for row in rows[1:])  # date, evening, player, rubbers, amount
    assert amounts == ["-2.00", "-2.00", "2.00", "2.00"]


def test_the_hands_csv_has_no_cell_a_spreadsheet_would_run(club, secretary_api):
    evening = played_evening(club, HOSTILE_NAMES)
    rows = read(secretary_api.get(f"/api/v1/clubs/somerset/evenings/{evening.pk}/hands.csv"))
    assert len(rows) == 1 + len(SWEEP)
    assert_neutralised(rows, [])


@pytest.mark.parametrize("cell", [*HOSTILE, "|calc", "%0A"])
def test_the_shared_writer_quotes_every_formula_start(cell):
    buffer = io.StringIO()
    write_rows(buffer, [[cell]])
    [[written]] = csv.reader(io.StringIO(buffer.getvalue(), newline=""))
    assert written.startswith("'")


@pytest.mark.parametrize(
    ("value", "expected"),
    [(-3, "-3"), (Decimal("-2.50"), "-2.50"), ("-3", "-3"), ("-0.25", "-0.25"), (7, "7")],
)
def test_the_shared_writer_leaves_numbers_numbers(value, expected):
    buffer = io.StringIO()
    write_rows(buffer, [[value]])
    assert buffer.getvalue() == expected + "\r\n"
