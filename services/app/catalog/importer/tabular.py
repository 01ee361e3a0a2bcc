"""CSV (any common encoding and separator) and XLSX exports from shop systems."""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Iterable, Sequence

from charset_normalizer import from_bytes

from core.errors import CatalogFileError
from services.app.catalog.importer.mapping import FieldMapper
from services.app.catalog.importer.rows import RawRow

MAX_COLUMNS = 200


def decode_text(data: bytes) -> str:
    """UTF-8 (with or without BOM) when it is valid, else the detected single-byte encoding
    (1C and Bitrix often export cp1251). Undecodable bytes are an error, never guessed around."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    for encoding in ("cp1251",):
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if _mostly_text(text):
            return text
    best = from_bytes(data[:200_000]).best()
    if best is not None and best.encoding:
        try:
            return data.decode(best.encoding)
        except (UnicodeDecodeError, LookupError):
            pass
    raise CatalogFileError("the file's encoding cannot be recognised (not UTF-8 or cp1251)")


def _mostly_text(text: str) -> bool:
    sample = text[:20_000]
    bad = sum(1 for c in sample if ord(c) < 32 and c not in "\r\n\t")
    return bad <= len(sample) // 1000


def read_csv(data: bytes, mapper: FieldMapper) -> list[RawRow]:
    return _rows(csv_table(data), mapper)


def read_xlsx(data: bytes, mapper: FieldMapper) -> list[RawRow]:
    return _rows(xlsx_table(data), mapper)


def csv_table(data: bytes) -> list[list[str]]:
    """The cells of a CSV export: its encoding and separator found from the content."""
    text = decode_text(data)
    first = text.split("\n", 1)[0]
    delimiter = max((";", ",", "\t", "|"), key=first.count)
    try:
        table = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error as exc:
        raise CatalogFileError(f"the CSV file cannot be read: {exc}") from None
    return table


def xlsx_table(data: bytes) -> list[list[str]]:
    """The cells of the first sheet of an XLSX export, as text."""
    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, OSError, KeyError, ValueError) as exc:
        raise CatalogFileError(f"the XLSX file cannot be read: {exc}") from None
    try:
        sheet = book.worksheets[0]
        table = [
            ["" if v is None else _cell(v) for v in row]
            for row in sheet.iter_rows(values_only=True)
        ]
    finally:
        book.close()
    return table


def _cell(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _rows(table: Sequence[Sequence[str]], mapper: FieldMapper) -> list[RawRow]:
    table = [row for row in table if any(str(c).strip() for c in row)]
    if not table:
        raise CatalogFileError("the file holds no rows")
    header = [str(h) for h in table[0][:MAX_COLUMNS]]
    columns = [mapper.field(h) for h in header]
    if "name" not in columns or "price_rub" not in columns:
        raise CatalogFileError(
            "the header row must name at least the wine's name and price "
            f"(found: {', '.join(h for h in header if h) or 'nothing'}); "
            "use --mapping for unusual headers"
        )
    rows: list[RawRow] = []
    for number, cells in enumerate(table[1:], start=2):
        row = RawRow(row=number, id=None)
        for field, value in zip(columns, _strings(cells), strict=False):
            if field is not None and value and field not in row.fields:
                row.fields[field] = value
        row.id = row.fields.get("external_id")
        rows.append(row)
    return rows


def _strings(cells: Iterable[object]) -> list[str]:
    return [str(c).strip() for c in cells]
