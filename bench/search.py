"""Search benchmarks: the search_wines and semantic_search tools, and vector recall.

search_wines runs through the tool registry exactly as the agent calls it (argument
normalisation, validation, a pooled session, the query, JSON). Vector search is measured at the
repository (`WineRepository.nearest`, k = 10) against an exact scan of the same query, and the
whole semantic_search tool (vector + full text + rank fusion) is timed too.
"""

from __future__ import annotations

import json
import time
import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bench.experiments import full_precision
from bench.stats import Summary
from bench.workload import SEMANTIC_K, SearchCase, SemanticCase
from core.settings import Settings
from repositories.wines import WineRepository
from services.agent import build_catalog_tools
from services.llm.embeddings import EmbeddingService


class FixedEmbeddings(EmbeddingService):
    """Query vectors known in advance: the tool pays no embedding call, only the database."""

    def __init__(self, settings: Settings, vectors: dict[str, list[float]]) -> None:
        super().__init__(settings.model_copy(update={"embedding_api_key": None}))
        self._vectors = vectors

    @property
    def available(self) -> bool:
        return True

    async def embed_query(self, text: str) -> list[float]:
        return self._vectors[text]


@dataclass(frozen=True)
class Truth:
    """The exact top-k of one query, how many wines its filters match, and the scan's ms."""

    ids: frozenset[uuid.UUID]
    matching: int
    ms: float


@dataclass
class SearchReport:
    size: int
    search_wines: Summary
    search_by_kind: dict[str, Summary]
    search_errors: int
    nearest: Summary
    nearest_by_kind: dict[str, Summary]
    exact: Summary
    recall_mean: float
    recall_min: float
    full_share: float  # queries that returned min(k, matching wines) rows
    semantic_tool: Summary
    semantic_errors: int
    queries: int
    short_queries: list[str] = field(default_factory=list)


async def _timed_tool(
    registry: Any, name: str, args: dict[str, Any]
) -> tuple[float, bool, dict[str, Any]]:
    started = time.perf_counter()
    result = await registry.execute(name, json.dumps(args, ensure_ascii=False))
    took = (time.perf_counter() - started) * 1000
    payload = json.loads(result.content) if result.ok else {}
    return took, result.ok, payload


async def run_search(
    sessions: async_sessionmaker[AsyncSession],
    settings: Settings,
    size: int,
    search: Sequence[SearchCase],
    semantic: Sequence[SemanticCase],
    *,
    repeat: int = 1,
    bypass_index: bool = False,
    truth: dict[int, Truth] | None = None,
) -> SearchReport:
    """`bypass_index` makes the measured side an exact scan too (recall must then be 1.0).

    `truth` caches the exact answers between runs over the same database (variants).
    """
    truth = {} if truth is None else truth
    embeddings = FixedEmbeddings(settings, {c.text: c.vector for c in semantic})
    registry = build_catalog_tools(sessions, embeddings, timeout=60.0)

    # Warm-up: caches, the vocabulary used by tolerant matching, prepared statements.
    for case in search:
        await registry.execute("search_wines", json.dumps(case.arguments, ensure_ascii=False))
    for index, case in enumerate(semantic):  # every query once through the HNSW index
        async with sessions() as session:
            filters = case.filters if index < 20 else {}
            await WineRepository(session).nearest(case.vector, filters, k=SEMANTIC_K)

    search_ms: list[float] = []
    by_kind: dict[str, list[float]] = defaultdict(list)
    search_errors = 0
    for _ in range(repeat):
        for case in search:
            took, ok, _payload = await _timed_tool(registry, "search_wines", case.arguments)
            search_ms.append(took)
            by_kind[case.kind].append(took)
            search_errors += 0 if ok else 1

    nearest_ms: list[float] = []
    nearest_kind: dict[str, list[float]] = defaultdict(list)
    exact_ms: list[float] = []
    recalls: list[float] = []
    full = 0
    short: list[str] = []
    # The exact answers first, in a pass of their own and in full precision: an exact scan
    # reads the whole table, and between timed queries it would evict the index from the caches.
    missing = [i for i in range(len(semantic)) if i not in truth]
    if missing:
        with full_precision():
            for index in missing:
                case = semantic[index]
                async with sessions() as session:
                    repo = WineRepository(session)
                    started = time.perf_counter()
                    exact = await repo.nearest(case.vector, case.filters, k=SEMANTIC_K, exact=True)
                    exact_took = (time.perf_counter() - started) * 1000
                    matching = await repo.count_matching(case.filters)
                truth[index] = Truth(frozenset(w.id for w, _ in exact), matching, exact_took)
    for case in semantic:  # the index back in the caches
        async with sessions() as session:
            await WineRepository(session).nearest(case.vector, case.filters, k=SEMANTIC_K)
    for index, case in enumerate(semantic):
        async with sessions() as session:
            repo = WineRepository(session)
            started = time.perf_counter()
            if bypass_index:  # the exact scan as the truth makes it
                with full_precision():
                    found = await repo.nearest(case.vector, case.filters, SEMANTIC_K, exact=True)
            else:
                found = await repo.nearest(case.vector, case.filters, k=SEMANTIC_K)
            took = (time.perf_counter() - started) * 1000
        exact_ms.append(truth[index].ms)
        matching = truth[index].matching
        nearest_ms.append(took)
        nearest_kind[case.kind].append(took)
        got = {w.id for w, _ in found}
        want = truth[index].ids
        recalls.append(len(got & want) / len(want) if want else 1.0)
        if len(found) == min(SEMANTIC_K, matching):
            full += 1
        else:
            short.append(f"{case.kind}: {case.filters} → {len(found)} of {min(10, matching)}")

    tool_ms: list[float] = []
    semantic_errors = 0
    for _ in range(repeat):
        for case in semantic:
            took, ok, _payload = await _timed_tool(
                registry, "semantic_search", case.tool_arguments()
            )
            tool_ms.append(took)
            semantic_errors += 0 if ok else 1

    return SearchReport(
        size=size,
        search_wines=Summary.of(search_ms),
        search_by_kind={k: Summary.of(v) for k, v in by_kind.items()},
        search_errors=search_errors,
        nearest=Summary.of(nearest_ms),
        nearest_by_kind={k: Summary.of(v) for k, v in nearest_kind.items()},
        exact=Summary.of(exact_ms),
        recall_mean=sum(recalls) / len(recalls) if recalls else float("nan"),
        recall_min=min(recalls) if recalls else float("nan"),
        full_share=full / len(semantic) if semantic else float("nan"),
        semantic_tool=Summary.of(tool_ms),
        semantic_errors=semantic_errors,
        queries=len(semantic),
        short_queries=short,
    )
