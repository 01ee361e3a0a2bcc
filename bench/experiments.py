"""Repository variants measured side by side with the code as it is (`--variants`).

A variant patches the repository for the duration of one measurement, so the benchmark shows
before/after on the same data in the same run. `current` is repositories/wines.py unchanged.
`exact` answers every semantic query with the exact scan (no HNSW): the baseline that shows
what the index buys in latency and costs in recall.

The `proposed` variant of the first benchmark runs (HNSW candidates + exact fallback, AND-first
full text, cached tool schemas) is now the product code; BENCHMARKS.md keeps its numbers.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from core.domain import WineFilters
from repositories.models import Wine
from repositories.wines import WineRepository

VariantFactory = Callable[[AsyncEngine | None], contextlib.AbstractAsyncContextManager[None]]


@contextlib.asynccontextmanager
async def _current(_engine: AsyncEngine | None) -> AsyncIterator[None]:
    yield


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
        yield
    finally:
        WineRepository.nearest = indexed  # type: ignore[method-assign]


VARIANTS: dict[str, VariantFactory] = {"current": _current, "exact": _exact}


def variant(
    name: str, engine: AsyncEngine | None = None
) -> contextlib.AbstractAsyncContextManager[None]:
    return VARIANTS[name](engine)
