"""Search by meaning: pgvector similarity (when an embeddings API is configured) fused with
Russian full text, within structured filters. Used by the `semantic_search` tool and by the
offline path for requests that name no colour, grape, dish or budget («что-то освежающее»)."""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Literal

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.domain import WineFilters
from core.errors import EmbeddingDimensionError, EmbeddingUnavailableError
from repositories.database import in_transaction
from repositories.models import Wine
from repositories.wines import WineRepository
from services.llm.embeddings import EmbeddingService

log = logging.getLogger(__name__)

RRF_K = 60
Mode = Literal["hybrid", "text"]


async def hybrid_search(
    sessions: async_sessionmaker[AsyncSession],
    embeddings: EmbeddingService,
    query: str,
    filters: WineFilters,
    limit: int,
    embedding_timeout: float,
    words: str | None = None,
) -> tuple[list[Wine], Mode]:
    """The best `limit` wines for `query` within `filters`, best first (may be empty); `words`
    (the query's meaningful words) are what full text searches for, when given."""
    vector: list[float] | None = None
    if embeddings.available:
        try:
            # A hanging embeddings API must leave time for the full-text half.
            vector = await asyncio.wait_for(embeddings.embed_query(query), embedding_timeout)
        except (EmbeddingUnavailableError, EmbeddingDimensionError) as exc:
            log.warning("search by meaning falls back to full text: %s", exc)
        except TimeoutError:
            log.warning("search by meaning falls back to full text: the embedding timed out")
    async with sessions() as session:
        await in_transaction(session)  # the index walk's SET LOCAL settings
        repo = WineRepository(session)
        rankings: list[list[Wine]] = []
        if vector is not None:
            rankings.append([w for w, _ in await repo.nearest(vector, filters, limit * 2)])
        rankings.append(await repo.text_search(words or query, filters, limit * 2))
    mode: Mode = "hybrid" if vector is not None and rankings[0] else "text"
    return rrf_merge(rankings, limit), mode


def rrf_merge(rankings: list[list[Wine]], limit: int) -> list[Wine]:
    """Reciprocal rank fusion of several ranked lists."""
    scores: dict[uuid.UUID, float] = {}
    by_id: dict[uuid.UUID, Wine] = {}
    for ranking in rankings:
        for rank, wine in enumerate(ranking, start=1):
            scores[wine.id] = scores.get(wine.id, 0.0) + 1.0 / (RRF_K + rank)
            by_id.setdefault(wine.id, wine)
    ordered = sorted(scores, key=lambda i: (-scores[i], by_id[i].slug))
    return [by_id[i] for i in ordered[:limit]]
