"""The two catalog tools the agent may call: structured search and semantic search."""

from __future__ import annotations

import logging
import uuid
from contextvars import ContextVar
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.domain import Sweetness, WineFilters, WineType
from core.language.catalog_terms import query_words
from core.language.request import parse_query
from repositories.models import Wine
from repositories.wine_search import WineBrief
from repositories.wines import WineRepository
from services.agent._catalog_index import catalog_index
from services.agent._hybrid_search import hybrid_search
from services.agent._pooled_reads import read_pool
from services.agent._request_in_force import (
    REQUEST_IN_FORCE,
    admitted,
    held_to_request,
    in_request_order,
    price_order,
    requested,
)
from services.agent._shop_picks import shop_picks
from services.agent._tool_registry import Tool, ToolOutput, ToolRegistry
from services.llm.embeddings import EmbeddingService

log = logging.getLogger(__name__)

DESCRIPTION_CHARS = 80
MAX_RESULTS = 10
POOL = 300  # candidates read before the in-memory conditions (names, groups, exclusions)
# Of the tool's time budget, what the query embedding may take before full text goes alone.
EMBEDDING_SHARE = 0.5
# Wines already shown in the conversation: the tools leave them out unless asked for them.
SHOWN_WINES: ContextVar[frozenset[uuid.UUID]] = ContextVar("shown_wines", default=frozenset())
# A wine as the tools read it: a whole catalog row, or its brief (the same names).
CatalogWine = Wine | WineBrief


def _unshown(wines: list[CatalogWine], include_shown: bool, limit: int) -> list[CatalogWine]:
    shown = SHOWN_WINES.get()
    if include_shown or not shown:
        return wines[:limit]
    return [w for w in wines if w.id not in shown][:limit]


class SearchWinesArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # Descriptions as short as they can be: the schemas go with every call.
    wine_type: WineType | None = Field(default=None, description="тип")
    sweetness: Sweetness | None = Field(default=None, description="сладость")
    grape_variety: str | None = Field(default=None, max_length=60, description="по-русски: «мерло»")
    food_pairing: str | None = Field(default=None, max_length=60, description="«стейк», «рыба»")
    country: str | None = Field(default=None, max_length=60, description="«Франция»")
    region: str | None = Field(default=None, max_length=60, description="«Бордо»")
    price_min: float | None = Field(default=None, ge=0, description="₽")
    price_max: float | None = Field(default=None, ge=0, description="₽")
    body_min: int | None = Field(default=None, ge=1, le=5, description="тельность")
    body_max: int | None = Field(default=None, ge=1, le=5, description="тельность")
    name: str | None = Field(
        default=None, max_length=80, description="название, апелласьон, стиль: «кьянти», «шабли»"
    )
    countries: list[Annotated[str, Field(max_length=60)]] | None = Field(
        default=None, max_length=20, description="любая из них («Новый Свет»)"
    )
    exclude_countries: list[Annotated[str, Field(max_length=60)]] | None = Field(
        default=None, max_length=20, description="«без Италии»"
    )
    exclude_grapes: list[Annotated[str, Field(max_length=60)]] | None = Field(
        default=None, max_length=20, description="«только не шардоне»"
    )
    limit: int = Field(default=5, ge=1, le=MAX_RESULTS, description="сколько вин")
    include_shown: bool = Field(default=False, description="и уже показанные в беседе")

    def admits(self, wine: CatalogWine) -> bool:
        if self.countries and wine.country not in self.countries:
            return False
        if self.exclude_countries and wine.country in self.exclude_countries:
            return False
        grapes = self.exclude_grapes or []
        return not any(g.lower() in (v.lower() for v in wine.grape_varieties) for g in grapes)

    def filters(self) -> WineFilters:
        values = self.model_dump(include=set(WineFilters.model_fields), exclude_none=True)
        for key in ("price_min", "price_max"):
            if key in values:
                values[key] = Decimal(str(values[key]))
        return WineFilters(**values)


class SemanticSearchArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1, max_length=300, description="вино или повод своими словами")
    wine_type: WineType | None = Field(default=None, description="тип")
    price_max: float | None = Field(default=None, ge=0, description="₽")
    limit: int = Field(default=5, ge=1, le=MAX_RESULTS, description="сколько вин")
    include_shown: bool = Field(default=False, description="и уже показанные в беседе")

    def filters(self) -> WineFilters:
        price = Decimal(str(self.price_max)) if self.price_max is not None else None
        return WineFilters(wine_type=self.wine_type, price_max=price)


def wine_brief(wine: CatalogWine) -> dict[str, Any]:
    description = wine.description
    if len(description) > DESCRIPTION_CHARS:
        description = description[: DESCRIPTION_CHARS - 1].rsplit(" ", 1)[0] + "…"
    return {
        "id": str(wine.id),
        "name": wine.name,
        "producer": wine.producer,
        "country": wine.country,
        "region": wine.region,
        "grapes": wine.grape_varieties,
        "type": wine.wine_type.value,
        "sweetness": wine.sweetness.value,
        "price": int(wine.price_rub)
        if wine.price_rub == int(wine.price_rub)
        else float(wine.price_rub),
        "description": description,
        "food": wine.food_pairings[:2],
    }


