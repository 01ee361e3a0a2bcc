"""Cells meant for a spreadsheet: text from outside (a customer's words, a shop feed's names, a
file's name) never turns into a formula when the shop's owner opens a CSV the product wrote.

As OWASP advises against CSV injection: a text cell a spreadsheet would read as a formula — one
starting with = + - @, a tab or a carriage return, also after leading blanks — gets a single
quote in front; every text cell is written in double quotes with its own quotes doubled, so a
separator or a quote inside it never starts a cell of its own. Numbers the product computed
(int, float, Decimal) stay bare numbers, a negative change included: a spreadsheet shows and
sums them, and nothing but digits, a sign and a point can be in them. Text that merely looks
like a number («-5» typed by someone) is text, and is written «'-5»."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from decimal import Decimal

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

Cell = str | int | float | Decimal


def looks_like_formula(text: str) -> bool:
    """A spreadsheet could take this text for a formula (leading blanks do not hide one)."""
    return text.startswith(FORMULA_START) or text.lstrip().startswith(FORMULA_START)


def safe_cell(value: object) -> Cell:
    """The value as a spreadsheet must get it: a number as a number, anything else as inert
    text (None is an empty cell)."""
    if value is None:
        return ""
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return value
    text = str(value)
    return "'" + text if looks_like_formula(text) else text


def csv_text(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A CSV document (header, then the rows) with every cell made safe; the one CSV writer of
    the product."""
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow([safe_cell(title) for title in header])
    for row in rows:
        writer.writerow([safe_cell(value) for value in row])
    return out.getvalue()
