"""The process-wide resources every command needs: settings, engine, session factory."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from repositories.wines import WineRepository
from seeds.loader import DEFAULT_SEED_FILE, load_seed_file
from sommelier.database import (
    DatabaseLocation,
    create_database_if_missing,
    make_engine,
    make_session_factory,
    resolve_location,
)
from sommelier.migrations import current_revision, head_revision, migrate
from sommelier.settings import Settings

log = logging.getLogger(__name__)
SETUP_LOCK_KEY = 72_6578_0002


@dataclass
class Runtime:
    settings: Settings
    location: DatabaseLocation
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]

    async def ensure_ready(self) -> None:
        """Migrate to head and seed the bundled catalog when the catalog is empty.

        Processes starting together take turns (an advisory lock), so exactly one migrates and
        seeds and the others find the work done.
        """
        async with self.engine.connect() as lock:
            await lock.execute(text("SELECT pg_advisory_lock(:k)"), {"k": SETUP_LOCK_KEY})
            try:
                await self._migrate_and_seed()
            finally:
                await lock.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": SETUP_LOCK_KEY})

    async def _migrate_and_seed(self) -> None:
        if await current_revision(self.engine) != head_revision(self.settings.embedding_dim):
            await migrate(self.engine, "head", self.settings.embedding_dim)
        async with self.sessions() as session:
            repo = WineRepository(session)
            if await repo.count() == 0:
                report = await repo.upsert_many(load_seed_file(DEFAULT_SEED_FILE))
                await session.commit()
                log.info("seeded the empty catalog with %d wines", report.inserted)


@asynccontextmanager
async def open_runtime(settings: Settings, database: str | None = None) -> AsyncIterator[Runtime]:
    location = resolve_location(settings, database) if database else resolve_location(settings)
    await create_database_if_missing(location)
    engine = make_engine(location, settings)
    try:
        yield Runtime(settings, location, engine, make_session_factory(engine))
    finally:
        await engine.dispose()
