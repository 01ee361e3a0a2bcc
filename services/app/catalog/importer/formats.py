"""Which reader a source needs: given, or detected from the content (not the name)."""

from __future__ import annotations

from typing import Literal

from core.errors import CatalogFileError
from services.app.catalog.importer.json_feed import read_json
from services.app.catalog.importer.mapping import FieldMapper
from services.app.catalog.importer.rows import RawRow
from services.app.catalog.importer.tabular import read_csv, read_xlsx
from services.app.catalog.importer.yml import read_yml

Format = Literal["json", "csv", "xlsx", "yml"]
FORMATS: tuple[Format, ...] = ("json", "csv", "xlsx", "yml")


def detect_format(data: bytes) -> Format:
    head = data[:2048].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"PK\x03\x04"):
        return "xlsx"
    if head.startswith(b"<"):
        return "yml"
    if head.startswith((b"[", b"{")):
        return "json"
    if not head:
        raise CatalogFileError("the source is empty")
    return "csv"


def read_rows(data: bytes, fmt: Format | None, mapper: FieldMapper) -> tuple[Format, list[RawRow]]:
    fmt = fmt or detect_format(data)
    readers = {"json": read_json, "csv": read_csv, "xlsx": read_xlsx, "yml": read_yml}
    return fmt, readers[fmt](data, mapper)
