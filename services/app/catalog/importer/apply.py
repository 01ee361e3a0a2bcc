"""Read, check every row, and apply the good ones in ONE transaction (all or nothing)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.domain import WineRecord
from core.errors import CatalogFileError
from repositories.wines import WineRepository
from services.app.catalog.importer.fetch import read_source
from services.app.catalog.importer.formats import Format, read_rows
from services.app.catalog.importer.mapping import FieldMapper
from services.app.catalog.importer.normalize import to_record
from services.app.catalog.importer.rows import Problem, RawRow

MAX_REPORTED_PROBLEMS = 500


@dataclass
class ImportReport:
    format: str
    rows: int
    inserted: int = 0
    updated: int = 0
    unchanged: int = 0
    marked_unavailable: int = 0
    skipped: list[Problem] = field(default_factory=list)
    applied: bool = False
    dry_run: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "rows": self.rows,
            "inserted": self.inserted,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "marked_unavailable": self.marked_unavailable,
            "skipped": [p.as_dict() for p in self.skipped[:MAX_REPORTED_PROBLEMS]],
            "applied": self.applied,
            "dry_run": self.dry_run,
        }

    def summary(self) -> str:
        verb = "would be" if self.dry_run else "were"
        skipped_rows = len({(p.row, p.id) for p in self.skipped})
        return (
            f"{self.format.upper()}, {self.rows} rows: {self.inserted} inserted, "
            f"{self.updated} updated, {self.unchanged} unchanged, "
            f"{self.marked_unavailable} marked unavailable, {skipped_rows} skipped "
            f"({'dry run: nothing ' + verb + ' written' if self.dry_run else 'applied'})"
        )


def check_rows(rows: list[RawRow], source: str) -> tuple[list[WineRecord], list[Problem]]:
    records: list[WineRecord] = []
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    for raw in rows:
        record, found = to_record(raw, source)
        if record is None:
            problems.extend(found)
            continue
        key = record.external_id or f"slug:{record.slug}"
        if key in seen:
            problems.append(
                Problem(raw.row, raw.id, "id", f"duplicate of row {seen[key]}; the first is kept")
            )
            continue
        seen[key] = raw.row
        records.append(record)
    return records, problems


async def import_catalog(
    sessions: async_sessionmaker[AsyncSession],
    source: str,
    *,
    data: bytes | None = None,
    fmt: Format | None = None,
    sync: bool = False,
    dry_run: bool = False,
    strict: bool = False,
    mapping: dict[str, str] | None = None,
    source_label: str | None = None,
) -> ImportReport:
    """CatalogFileError when nothing can be applied; otherwise the report (rows with problems
    are skipped and listed). `data` skips reading `source` (an uploaded document)."""
    raw = data if data is not None else await read_source(source)
    found_format, rows = read_rows(raw, fmt, FieldMapper(mapping))
    records, problems = check_rows(rows, source_label or source)
    report = ImportReport(format=found_format, rows=len(rows), skipped=problems, dry_run=dry_run)
    if strict and problems:
        raise CatalogFileError(
            f"{len(problems)} problems in {len(rows)} rows (--strict); nothing was written",
            list(problems),
        )
    if not records:
        raise CatalogFileError(
            f"none of the {len(rows)} rows could be imported; nothing was written", list(problems)
        )
    async with sessions() as session:
        result = await WineRepository(session).upsert_many(records, sync=sync)
        if dry_run:
            await session.rollback()
        else:
            await session.commit()
    report.inserted, report.updated = result.inserted, result.updated
    report.unchanged, report.marked_unavailable = result.unchanged, result.marked_unavailable
    report.applied = not dry_run
    return report
