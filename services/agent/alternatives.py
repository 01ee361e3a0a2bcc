"""When nothing in the catalog matches: say so, say what was searched, and offer the nearest
real alternatives with why — the closest price, or the request with its least important
condition relaxed — never unrelated wines."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.domain import SWEETNESS_RU, WINE_TYPE_RU, WineFilters, format_price
from core.language.request import RELAXATION_ORDER, parse_query
from core.recommendation import MAX_WINES, RecommendedWine
from repositories.models import Wine
from repositories.wines import WineRepository
from services.agent.arguments import normalize
from services.agent.run import Run
from services.agent.tools import SearchWinesArgs, SemanticSearchArgs

CLOSING = "Если важнее другое — цена, цвет или страна, — скажите, и я поищу по-другому."
_CONDITION_RU = {
    "region": "регион",
    "body_min": "тельность",
    "body_max": "тельность",
    "grape_variety": "сорт",
    "country": "страну",
    "sweetness": "сладость",
    "food_pairing": "блюдо",
    "wine_type": "тип вина",
}


def searched_filters(run: Run) -> WineFilters:
    """The filters of the last catalog search of this turn (else what the message says)."""
    for message in reversed(run.turn):
        for call in reversed(message.get("tool_calls") or []):
            filters = _filters_of(call.get("function") or {})
            if filters is not None:
                return filters
    return parse_query(run.text).filters


def _filters_of(function: dict[str, Any]) -> WineFilters | None:
    name = function.get("name")
    model = {"search_wines": SearchWinesArgs, "semantic_search": SemanticSearchArgs}.get(name)
    if model is None:
        return None
    try:
        raw = json.loads(function.get("arguments") or "{}")
        args = model.model_validate(normalize(raw, frozenset(model.model_fields)).arguments)
    except (ValueError, ValidationError):
        return None
    if isinstance(args, SemanticSearchArgs):
        return args.filters().merged_over(parse_query(args.query).filters.hard())
    return args.filters()


def describe(filters: WineFilters) -> str:
    """«красное, сухое, Италия, к стейку, до 2 000 ₽» — what was searched, in words."""
    parts: list[str] = []
    if filters.wine_type:
        parts.append(WINE_TYPE_RU[filters.wine_type])
    if filters.sweetness:
        parts.append(SWEETNESS_RU[filters.sweetness])
    parts += [v for v in (filters.grape_variety, filters.country, filters.region) if v]
    if filters.food_pairing:
        parts.append(f"к блюду «{filters.food_pairing}»")
    if filters.price_min is not None:
        parts.append(f"от {format_price(filters.price_min)}")
    if filters.price_max is not None:
        parts.append(f"до {format_price(filters.price_max)}")
    return ", ".join(parts) or "по вашему описанию"


async def nearest_alternatives(
    sessions: async_sessionmaker[AsyncSession], filters: WineFilters
) -> list[RecommendedWine]:
    async with sessions() as session:
        repo = WineRepository(session)
        if filters.price_max is not None:  # nothing this cheap: the cheapest that fit otherwise
            found = await repo.search(
                filters.model_copy(update={"price_max": None}), MAX_WINES, order="price_asc"
            )
            if found:
                return [_dearer(w, filters.price_max) for w in found]
        if filters.price_min is not None:  # nothing this dear: the dearest that fit otherwise
            found = await repo.search(
                filters.model_copy(update={"price_min": None}), MAX_WINES, order="price_desc"
            )
            if found:
                return [_cheaper(w, filters.price_min) for w in found]
        present = filters.model_dump(exclude_none=True)
        for name in (n for n in RELAXATION_ORDER if n in present and n in _CONDITION_RU):
            relaxed = filters.model_copy(update={name: None})
            found = await repo.search(relaxed, MAX_WINES)
            if found:
                return [_without(w, _CONDITION_RU[name], relaxed) for w in found]
    return []


def _dearer(wine: Wine, budget: Decimal) -> RecommendedWine:
    gap = format_price(wine.price_rub - budget)
    why = f"Ближайшее по цене: {format_price(wine.price_rub)}, на {gap} дороже бюджета."
    return RecommendedWine.from_wine(wine, why)


def _cheaper(wine: Wine, floor: Decimal) -> RecommendedWine:
    why = f"Ближайшее по цене: {format_price(wine.price_rub)}, дешевле {format_price(floor)}."
    return RecommendedWine.from_wine(wine, why)


def _without(wine: Wine, condition: str, kept: WineFilters) -> RecommendedWine:
    why = f"Все остальное совпадает ({describe(kept)}), кроме условия на {condition}."
    return RecommendedWine.from_wine(wine, why)
