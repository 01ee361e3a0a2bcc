"""Deterministic picks from the catalog when no LLM is reachable."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.domain import SWEETNESS_RU, WINE_TYPE_RU, WineFilters, WineType, format_price
from core.language.request import ParsedQuery, parse_query
from core.recommendation import MAX_WINES, RecommendedWine
from repositories.models import Wine
from repositories.wines import WineRepository
from services.agent.answer_format import first_sentence
from services.agent.search import hybrid_search
from services.llm.embeddings import EmbeddingService

TYPICAL_PRICE = Decimal(2000)
CANDIDATES = 60
FILTER_NAMES_RU = {
    "region": "регион",
    "body_min": "тельность",
    "body_max": "тельность",
    "grape_variety": "сорт",
    "country": "страна",
    "sweetness": "сладость",
    "food_pairing": "блюдо",
    "price_min": "нижняя граница цены",
    "wine_type": "тип вина",
    "price_max": "бюджет",
}


def _choose(wines: list[Wine], filters: WineFilters) -> list[Wine]:
    """Best within the budget when there is one, else around a typical price; varied producers."""
    if filters.price_max is not None:
        ranked = sorted(wines, key=lambda w: (-w.price_rub, w.slug))
    else:
        target = filters.price_min or TYPICAL_PRICE
        ranked = sorted(wines, key=lambda w: (abs(w.price_rub - target), w.slug))
    picks: list[Wine] = []
    for wine in ranked:
        if all(p.producer != wine.producer for p in picks):
            picks.append(wine)
        if len(picks) == MAX_WINES:
            return picks
    return picks + [w for w in ranked if w not in picks][: MAX_WINES - len(picks)]


def explain(wine: Wine, parsed: ParsedQuery) -> str:
    f = parsed.filters
    parts = [f"{WINE_TYPE_RU[wine.wine_type].capitalize()} {SWEETNESS_RU[wine.sweetness]}"]
    if f.price_max is not None:
        parts.append(f"{format_price(wine.price_rub)} — в пределах бюджета")
    if f.food_pairing and wine.food_pairings:
        parts.append("хорошо к блюдам: " + ", ".join(wine.food_pairings[:3]))
    if f.grape_variety or not f.food_pairing:
        parts.append("сорта: " + ", ".join(wine.grape_varieties))
    return "; ".join(parts) + f". {first_sentence(wine.description)}"


def _varied(ranked: list[Wine]) -> list[Wine]:
    """The best three in rank order, one per producer where the ranking allows."""
    picks: list[Wine] = []
    for wine in ranked:
        if all(p.producer != wine.producer for p in picks):
            picks.append(wine)
        if len(picks) == MAX_WINES:
            return picks
    return picks + [w for w in ranked if w not in picks][: MAX_WINES - len(picks)]


async def _balanced_picks(repo: WineRepository) -> list[Wine]:
    picks: list[Wine] = []
    for wine_type in (WineType.red, WineType.white, WineType.sparkling):
        candidates = await repo.search(WineFilters(wine_type=wine_type), limit=CANDIDATES)
        picks.extend(_choose(candidates, WineFilters())[:1])
    return picks


async def offline_recommendation(
    sessions: async_sessionmaker[AsyncSession],
    embeddings: EmbeddingService,
    text: str,
    embedding_timeout: float = 5.0,
) -> tuple[str, list[RecommendedWine], str]:
    """(intro, wines, closing) built from the catalog with a templated text."""
    parsed = parse_query(text)
    relaxed: list[str] = []
    if parsed.filters.is_empty():
        # Nothing structured («с ягодными нотами», «освежающее на лето»): the words decide —
        # full text, and embeddings when configured — before any generic picks.
        found, _ = await hybrid_search(
            sessions, embeddings, text, WineFilters(), CANDIDATES, embedding_timeout
        )
        if found:
            wines = _varied(found)
            intro = "Вот вина из каталога, которые лучше всего подходят под ваше описание:"
            picks = [RecommendedWine.from_wine(w, explain(w, parsed)) for w in wines]
            return intro, picks, "Уточните бюджет, блюдо или страну — и я подберу точнее."
    async with sessions() as session:
        repo = WineRepository(session)
        if parsed.filters.is_empty():
            wines = await _balanced_picks(repo)
            intro = (
                "Сейчас я подбираю вина без помощи ИИ. Вот три надежных варианта на разные случаи:"
            )
        else:
            filters = parsed.filters
            wines = _choose(await repo.search(filters, limit=CANDIDATES), filters)
            for name in parsed.relaxation_order():
                if wines:
                    break
                filters = filters.model_copy(update={name: None})
                relaxed.append(name)
                wines = _choose(await repo.search(filters, limit=CANDIDATES), filters)
            intro = "Вот что я нашел в каталоге по вашему запросу:"
    if not wines:
        return (
            "К сожалению, в каталоге нет вин, которые подходят под этот запрос.",
            [],
            "Попробуйте изменить бюджет или тип вина.",
        )
    if relaxed:
        names = ", ".join(dict.fromkeys(FILTER_NAMES_RU[n] for n in relaxed))
        intro = (
            f"Точных совпадений нет, поэтому я ослабил условие ({names}). "
            "Вот ближайшие варианты из каталога:"
        )
    recommended = [RecommendedWine.from_wine(w, explain(w, parsed)) for w in wines]
    closing = "Уточните бюджет, блюдо или страну — и я подберу точнее."
    return intro, recommended, closing
