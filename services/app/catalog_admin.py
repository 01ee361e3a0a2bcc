"""Admin operations on the catalog, shared by the bot's admin commands and the CLI."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.domain import UpsertReport
from repositories.wines import WineRepository
from seeds.loader import DEFAULT_SEED_FILE, load_seed_file
from services.llm.embeddings import EmbeddingService, EmbedReport


class CatalogAdmin:
    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], embeddings: EmbeddingService
    ) -> None:
        self.sessions = sessions
        self.embeddings = embeddings

    async def seed(self, path: Path = DEFAULT_SEED_FILE) -> tuple[UpsertReport, int]:
        """Validate the whole file first (CatalogFileError), then upsert in one transaction."""
        records = load_seed_file(path)
        async with self.sessions() as session:
            repo = WineRepository(session)
            report = await repo.upsert_many(records)
            await session.commit()
            return report, await repo.count()

    async def embed(
        self, progress: Callable[[int, int], Awaitable[None]] | None = None
    ) -> EmbedReport:
        return await self.embeddings.embed_catalog(self.sessions, progress=progress)
