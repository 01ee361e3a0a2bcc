"""Database sessions whose connection failures surface as `DatabaseUnavailableError`.

Every application service opens sessions through `GuardedSessions`, so no adapter has to know
which driver, pool or socket errors mean "the database is away".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractAsyncContextManager, contextmanager
from typing import Generic, TypeVar

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from core.errors import DatabaseUnavailableError

DATABASE_ERRORS = (
    OperationalError,
    InterfaceError,
    DBAPIError,
    PoolTimeoutError,
    OSError,
    ConnectionError,
)


SessionFactory = Callable[[], AbstractAsyncContextManager[AsyncSession]]

Unit = TypeVar("Unit", AsyncSession, AsyncConnection)


class GuardedSessions(Generic[Unit]):
    """Call it like an `async_sessionmaker`: `async with sessions() as s: ...`. It guards Core
    connections (`engine.connect`) alike."""

    def __init__(self, factory: Callable[[], Unit]) -> None:
        self.factory = factory

    def __call__(self) -> _GuardedSession[Unit]:
        return _GuardedSession(self.factory)


class _GuardedSession(Generic[Unit]):
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


@contextmanager
def database_errors_as_unavailable() -> Iterator[None]:
    """For work that opens its own sessions (the agent's tools, the welcome writer)."""
    try:
        yield
    except DATABASE_ERRORS as exc:
        raise DatabaseUnavailableError("the database is unavailable") from exc
