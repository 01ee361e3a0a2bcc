"""Async Alembic environment. The URL comes from the CLI (config.attributes) or the settings."""

from __future__ import annotations

import asyncio

from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from alembic import context
from repositories.models import Base

config = context.config
target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    url = config.attributes.get("url")
    if url is None:
        from core.settings import get_settings
        from repositories.database import create_database_if_missing, resolve_location

        location = resolve_location(get_settings())
        await create_database_if_missing(location)
        url = location.url
    engine = create_async_engine(url)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_run)
            await connection.commit()
    finally:
        await engine.dispose()


connection = config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    asyncio.run(_run_async())
