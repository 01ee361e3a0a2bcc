"""The process-wide resources every command needs: settings, engine, session factory."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from core.settings import Settings
from repositories.database import (
    DatabaseLocation,
    create_database_if_missing,
    make_engine,
    make_session_factory,
    resolve_location,
)
from repositories.migrations import (
    current_revision,
    head_revision,
    migrate,
    newest_vector_extension,
)
from repositories.wines import WineRepository
from services.app.catalog.admin import seed_catalog

log = logging.getLogger(__name__)
SETUP_LOCK_KEY = 72_6578_0002


@dataclass
class Runtime:
    settings: Settings
    location: DatabaseLocation
    engine: AsyncEngine  # serving: every statement bounded by DB_TIMEOUT_SECONDS
    sessions: async_sessionmaker[AsyncSession]
    # Migrations, catalog loads and embedding: no statement limit (see make_engine).
    maintenance_engine: AsyncEngine | None = None
    maintenance_sessions: async_sessionmaker[AsyncSession] = field(init=False)

    def __post_init__(self) -> None:
        self.maintenance_sessions = make_session_factory(self.maintenance)

    @property
    def maintenance(self) -> AsyncEngine:
        return self.maintenance_engine or self.engine

    async def ensure_ready(self) -> None:
        """Migrate to head and seed the bundled catalog when the catalog is empty.

        Processes starting together take turns (an advisory lock), so exactly one migrates and
        seeds and the others find the work done.
        """
        async with self.maintenance.connect() as lock:
            await lock.execute(text("SELECT pg_advisory_lock(:k)"), {"k": SETUP_LOCK_KEY})
            try:
                await self._migrate_and_seed()
            finally:
                await lock.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": SETUP_LOCK_KEY})

    async def _migrate_and_seed(self) -> None:
        engine = self.maintenance
        # First: migrations may use what the newer pgvector brings (halfvec, migration 0004).
        await newest_vector_extension(engine)
        if await current_revision(engine) != head_revision(self.settings.embedding_dim):
            await migrate(engine, "head", self.settings.embedding_dim)
        async with self.maintenance_sessions() as session:
            empty = await WineRepository(session).count() == 0
        if empty:
            report, _ = await seed_catalog(self.maintenance_sessions)
            log.info("seeded the empty catalog with %d wines", report.inserted)


@asynccontextmanager
async def open_runtime(settings: Settings, database: str | None = None) -> AsyncIterator[Runtime]:
    location = resolve_location(settings, database) if database else resolve_location(settings)
    await create_database_if_missing(location)
    engine = make_engine(location, settings)
    maintenance = make_engine(location, settings, maintenance=True)  # connects only when used
    try:
        yield Runtime(settings, location, engine, make_session_factory(engine), maintenance)
    finally:
        await engine.dispose()
        await maintenance.dispose()
