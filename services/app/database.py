"""The database as every application service opens it: sessions and connections whose
connection failures surface as `DatabaseUnavailableError`, so no adapter has to know which
driver, pool or socket errors mean "the database is away".

`Database` is built once (services/app/container.py) and handed to every service; each unit of
work picks the kind it needs — an ORM session in a transaction, one statement without
BEGIN/COMMIT, or a pooled connection for statements that commit on their own (no ORM objects
and no SQLAlchemy connection: the least CPU per statement).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractAsyncContextManager, contextmanager
from typing import Generic, TypeVar

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.errors import DatabaseUnavailableError
from repositories.database import autocommit_sessions, core_connections
from repositories.statements import PooledStatements

DATABASE_ERRORS = (
    OperationalError,
    InterfaceError,
    DBAPIError,
    PoolTimeoutError,
    OSError,
    ConnectionError,
)


SessionFactory = Callable[[], AbstractAsyncContextManager[AsyncSession]]
Unit = TypeVar("Unit", AsyncSession, PooledStatements)


class DatabaseSessions(Generic[Unit]):
    """Call it like an `async_sessionmaker`: `async with sessions() as s: ...`. It lends the
    pool's connections for statements (`PooledStatements`) alike."""

    def __init__(self, factory: Callable[[], Unit]) -> None:
        self.factory = factory

    def __call__(self) -> _UnavailableWhenAway[Unit]:
        return _UnavailableWhenAway(self.factory)


class _UnavailableWhenAway(Generic[Unit]):
    def __init__(self, factory: Callable[[], Unit]) -> None:
        self._session = factory()

    async def __aenter__(self) -> Unit:
        try:
            return await self._session.__aenter__()
        except DATABASE_ERRORS as exc:
            raise DatabaseUnavailableError("the database is unavailable") from exc

    async def __aexit__(self, exc_type: object, exc: BaseException | None, tb: object) -> None:
        try:
            # Closing rolls back on the connection, which fails again when the server is gone.
            await self._session.__aexit__(exc_type, exc, tb)  # type: ignore[arg-type]
        except DATABASE_ERRORS as close_error:
            raise DatabaseUnavailableError("the database is unavailable") from (exc or close_error)
        if exc is not None and isinstance(exc, DATABASE_ERRORS):
            raise DatabaseUnavailableError("the database is unavailable") from exc


class Database:
    """The three ways a service opens the database, over one pool.

    - `sessions`: ORM sessions; work that must stand or fall together commits at its end.
    - `single`: ORM sessions whose every statement commits on its own (reads, one-statement
      writes: no BEGIN and COMMIT around them).
    - `statements`: the pool's connections lent for statements that each commit on their own
      (`repositories.statements.PooledStatements`: no ORM, no SQLAlchemy connection unless a
      statement built with SQLAlchemy asks for one).

    A factory bound per table (tests) has no engine of its own: its sessions serve for all three.
    `raw` is the plain factory, for code that opens sessions itself (the agent's tools).
    """

    def __init__(self, raw: async_sessionmaker[AsyncSession]) -> None:
        self.raw = raw
        self.sessions: DatabaseSessions[AsyncSession] = DatabaseSessions(raw)
        self.single: DatabaseSessions[AsyncSession] = DatabaseSessions(autocommit_sessions(raw))
        statements = core_connections(raw)
        self.statements: DatabaseSessions[AsyncSession] | DatabaseSessions[PooledStatements] = (
            DatabaseSessions(statements) if statements else self.single
        )

    async def answers(self) -> bool:
        """Whether the database answers a query now."""
        try:
            async with self.raw() as s:
                await s.execute(text("SELECT 1"))
        except DATABASE_ERRORS:
            return False
        return True


async def commit(unit: AsyncSession | PooledStatements) -> None:
    """Commit what a unit of work began. A unit whose statements went to the driver directly
    (`repositories.statements.driver_execute` on `statements`) began nothing: its statements
    are committed already, and a call into SQLAlchemy's commit would cost more than them."""
    if unit.in_transaction():
        await unit.commit()


@contextmanager
def database_errors_as_unavailable() -> Iterator[None]:
    """For work that opens its own sessions (the agent's tools, the welcome writer)."""
    try:
        yield
    except DATABASE_ERRORS as exc:
        raise DatabaseUnavailableError("the database is unavailable") from exc
