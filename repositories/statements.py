"""Statements written for the driver, and the pooled connections that run them without
SQLAlchemy's `Connection` around each one.

Most of an answer's database work is units of one statement that commits on its own (the update
ledger's marks, the send and rate counters, a turn's read and store). For those, making and
closing SQLAlchemy's `Connection` (its events, its isolation level set to AUTOCOMMIT on every
loan and reset after) cost more CPU than the statement. `PooledStatements` borrows the pool's
connection itself: the pool's size, timeout, and replacement of a connection the server closed
apply as to every loan; a statement that fails comes out as SQLAlchemy's error, and a
connection whose state is unknown afterwards leaves the pool.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import asyncpg
from sqlalchemy.engine import Connection, CursorResult, Dialect, ScalarResult
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession
from sqlalchemy.pool import PoolProxiedConnection
from sqlalchemy.sql import Executable
from sqlalchemy.util import greenlet_spawn

_Result = TypeVar("_Result")

#: What the dialect translates (SQLAlchemy's `_asyncpg_error_translate`): errors the server
#: reported, and the client's own (a connection lost, a protocol in an unexpected state).
DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError)
#: The client's own: the connection's state is unknown afterwards.
_CONNECTION_ERRORS = (asyncpg.InterfaceError, asyncpg.InternalClientError)


class PooledStatements:
    """A connection of the pool lent for a unit of statements that each commit on their own.
    `async with PooledStatements(engine) as conn:` (an engine whose connections are AUTOCOMMIT).

    Statements written for the driver (`driver_execute` …) go to its asyncpg connection. A
    statement built with SQLAlchemy (`execute`, `scalar`, `scalars`) gets SQLAlchemy's
    `Connection`, made over the same loan the first time one is asked for."""

    __slots__ = ("_core", "_engine", "_pooled", "driver")

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._pooled: PoolProxiedConnection | None = None
        self._core: AsyncConnection | None = None
        self.driver: asyncpg.Connection

    async def __aenter__(self) -> PooledStatements:
        sync_engine = self._engine.sync_engine
        try:
            pooled = await greenlet_spawn(sync_engine.raw_connection)
        except sync_engine.dialect.loaded_dbapi.Error as exc:
            # raised as `engine.connect()` raises it (its own wrapper, its hooks)
            Connection._handle_dbapi_exception_noconnection(exc, sync_engine.dialect, sync_engine)
        self._pooled = pooled
        self.driver = pooled.driver_connection
        return self

    async def __aexit__(self, *_exc_info: object) -> None:
        core, pooled, self._core, self._pooled = self._core, self._pooled, None, None
        if core is not None:
            await core.close()
        elif pooled is not None:
            # Returning it does no I/O (no transaction was begun on it): nothing to wait for,
            # so nothing a cancellation could cut off halfway.
            await greenlet_spawn(pooled.close)

    @property
    def dialect(self) -> Dialect:
        return self._engine.dialect

    @property
    def engine(self) -> AsyncEngine:
        return self._engine

    async def invalidate(self) -> None:
        """Out of the pool: its state is unknown (a statement cut off, a client error)."""
        if self._core is not None:
            await self._core.invalidate()
        elif self._pooled is not None:
            pooled, self._pooled = self._pooled, None
            await greenlet_spawn(pooled.invalidate)  # closes it and returns its place

    def in_transaction(self) -> bool:
        return self._core is not None and self._core.in_transaction()

    async def commit(self) -> None:
        if self._core is not None:
            await self._core.commit()

    async def sqlalchemy(self) -> AsyncConnection:
        """SQLAlchemy's connection over this loan (made once)."""
        if self._core is None:
            if self._pooled is None:
                raise RuntimeError("the connection is not lent (outside `async with`)")
            sync = await greenlet_spawn(Connection, self._engine.sync_engine, self._pooled)
            self._core = AsyncConnection(self._engine, sync)
        return self._core

    async def execute(
        self, statement: Executable, parameters: dict[str, Any] | None = None
    ) -> CursorResult[Any]:
        return await (await self.sqlalchemy()).execute(statement, parameters)

    async def scalar(self, statement: Executable, parameters: dict[str, Any] | None = None) -> Any:
        return await (await self.sqlalchemy()).scalar(statement, parameters)

    async def scalars(
        self, statement: Executable, parameters: dict[str, Any] | None = None
    ) -> ScalarResult[Any]:
        return await (await self.sqlalchemy()).scalars(statement, parameters)


