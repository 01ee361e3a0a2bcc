"""Repository variants measured side by side with the code as it is (`--variants`).

A variant patches the repository for the duration of one measurement, so the benchmark shows
before/after on the same data in the same run. `current` is WineRepository unchanged.
`exact` answers every semantic query with the exact scan (no HNSW): the baseline that shows
what the index buys in latency and costs in recall.

`current` searches the half-precision index of migration 0004 (`embedding::halfvec(dim)`).
`vector` searches a full-precision HNSW index on `embedding` instead (built on entering the
variant, dropped on leaving; its build time and size go to the report's notes): what the
product did before. `candidates` is the pgvector 0.6 strategy `nearest` used before iterative
index scans: the 400 nearest wines from an unfiltered HNSW scan, the filters applied to those,
and an exact scan of the filtered rows when fewer than k survive (on the full-precision index,
as it ran).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from typing import Any

import asyncpg
from sqlalchemy import ColumnElement, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from core.domain import WineFilters
from repositories.models import Wine
from repositories.wines import ON_SALE, WineRepository, validate_filters

CANDIDATES = 400

VariantFactory = Callable[[AsyncEngine | None], contextlib.AbstractAsyncContextManager[None]]


@contextlib.asynccontextmanager
async def _current(_engine: AsyncEngine | None) -> AsyncIterator[None]:
    yield


@contextlib.contextmanager
def full_precision() -> Iterator[None]:
    """Distances on the stored vectors themselves rather than the half-precision index's."""
    searched = WineRepository.distance

    def full(self: WineRepository, vector: Sequence[float]) -> ColumnElement[float]:
        return Wine.embedding.cosine_distance(list(vector))

    WineRepository.distance = full  # type: ignore[method-assign]
    try:
        yield
    finally:
        WineRepository.distance = searched  # type: ignore[method-assign]


@contextlib.asynccontextmanager
async def _exact(_engine: AsyncEngine | None) -> AsyncIterator[None]:
    indexed = WineRepository.nearest

    async def exact_nearest(
        self: WineRepository,
        vector: Sequence[float],
        filters: WineFilters | Mapping[str, Any] | None = None,
        k: int = 10,
        exact: bool = False,
    ) -> list[tuple[Wine, float]]:
        return await indexed(self, vector, filters, k, exact=True)

    WineRepository.nearest = exact_nearest  # type: ignore[method-assign]
    try:
        with full_precision():
            yield
    finally:
        WineRepository.nearest = indexed  # type: ignore[method-assign]


@contextlib.asynccontextmanager
async def _candidates(engine: AsyncEngine | None) -> AsyncIterator[None]:
    async with _vector(engine), _candidates_strategy():
        yield


@contextlib.asynccontextmanager
async def _candidates_strategy() -> AsyncIterator[None]:
    walking = WineRepository.nearest

    async def candidates_nearest(
        self: WineRepository,
        vector: Sequence[float],
        filters: WineFilters | Mapping[str, Any] | None = None,
        k: int = 10,
        exact: bool = False,
    ) -> list[tuple[Wine, float]]:
        conds = await self._conditions(validate_filters(filters))
        if exact or not conds:
            return await walking(self, vector, filters, k, exact)
        await self.session.execute(text(f"SET LOCAL hnsw.ef_search = {CANDIDATES}"))
        await self.session.execute(text("SET LOCAL hnsw.iterative_scan = off"))
        distance = Wine.embedding.cosine_distance(list(vector)).label("distance")
        pool = (
            select(Wine.id, distance)
            .where(Wine.embedding.is_not(None))
            .order_by(distance)
            .limit(CANDIDATES)
            .cte("pool")
            .prefix_with("MATERIALIZED")
        )
        stmt = (
            select(Wine, pool.c.distance)
            .join(pool, pool.c.id == Wine.id)
            .where(ON_SALE, *conds)
            .order_by(pool.c.distance, Wine.slug)
            .limit(k)
        )
        found = [(w, float(d)) for w, d in (await self.session.execute(stmt)).all()]
        if len(found) == k:
            return found
        return await walking(self, vector, filters, k, exact=True)

    WineRepository.nearest = candidates_nearest  # type: ignore[method-assign]
    try:
        yield
    finally:
        WineRepository.nearest = walking  # type: ignore[method-assign]


VECTOR_INDEX = "ix_wines_embedding_vector_bench"
NOTES: dict[str, str] = {}  # what variants measured beside the report's tables, by topic


@contextlib.asynccontextmanager
async def _vector(engine: AsyncEngine | None) -> AsyncIterator[None]:
    """Full precision: an HNSW index on `embedding` itself (the index before migration 0004),
    built on entering and dropped on leaving, and the distance computed on `vector`."""
    assert engine is not None
    # The pooled connections time out statements; building a 100k-vector index takes a minute.
    dsn = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute("SET maintenance_work_mem = '2GB'")
        await conn.execute("SET max_parallel_maintenance_workers = 2")
        started = time.perf_counter()
        await conn.execute(
            f"CREATE INDEX IF NOT EXISTS {VECTOR_INDEX} ON wines USING hnsw "
            "(embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)"
        )
        seconds = time.perf_counter() - started
        size = int(await conn.fetchval(f"SELECT pg_relation_size('{VECTOR_INDEX}')") or 0)
        await conn.execute("ANALYZE wines")
    finally:
        await conn.close()
    NOTES.setdefault(
        "vector index",
        f"full-precision (`vector`) HNSW index of the variants built in {seconds:.1f} s, "
        f"{size / 1024 / 1024:.0f} MB",
    )
    try:
        with full_precision():
            yield
    finally:
        async with engine.begin() as drop:
            await drop.execute(text(f"DROP INDEX IF EXISTS {VECTOR_INDEX}"))


VARIANTS: dict[str, VariantFactory] = {
    "current": _current,
    "exact": _exact,
    "candidates": _candidates,
    "vector": _vector,
}


def variant(
    name: str, engine: AsyncEngine | None = None
) -> contextlib.AbstractAsyncContextManager[None]:
    return VARIANTS[name](engine)
