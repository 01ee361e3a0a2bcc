"""Run Alembic migrations programmatically on an async engine."""

from __future__ import annotations

import logging
import sys
import sysconfig
from pathlib import Path

from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from alembic import command
from core.errors import DatabaseSchemaError

log = logging.getLogger(__name__)

# The migration scripts live in the project's top-level `alembic/` folder; a regular (not
# editable) install copies them to <prefix>/share/sommelier/alembic (pyproject's data-files).
_SOURCE_SCRIPTS = Path(__file__).resolve().parent.parent / "alembic"
_INSTALLED_SCRIPTS = [
    Path(root) / "share" / "sommelier" / "alembic"
    for root in dict.fromkeys((sysconfig.get_path("data"), sys.prefix))
]
# Serializes schema changes between processes sharing one database.
MIGRATION_LOCK_KEY = 72_6578_0001


def migration_embedding_dim() -> int:
    """The vector dimension a running migration builds for: what `migrate()` was given, else
    the settings' (Alembic's own command line)."""
    from alembic import context

    dim = context.config.attributes.get("embedding_dim")
    if dim is None:
        from core.settings import get_settings

        dim = get_settings().embedding_dim
    return int(dim)


def migration_scripts() -> Path:
    folders = [_SOURCE_SCRIPTS, *_INSTALLED_SCRIPTS]
    for folder in folders:
        if (folder / "env.py").is_file():
            return folder
    raise FileNotFoundError(f"no migration scripts in any of {[str(f) for f in folders]}")


def alembic_config(embedding_dim: int) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(migration_scripts()))
    cfg.attributes["embedding_dim"] = embedding_dim
    return cfg


def head_revision(embedding_dim: int = 1536) -> str | None:
    return ScriptDirectory.from_config(alembic_config(embedding_dim)).get_current_head()


async def current_revision(engine: AsyncEngine) -> str | None:
    async with engine.connect() as conn:
        return await conn.run_sync(lambda c: MigrationContext.configure(c).get_current_revision())


async def migrate(engine: AsyncEngine, revision: str, embedding_dim: int) -> str | None:
    """Move the schema to `revision` (upgrade or downgrade as needed); returns the new revision."""

    def _run(connection: Connection) -> None:
        cfg = alembic_config(embedding_dim)
        cfg.attributes["connection"] = connection
        script = ScriptDirectory.from_config(cfg)
        current = MigrationContext.configure(connection).get_current_revision()
        if revision == "base" or _is_ancestor(script, revision, current):
            command.downgrade(cfg, revision)
        else:
            command.upgrade(cfg, revision)

    try:
        async with engine.begin() as conn:
            await conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK_KEY})
            await conn.run_sync(_run)
    except DBAPIError as exc:
        if _sqlstate(exc) != DUPLICATE_TABLE:
            raise
        raise DatabaseSchemaError(
            f"database {engine.url.database!r} already has a table this version's migrations "
            f"create ({_first_line(exc)}), made by something else: point DATABASE_URL at an "
            "empty database or one this product made, or drop that table"
        ) from None
    return await current_revision(engine)


DUPLICATE_TABLE = "42P07"


def _sqlstate(exc: DBAPIError) -> str | None:
    orig = exc.orig
    return getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)


def _first_line(exc: DBAPIError) -> str:
    # asyncpg's message, e.g. 'relation "telegram_updates" already exists', without the SQL.
    text_ = str(exc.orig).strip().splitlines()
    message = text_[0] if text_ else type(exc.orig).__name__
    return message.split(": ", 1)[-1]


def _is_ancestor(script: ScriptDirectory, target: str, current: str | None) -> bool:
    """True when `target` lies strictly below `current`, i.e. reaching it is a downgrade."""
    if current is None or target in ("head", "heads"):
        return False
    target_rev = script.get_revision(target)
    if target_rev is None or target_rev.revision == current:
        return False
    return any(
        rev.revision == target_rev.revision for rev in script.iterate_revisions(current, "base")
    )


async def newest_vector_extension(engine: AsyncEngine) -> None:
    """A database created with an older pgvector keeps that version in its catalog until told:
    move it to the newest the server has (0.8.x: iterative index scans)."""
    async with engine.connect() as conn:
        installed, newest = (
            await conn.execute(
                text(
                    "SELECT installed_version, default_version FROM pg_available_extensions "
                    "WHERE name = 'vector'"
                )
            )
        ).one()
        if installed and installed != newest:
            try:
                await conn.execute(text("ALTER EXTENSION vector UPDATE"))
                await conn.commit()
                log.info("pgvector updated from %s to %s", installed, newest)
            except DBAPIError as exc:  # e.g. not the extension's owner on a managed server
                log.warning("pgvector stays at %s (%s < %s): %s", installed, installed, newest, exc)