#: Every statement in repositories/ runs through one of these alike: an ORM session (a turn's
#: transaction, a test's), a Core connection, or a pooled connection lent for statements that
#: commit on their own (no ORM objects, no SQLAlchemy connection: the least CPU per statement).
Executor = AsyncSession | AsyncConnection | PooledStatements


async def driver_execute(executor: Executor, sql: str, *args: Any) -> int:
    """One statement written for the driver ($1, $2 …), passed to it as written: no SQL
    construct to build, cache-key and compile. On the executor's connection, in whatever
    transaction it is in. A statement that commits on its own (a `PooledStatements` loan, a
    Core connection in AUTOCOMMIT) goes to asyncpg itself: SQLAlchemy's execution around it
    cost more CPU than the statement. Its errors come out as SQLAlchemy's, as for every
    statement. Returns the rows it touched."""
    driver = _autocommit_driver(executor)
    if driver is not None:
        status = await _on_driver(executor, driver.execute, sql, args)
        count = status.rpartition(" ")[2]
        return int(count) if count.isdigit() else -1
    result = await (await _connection_of(executor)).exec_driver_sql(sql, args)
    return int(result.rowcount)


async def driver_fetchrow(executor: Executor, sql: str, *args: Any) -> tuple[Any, ...] | None:
    """`driver_execute`'s reading twin: the first row, or None."""
    driver = _autocommit_driver(executor)
    if driver is not None:
        record = await _on_driver(executor, driver.fetchrow, sql, args)
        return tuple(record) if record is not None else None
    first = (await (await _connection_of(executor)).exec_driver_sql(sql, args)).first()
    return tuple(first) if first is not None else None


async def driver_fetchall(executor: Executor, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """`driver_execute`'s reading twin for every row."""
    driver = _autocommit_driver(executor)
    if driver is not None:
        return [tuple(record) for record in await _on_driver(executor, driver.fetch, sql, args)]
    result = await (await _connection_of(executor)).exec_driver_sql(sql, args)
    return [tuple(row) for row in result.all()]


async def _connection_of(executor: Executor) -> AsyncConnection:
    if isinstance(executor, AsyncConnection):
        return executor
    if isinstance(executor, PooledStatements):
        return await executor.sqlalchemy()
    return await executor.connection()


def _autocommit_driver(executor: Executor) -> asyncpg.Connection | None:
    """The asyncpg connection under an executor whose statements commit on their own (no
    transaction of SQLAlchemy's to stay inside), or None."""
    if isinstance(executor, PooledStatements) and not executor.in_transaction():
        return executor.driver
    return None


async def _on_driver(
    executor: PooledStatements,
    call: Callable[..., Awaitable[_Result]],
    sql: str,
    args: tuple[Any, ...],
) -> _Result:
    """`call` (a method of the asyncpg connection under `executor`) run on the statement,
    failing as the statement would through SQLAlchemy."""
    try:
        return await call(sql, *args)
    except (*DRIVER_ERRORS, asyncio.CancelledError) as exc:
        raise await _as_sqlalchemy_would(executor, sql, args, exc) from exc


async def _as_sqlalchemy_would(
    executor: PooledStatements,
    sql: str,
    args: tuple[Any, ...],
    exc: BaseException,
) -> BaseException:
    """A statement given to asyncpg fails as it would through SQLAlchemy: asyncpg's errors
    as SQLAlchemy's (IntegrityError, InterfaceError …), and a statement cancelled midway or
    failed by the client itself leaves its connection out of the pool (its state is
    unknown)."""
    if isinstance(exc, (asyncio.CancelledError, *_CONNECTION_ERRORS)):
        with contextlib.suppress(Exception):
            await executor.invalidate()
    if isinstance(exc, asyncio.CancelledError):
        return exc
    hide = executor.engine.sync_engine.hide_parameters
    return _as_sqlalchemy_error(executor.dialect, hide, sql, args, exc)


def _as_sqlalchemy_error(
    dialect: Dialect, hide_parameters: bool, sql: str, args: tuple[Any, ...], exc: Exception
) -> Exception:
    dbapi = dialect.loaded_dbapi
    translate = dbapi._asyncpg_error_translate
    translated: Exception = exc
    for kind in type(exc).__mro__:
        if kind in translate:
            translated = translate[kind](exc.args[0] if exc.args else str(exc), exc)
            break
    return DBAPIError.instance(
        sql, args, translated, dbapi.Error, hide_parameters=hide_parameters, dialect=dialect
    )
