"""Catalog reads written for the driver, on a pooled connection lent for them: a search's pool
and the picked wines by id cost less CPU there than through an ORM session's query."""

from __future__ import annotations

import contextlib
import uuid
import weakref
from collections.abc import AsyncIterator, Callable, Iterable

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.domain import WineFilters
from repositories.database import core_connections
from repositories.models import Wine
from repositories.statements import PooledStatements
from repositories.wine_filters import SearchOrder
from repositories.wine_search import WineBrief
from repositories.wines import WineRepository

_Loans = Callable[[], PooledStatements] | None
_loans: weakref.WeakKeyDictionary[async_sessionmaker[AsyncSession], _Loans] = (
    weakref.WeakKeyDictionary()
)


@contextlib.asynccontextmanager
async def pooled_loan(
    sessions: async_sessionmaker[AsyncSession],
) -> AsyncIterator[PooledStatements | None]:
    """A connection of the sessions' pool lent for statements that commit on their own; None
    for a factory bound per table (the reads then run on the repository's own session)."""
    if sessions not in _loans:
        _loans[sessions] = core_connections(sessions)
    loans = _loans[sessions]
    if loans is None:
        yield None
        return
    async with loans() as loan:
        yield loan


async def read_pool(
    sessions: async_sessionmaker[AsyncSession],
    repo: WineRepository,
    filters: WineFilters,
    limit: int,
    order: SearchOrder,
) -> list[WineBrief]:
    async with pooled_loan(sessions) as loan:
        return await repo.search_briefs(filters, limit, order, executor=loan)


async def read_wines(
    sessions: async_sessionmaker[AsyncSession],
    repo: WineRepository,
    ids: Iterable[uuid.UUID],
) -> list[Wine]:
    """The wines by id in the order asked for, as a closed session leaves them."""
    async with pooled_loan(sessions) as loan:
        return await repo.read_by_ids(ids, loan)
