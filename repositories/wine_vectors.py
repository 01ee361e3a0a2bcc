"""The catalog's vectors: nearest wines through the HNSW index (or an exact scan), and the
bookkeeping of which wines have an embedding from which model."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from pgvector.sqlalchemy import HALFVEC, VECTOR
from sqlalchemy import ColumnElement, cast, func, literal, select, text, update

from core.domain import WineFilters
from repositories.explain import estimated_rows
from repositories.models import Wine
from repositories.wine_filters import ON_SALE, FilteredWines, check_limit, validate_filters

# The HNSW beam, filtered or not. On the half-precision index 100 keeps recall@10 ≥ 0.99 at 100k
# wines (300 was needed on the full-precision one); a wider beam only costs time.
HNSW_EF_SEARCH = 100
# Filters the planner expects to leave fewer wines than this are scored exactly: cheap for so
# few, and a walk through the graph would meet them too rarely to find the true nearest.
EXACT_SCAN_BELOW = 150
# A walk gives up after visiting this many index tuples; the matching wines are then scored
# exactly. At 100k wines a 2,000-tuple walk costs about what that exact scan costs, so a filter
# the planner overestimated (it leaves under ~0.5 % of the catalog) pays at most twice.
HNSW_MAX_SCAN_TUPLES = 2_000


class WineVectors(FilteredWines):
    async def nearest(
        self,
        vector: Sequence[float],
        filters: WineFilters | Mapping[str, Any] | None = None,
        k: int = 10,
        exact: bool = False,
    ) -> list[tuple[Wine, float]]:
        """Wines by cosine distance, nearest first, with the distance.

        The filters run inside the HNSW index scan (pgvector ≥ 0.8 iterative scans): the walk
        goes on until k matching wines are found or HNSW_MAX_SCAN_TUPLES were visited. Filters
        the planner expects to leave fewer than EXACT_SCAN_BELOW wines are scored exactly
        instead, and so are the filters of a walk that stops short. Either way the answer has k
        rows whenever k wines match. `exact` forces the scan.
        """
        check_limit(k, 0)
        conds = await self._conditions(validate_filters(filters))
        if conds is None:
            return []
        if exact or (conds and await self._few_match(conds)):
            return await self._nearest_exact(vector, conds, k)
        previous = await self._begin_walk(max(HNSW_EF_SEARCH, k), planner=bool(conds))
        found = await self._walk(vector, conds, k)
        if previous:
            await self._set_local(previous)
        if len(found) < k:
            return await self._nearest_exact(vector, conds, k)
        return found

    async def _few_match(self, conds: list[ColumnElement[bool]]) -> bool:
        matching = select(Wine.id).where(Wine.embedding.is_not(None), ON_SALE, *conds)
        return await estimated_rows(self.session, matching) < EXACT_SCAN_BELOW

    async def _walk(
        self, vector: Sequence[float], conds: list[ColumnElement[bool]], k: int
    ) -> list[tuple[Wine, float]]:
        distance = self.distance(vector).label("distance")
        walked = (
            select(Wine.id, distance)
            .where(Wine.embedding.is_not(None), ON_SALE, *conds)
            .order_by(distance)
            .limit(k)
            .cte("walked")
            .prefix_with("MATERIALIZED")
        )
        rows = await self.session.execute(
            select(Wine, walked.c.distance).join(walked, walked.c.id == Wine.id)
        )
        # Sorting the k rows here keeps the database from planning a sort, which a filtered
        # walk discourages.
        return sorted(
            ((wine, float(dist)) for wine, dist in rows.all()), key=lambda r: (r[1], r[0].slug)
        )

    def distance(self, vector: Sequence[float]) -> ColumnElement[float]:
        """Cosine distance from `vector` in half precision: the expression the HNSW index
        (`embedding::halfvec(dim)`, migration 0004) serves."""
        half = HALFVEC(len(vector))
        query = cast(literal(list(vector), type_=VECTOR(len(vector))), half)
        return cast(Wine.embedding, half).cosine_distance(query)

    async def _begin_walk(self, ef: int, *, planner: bool) -> dict[str, str]:
        """In one round trip, SET LOCAL the walk's settings; returns the planner settings it
        changed with their previous values (to put back once the walk is done).

        A filtered walk also needs custom plans (after five runs asyncpg's prepared statement
        gets a generic plan that no longer sees the query vector and scans far slower) and no
        sort (for filters matching a few thousand wines the planner otherwise prefers sorting
        every matching vector to walking the index).
        """
        walk = {
            "hnsw.ef_search": str(ef),
            "hnsw.iterative_scan": "strict_order",
            "hnsw.max_scan_tuples": str(HNSW_MAX_SCAN_TUPLES),
        }
        if not planner:
            await self._set_local(walk)
            return {}
        changed = {"plan_cache_mode": "force_custom_plan", "enable_sort": "off"}
        # The old values come from a subquery that cannot be flattened (OFFSET 0), so they are
        # read before anything is set.
        before = (
            select(*(func.current_setting(n).label(f"old{i}") for i, n in enumerate(changed)))
            .offset(0)
            .subquery()
        )
        stmt = select(
            *before.c, *(func.set_config(n, v, True) for n, v in (walk | changed).items())
        ).select_from(before)
        row = (await self.session.execute(stmt)).one()
        return {name: str(old) for name, old in zip(changed, row, strict=False)}

    async def _set_local(self, settings: Mapping[str, str]) -> None:
        """SET LOCAL several settings in one round trip."""
        await self.session.execute(
            select(*(func.set_config(n, v, True) for n, v in settings.items()))
        )

    async def _nearest_exact(
        self, vector: Sequence[float], conds: list[ColumnElement[bool]], k: int
    ) -> list[tuple[Wine, float]]:
        """Score every matching row, keep the k best, and only then fetch those wines."""
        distance = self.distance(vector).label("distance")
        scored = (
            select(Wine.id, Wine.slug, distance)
            .where(Wine.embedding.is_not(None), ON_SALE, *conds)
            .cte("scored")
            .prefix_with("MATERIALIZED")
        )
        top = select(scored).order_by(scored.c.distance, scored.c.slug).limit(k).subquery("top")
        stmt = (
            select(Wine, top.c.distance)
            .join(top, top.c.id == Wine.id)
            .order_by(top.c.distance, top.c.slug)
        )
        rows = await self.session.execute(stmt)
        return [(wine, float(dist)) for wine, dist in rows.all()]

    # ---- embeddings --------------------------------------------------------------------------

    async def count_embedded(self, model: str | None = None) -> int:
        stmt = select(func.count()).select_from(Wine).where(Wine.embedding.is_not(None))
        if model is not None:
            stmt = stmt.where(Wine.embedding_model == model)
        return int(await self.session.scalar(stmt) or 0)

    async def without_embedding(self, model: str, limit: int) -> list[Wine]:
        """Wines whose vector is missing or was made by another model."""
        stmt = (
            select(Wine)
            .where((Wine.embedding.is_(None)) | (Wine.embedding_model.is_distinct_from(model)))
            .order_by(Wine.slug)
            .limit(limit)
        )
        return list((await self.session.scalars(stmt)).all())

    async def set_embedding(self, wine_id: uuid.UUID, vector: Sequence[float], model: str) -> None:
        await self.session.execute(
            update(Wine)
            .where(Wine.id == wine_id)
            .values(embedding=list(vector), embedding_model=model)
        )

    async def embedding_of(self, wine_id: uuid.UUID) -> list[float] | None:
        vector = await self.session.scalar(select(Wine.embedding).where(Wine.id == wine_id))
        return None if vector is None else [float(x) for x in vector]

    async def embedding_dimension(self) -> int | None:
        """The dimension of the embedding column as declared in the schema."""
        value = await self.session.scalar(
            text(
                "SELECT atttypmod FROM pg_attribute WHERE attrelid = 'wines'::regclass "
                "AND attname = 'embedding'"
            )
        )
        return int(value) if value is not None and value > 0 else None
