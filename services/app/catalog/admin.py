"""Admin operations on the catalog, shared by the bot's admin commands and the CLI."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.domain import UpsertReport, WineRecord
from core.errors import SommelierError
from repositories.facts import record_catalog_sync
from repositories.wines import WineRepository
from seeds.loader import DEFAULT_SEED_FILE, load_seed_file
from services.app.catalog.importer import ImportReport, import_catalog
from services.llm.embeddings import EmbeddingService, EmbedReport

log = logging.getLogger(__name__)


def _label(source: str) -> str:
    """A feed URL without its query (tokens live there), or a file's name."""
    if source.startswith(("http://", "https://")):
        return source.split("?", 1)[0][:300]
    return Path(source).name[:300]


async def seed_catalog(
    sessions: async_sessionmaker[AsyncSession], records: Sequence[WineRecord] | None = None
) -> tuple[UpsertReport, int]:
    """The one seeding path (CLI `seed`, admin `/seed`, the first run): records validated as a
    whole (`load_seed_file`; the bundled demo catalog by default) are upserted by slug in one
    transaction; returns the report and the catalog size."""
    if records is None:
        records = load_seed_file(DEFAULT_SEED_FILE)
    async with sessions() as session:
        repo = WineRepository(session)
        report = await repo.upsert_many(records)
        await session.commit()
        return report, await repo.count()


async def catalog_size(sessions: async_sessionmaker[AsyncSession]) -> int:
    async with sessions() as session:
        return await WineRepository(session).count()


class CatalogAdmin:
    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], embeddings: EmbeddingService
    ) -> None:
        self.sessions = sessions
        self.embeddings = embeddings

    async def seed(self, path: Path = DEFAULT_SEED_FILE) -> tuple[UpsertReport, int]:
        return await seed_catalog(self.sessions, load_seed_file(path))

    async def size(self) -> int:
        return await catalog_size(self.sessions)

    async def import_catalog(
        self,
        source: str,
        *,
        data: bytes | None = None,
        dry_run: bool = False,
        sync: bool = False,
        source_label: str | None = None,
    ) -> ImportReport:
        """A shop's feed (path, URL or uploaded bytes) through the one import path; changed
        wines are re-embedded afterwards when an embedding key is configured."""
        label = source_label or _label(source)
        try:
            report = await import_catalog(
                self.sessions,
                source,
                data=data,
                dry_run=dry_run,
                sync=sync,
                source_label=source_label,
            )
        except SommelierError as exc:
            if not dry_run:
                await self._remember({"source": label, "error": str(exc)[:500]})
            raise
        if not dry_run:
            await self._remember(
                {
                    "source": label,
                    "format": report.format,
                    "rows": report.rows,
                    "inserted": report.inserted,
                    "updated": report.updated,
                    "unchanged": report.unchanged,
                    "marked_unavailable": report.marked_unavailable,
                    "skipped": len({(p.row, p.id) for p in report.skipped}),
                    "reasons": [p.as_dict() for p in report.skipped[:50]],
                    "error": None if report.applied else "not applied",
                }
            )
        if report.applied and (report.inserted or report.updated) and self.embeddings.available:
            try:
                await self.embeddings.embed_catalog(self.sessions)
            except SommelierError as exc:  # the import is committed; /embed can finish it
                log.warning("embedding after the import failed: %s", exc)
        return report

    async def _remember(self, values: dict[str, object]) -> None:
        """The import's outcome for the console's Catalog view (never fails the import)."""
        try:
            async with self.sessions() as session:
                await record_catalog_sync(session, values)
                await session.commit()
        except Exception as exc:  # a report we could not keep is only logged
            log.warning("catalog import outcome not recorded: %s", type(exc).__name__)

    async def embed(
        self, progress: Callable[[int, int], Awaitable[None]] | None = None
    ) -> EmbedReport:
        return await self.embeddings.embed_catalog(self.sessions, progress=progress)
