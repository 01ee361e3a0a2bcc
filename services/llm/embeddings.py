"""Embeddings over an OpenAI-compatible /embeddings endpoint, with a query cache."""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import openai
from openai import AsyncOpenAI
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.domain import SWEETNESS_RU, WINE_TYPE_RU
from core.errors import EmbeddingDimensionError, EmbeddingUnavailableError
from core.settings import Settings
from repositories.models import Wine
from repositories.wines import WineRepository

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class EmbedReport:
    embedded: int
    remaining: int


def wine_document(wine: Wine) -> str:
    """The text a wine is embedded from: what a person would search it by."""
    parts = [
        f"{wine.name} ({wine.producer})",
        f"{WINE_TYPE_RU[wine.wine_type]} {SWEETNESS_RU[wine.sweetness]}",
        ", ".join(x for x in (wine.country, wine.region) if x),
        "Сорта: " + ", ".join(wine.grape_varieties),
        "К блюдам: " + ", ".join(wine.food_pairings),
        wine.description,
        wine.tasting_notes,
    ]
    return "\n".join(p for p in parts if p)


class EmbeddingService:
    def __init__(
        self, settings: Settings, client: AsyncOpenAI | None = None, cache_size: int = 1024
    ) -> None:
        self.model = settings.embedding_model
        self.dim = settings.embedding_dim
        self._client = client or (
            AsyncOpenAI(
                api_key=settings.embedding_api_key,
                base_url=settings.embedding_base_url or None,
                timeout=min(settings.llm_timeout_seconds, 15.0),
                max_retries=1,
            )
            if settings.embeddings_configured
            else None
        )
        self._cache: OrderedDict[str, list[float]] = OrderedDict()
        self._cache_size = cache_size

    @property
    def available(self) -> bool:
        return self._client is not None

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()

    async def embed_many(self, texts: Sequence[str]) -> list[list[float]]:
        if self._client is None:
            raise EmbeddingUnavailableError("embeddings are not configured (no API key)")
        try:
            response = await self._client.embeddings.create(model=self.model, input=list(texts))
        except openai.OpenAIError as exc:
            raise EmbeddingUnavailableError(f"embedding API error: {type(exc).__name__}") from exc
        vectors = [item.embedding for item in sorted(response.data, key=lambda d: d.index)]
        if len(vectors) != len(texts):
            raise EmbeddingUnavailableError("embedding API returned a different number of vectors")
        for vector in vectors:
            if len(vector) != self.dim:
                raise EmbeddingDimensionError(
                    f"the embedding model returns {len(vector)} dimensions but the database "
                    f"column holds {self.dim} (EMBEDDING_DIM)"
                )
        return vectors

    async def embed_query(self, text: str) -> list[float]:
        key = text.strip().lower()
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        (vector,) = await self.embed_many([text])
        self._cache[key] = vector
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return vector

    async def embed_catalog(
        self,
        sessions: async_sessionmaker[AsyncSession],
        batch_size: int = 64,
        progress: Callable[[int, int], Awaitable[None]] | None = None,
    ) -> EmbedReport:
        """Fill vectors that are missing or were made by another model; safe to re-run."""
        async with sessions() as session:
            repo = WineRepository(session)
            column_dim = await repo.embedding_dimension()
            total = await repo.count() - await repo.count_embedded(self.model)
        if column_dim is not None and column_dim != self.dim:
            raise EmbeddingDimensionError(
                f"EMBEDDING_DIM is {self.dim} but the database column holds {column_dim} "
                "dimensions; migrate a fresh database with the new EMBEDDING_DIM"
            )
        done = 0
        while True:
            async with sessions() as session:
                repo = WineRepository(session)
                batch = await repo.without_embedding(self.model, batch_size)
                if not batch:
                    break
                vectors = await self.embed_many([wine_document(w) for w in batch])
                for wine, vector in zip(batch, vectors, strict=True):
                    await repo.set_embedding(wine.id, vector, self.model)
                await session.commit()
            done += len(batch)
            if progress is not None:
                await progress(done, total)
        async with sessions() as session:
            remaining = await WineRepository(session).count() - await WineRepository(
                session
            ).count_embedded(self.model)
        return EmbedReport(embedded=done, remaining=remaining)