@dataclass(frozen=True)
class _BriefWine:
    wine_type: WineType
    sweetness: Sweetness
    country: str
    price_rub: Decimal


def brief_fits(brief: dict[str, Any], filters: WineFilters) -> bool:
    """Does a wine as the model was shown it (`wine_brief`) keep to the hard `filters`?"""
    wine = _BriefWine(
        WineType(brief["type"]),
        Sweetness(brief["sweetness"]),
        str(brief["country"]),
        Decimal(str(brief["price"])),
    )
    return filters.hard().admits(wine)


def _output(wines: list[CatalogWine], summary: str, hint: str | None = None) -> ToolOutput:
    payload: dict[str, Any] = {"count": len(wines), "wines": [wine_brief(w) for w in wines]}
    if not wines:
        payload["hint"] = hint or "nothing matched; retry with fewer or broader filters"
    ids: list[uuid.UUID] = [w.id for w in wines]
    return ToolOutput(payload, ids, summary)


def build_catalog_tools(
    sessions: async_sessionmaker[AsyncSession],
    embeddings: EmbeddingService,
    timeout: float = 10.0,
) -> ToolRegistry:
    async def search_wines(args: SearchWinesArgs) -> ToolOutput:
        async with sessions() as session:
            repo = WineRepository(session)
            picks = await shop_picks(session)
            # Conditions checked here in memory, and the shop's rules (a boosted wine that fits
            # may be anywhere in the price order), need a wider pool read; otherwise the
            # query's own limit (plus the wines the tool will leave out as shown) is enough.
            in_memory = args.name or args.countries or args.exclude_countries or args.exclude_grapes
            in_memory = in_memory or REQUEST_IN_FORCE.get() is not None
            wanted = POOL if in_memory or picks.active else args.limit + len(SHOWN_WINES.get())
            named = set((await catalog_index(repo)).match(args.name)[0]) if args.name else None
            wines: list[CatalogWine] = []
            held = held_to_request(args.filters())
            for filters in dict.fromkeys((held, args.filters())):
                order = price_order()
                if filters is not held and await read_pool(sessions, repo, requested(), 1, order):
                    break  # the request can be met: «nothing fits» is the honest answer
                pool = await read_pool(sessions, repo, filters, wanted, order)
                pool = [w for w in pool if named is None or w.id in named]
                fitting = [w for w in pool if args.admits(w)]
                if filters is held:
                    fitting = admitted(fitting)
                fitting = in_request_order(picks.rerank(fitting), filters)
                wines = _unshown(fitting, args.include_shown, args.limit)
                if wines:
                    break
        return _output(wines, f"найдено {len(wines)}")

    async def semantic_search(args: SemanticSearchArgs) -> ToolOutput:
        # What the query itself says of colour, sweetness, country and price is a filter, not
        # words to rank by: "красное сухое" must not find a white wine of «Красного Камня».
        own = args.filters().merged_over(parse_query(args.query).filters.hard())
        wines: list[CatalogWine] = []
        mode = "filters"
        for filters in dict.fromkeys((held_to_request(own), own)):  # the model's, if none fit
            wines, mode = await _semantic(args, filters)
            if wines:
                break
        return _output(wines, f"найдено {len(wines)} ({mode})")

    async def _semantic(
        args: SemanticSearchArgs, filters: WineFilters
    ) -> tuple[list[CatalogWine], str]:
        extra = len(SHOWN_WINES.get())
        async with sessions() as session:
            picks = await shop_picks(session)
        # With the shop's rules, they re-order the best matches twice over.
        wanted = (args.limit * 2 if picks.active else args.limit) + extra
        words = " ".join(query_words(args.query)) or args.query
        found, mode = await hybrid_search(
            sessions,
            embeddings,
            args.query,
            filters,
            wanted,
            timeout * EMBEDDING_SHARE,
            words=words,
        )
        wines = _unshown(picks.rerank(found), args.include_shown, args.limit)
        if not wines:
            # Nothing in the text either: still answer with wines within the filters.
            async with sessions() as session:
                found = await WineRepository(session).search(
                    filters, limit=POOL if picks.active else args.limit + extra
                )
            wines = _unshown(picks.rerank(found), args.include_shown, args.limit)
            mode = "filters"
        return wines, mode

    return ToolRegistry(
        [
            Tool(
                "search_wines",
                "Вина каталога по фильтрам, все необязательны.",
                SearchWinesArgs,
                search_wines,
            ),
            Tool(
                "semantic_search",
                "Вина каталога по смыслу: настроение, повод, вкус («легкое на пикник»).",
                SemanticSearchArgs,
                semantic_search,
            ),
        ],
        default_timeout=timeout,
    )
