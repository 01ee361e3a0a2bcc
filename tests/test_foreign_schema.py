"""A database that already holds a table the migrations create, made by something else, stops
start-up with one line naming the table, not a migration traceback."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from core.errors import DatabaseSchemaError
from core.settings import Settings
from repositories.migrations import current_revision, migrate
from services.app.runtime import open_runtime

SCRATCH = "sommelier_foreign_schema"


async def test_a_foreign_table_is_named_in_one_line(settings: Settings) -> None:
    async with open_runtime(settings, database=SCRATCH) as rt:
        async with rt.engine.begin() as conn:
            await conn.execute(text("DROP SCHEMA public CASCADE"))
            await conn.execute(text("CREATE SCHEMA public"))
            await conn.execute(text("CREATE TABLE telegram_updates (id int)"))
        with pytest.raises(DatabaseSchemaError) as caught:
            await migrate(rt.maintenance, "head", settings.embedding_dim)
        # Nothing was half-made: the migration's transaction rolled back as a whole.
        assert await current_revision(rt.engine) is None
        async with rt.engine.connect() as conn:
            tables = (
                await conn.execute(
                    text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
                )
            ).scalars()
            assert set(tables) == {"telegram_updates"}
    message = str(caught.value)
    assert "telegram_updates" in message and "already exists" in message
    assert "\n" not in message and "INSERT" not in message and "CREATE" not in message
