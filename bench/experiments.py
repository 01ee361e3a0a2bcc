"""Repository variants measured side by side with the code as it is (`--variants`).

`current` is repositories/wines.py unchanged. `proposed` is the change recommended in
BENCHMARKS.md for `WineRepository.nearest` with filters, applied here by patching the method for
the duration of one measurement, so the benchmark can show before/after on the same data:

1. Filtered queries first try the HNSW index: the `FILTERED_EF` nearest candidates overall
   (an unfiltered index scan) are filtered; when at least k survive, those are the answer.
2. Otherwise (a selective or unusual filter) an exact scan of the filtered rows, shaped so that
   only the k winners are joined back to `wines` (the current query hash-joins every filtered
   row with the whole table, which dominates at 100k wines).
3. `text_search` (the full-text half of semantic_search) tries all words before any word.
4. `Tool.json_schema` cached: pydantic regenerates the two tools' schemas four times per answer
   (system prompt + the tools sent with each LLM call), about 10 ms of CPU per answer.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import and_, func, literal_column, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from repositories.matching import fold
from repositories.models import Wine
from repositories.types import WineFilters
from repositories.wines import (
    _TS_WORD,
    HNSW_EF_SEARCH,
    WineRepository,
    _check_limit,
    validate_filters,
)
from services.tool_registry import Tool

FILTERED_EF = 400


async def _exact(
    repo: WineRepository, vector: Sequence[float], conds: list[Any], k: int
) -> list[tuple[Wine, float]]:
    distance = Wine.embedding.cosine_distance(list(vector)).label("distance")
    scored = (
        select(Wine.id, Wine.slug, distance)
        .where(and_(Wine.embedding.is_not(None), *conds))
        .cte("scored")
        .prefix_with("MATERIALIZED")
    )
    top = select(scored).order_by(scored.c.distance, scored.c.slug).limit(k).subquery("top")
    stmt = (
        select(Wine, top.c.distance)
        .join(top, top.c.id == Wine.id)
        .order_by(top.c.distance, top.c.slug)
    )
    rows = await repo.session.execute(stmt)
    return [(wine, float(dist)) for wine, dist in rows.all()]


async def proposed_nearest(
    self: WineRepository,
    vector: Sequence[float],
    filters: WineFilters | Mapping[str, Any] | None = None,
    k: int = 10,
    exact: bool = False,
) -> list[tuple[Wine, float]]:
    _check_limit(k, 0)
    conds = await self._conditions(validate_filters(filters))
    if conds is None:
        return []
    if exact:
        return await _exact(self, vector, conds, k)
    distance = Wine.embedding.cosine_distance(list(vector)).label("distance")
    if not conds:
        await self.session.execute(text(f"SET LOCAL hnsw.ef_search = {max(HNSW_EF_SEARCH, k)}"))
        stmt = select(Wine, distance).where(Wine.embedding.is_not(None)).order_by(distance).limit(k)
        rows = await self.session.execute(stmt)
        return [(wine, float(dist)) for wine, dist in rows.all()]
    ef = max(FILTERED_EF, k)
    await self.session.execute(text(f"SET LOCAL hnsw.ef_search = {ef}"))
    candidates = (
        select(Wine.id, distance)
        .where(Wine.embedding.is_not(None))
        .order_by(distance)
        .limit(ef)
        .cte("candidates")
        .prefix_with("MATERIALIZED")
    )
    stmt = (
        select(Wine, candidates.c.distance)
        .join(candidates, candidates.c.id == Wine.id)
        .where(*conds)
        .order_by(candidates.c.distance, Wine.slug)
        .limit(k)
    )
    found = [(wine, float(dist)) for wine, dist in (await self.session.execute(stmt)).all()]
    if len(found) >= k:
        return found
    return await _exact(self, vector, conds, k)


async def proposed_text_search(
    self: WineRepository,
    query: str,
    filters: WineFilters | Mapping[str, Any] | None = None,
    k: int = 10,
) -> list[Wine]:
    """All words first (a handful of GIN hits); any word (the current OR) only when that finds
    fewer than k. The OR of common words ("красное", "вино") ranks half the catalog."""
    _check_limit(k, 0)
    words = _TS_WORD.findall(fold(query))
    if not words:
        return []
    conds = await self._conditions(validate_filters(filters))
    if conds is None:
        return []
    parts = [func.plainto_tsquery(literal_column("'russian'::regconfig"), w) for w in words[:12]]
    all_words, any_word = parts[0], parts[0]
    for part in parts[1:]:
        all_words = all_words.op("&&")(part)
        any_word = any_word.op("||")(part)
    found: list[Wine] = []
    for tsq in (all_words, any_word):
        rank = func.ts_rank_cd(Wine.search_vector, tsq)
        stmt = (
            select(Wine)
            .where(Wine.search_vector.op("@@")(tsq), *conds)
            .order_by(rank.desc(), Wine.slug)
            .limit(k)
        )
        found = list((await self.session.scalars(stmt)).all())
        if len(found) >= k:
            break
    return found


@contextlib.asynccontextmanager
async def _proposed(_engine: AsyncEngine | None) -> AsyncIterator[None]:
    """The proposed repository methods and the cached tool schemas."""
    originals = (WineRepository.nearest, WineRepository.text_search)
    schema = Tool.json_schema
    WineRepository.nearest = proposed_nearest  # type: ignore[method-assign]
    WineRepository.text_search = proposed_text_search  # type: ignore[method-assign]
    Tool.json_schema = functools.cache(schema)  # type: ignore[method-assign]
    try:
        yield
    finally:
        WineRepository.nearest, WineRepository.text_search = originals  # type: ignore[method-assign]
        Tool.json_schema = schema  # type: ignore[method-assign]


@contextlib.asynccontextmanager
async def _current(_engine: AsyncEngine | None) -> AsyncIterator[None]:
    yield


VARIANTS: dict[
    str, Callable[[AsyncEngine | None], contextlib.AbstractAsyncContextManager[None]]
] = {
    "current": _current,
    "proposed": _proposed,
}


def variant(
    name: str, engine: AsyncEngine | None = None
) -> contextlib.AbstractAsyncContextManager[None]:
    return VARIANTS[name](engine)
