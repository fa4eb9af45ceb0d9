"""CSV downloads that a spreadsheet cannot be tricked into running (CSV injection).

A cell a spreadsheet reads as the start of a formula (a member named
`=HYPERLINK("http://x","y")`, `+1`, `@SUM(A1)`) would run when the secretary opens the
export. OWASP's CSV-injection guidance: a cell beginning with `=`, `+`, `-`, `@`, a tab
or a carriage return gets a single quote in front, so it is shown as the text it is.

The writer is defusedcsv's (a drop-in for the csv module), which quotes cells beginning
with `=`, `+`, `-`, `@`, `|` and `%`. Two deliberate choices on top of it:

- defusedcsv 3.0 does not look at a leading tab or carriage return, which OWASP lists
  (and which a spreadsheet strips before reading the rest as a formula), so those cells
  get the quote here before defusedcsv sees them;
- numbers stay numbers: a value written as a number (int, Decimal: a ledger's -3.50, a
  hand's -2 points) is left alone by defusedcsv, and so is a text that is only a number
  (`-3.50`), so a spreadsheet can still add the column up. Such a cell cannot hold a
  formula, so leaving it alone is safe.
"""

import io
from collections.abc import Iterable

from defusedcsv import csv as defusedcsv
from django.http import HttpResponse

# Leading characters OWASP lists that defusedcsv does not quote itself.
_ALSO_DANGEROUS = ("\t", "\r")


def _neutralise(cell):
    if isinstance(cell, str) and cell.startswith(_ALSO_DANGEROUS):
        return "'" + cell
    return cell


def write_rows(stream, rows: Iterable[Iterable]) -> None:
    """Write rows of cells to a text stream as CSV, every formula-like cell quoted."""
    writer = defusedcsv.writer(stream)
    writer.writerows([_neutralise(cell) for cell in row] for row in rows)


def csv_response(rows: Iterable[Iterable], filename: str) -> HttpResponse:
    """An attachment download of the rows as CSV (UTF-8), safe to open in a spreadsheet."""
    buffer = io.StringIO()
    write_rows(buffer, rows)
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
