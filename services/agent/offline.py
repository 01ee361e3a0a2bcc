"""Deterministic picks from the catalog when no LLM is reachable."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.domain import SWEETNESS_RU, WINE_TYPE_RU, WineFilters, WineType, format_price
from core.language.request import ParsedQuery, parse_query
from core.recommendation import RecommendedWine
from core.text import joined
from repositories.models import Wine
from repositories.wines import WineRepository
from services.agent.answer_format import first_sentence
from services.agent.closing import closing_line
from services.agent.conversation import conversation_state
from services.agent.request_state import RequestState
from services.agent.selection import Selection, select_wines

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


def explain(wine: Wine, parsed: ParsedQuery, state: RequestState | None = None) -> str:
    f = state.filters if state is not None else parsed.filters
    parts = [f"{WINE_TYPE_RU[wine.wine_type].capitalize()} {SWEETNESS_RU[wine.sweetness]}"]
    if within_budget(wine, f, state):
        parts.append(f"{format_price(wine.price_rub)} — в пределах бюджета")
    if f.food_pairing and wine.food_pairings:
        parts.append("хорошо к блюдам: " + ", ".join(wine.food_pairings[:3]))
    grapes = joined(wine.grape_varieties)
    if grapes and (f.grape_variety or not f.food_pairing):
        parts.append("сорта: " + grapes)
    return "; ".join(parts) + f". {first_sentence(wine.description)}"


def within_budget(wine: Wine, filters: WineFilters, state: RequestState | None) -> bool:
    """«В пределах бюджета» only of a wine that is: within the person's own budget, not the
    «cheaper than those» bound a follow-up set."""
    if filters.price_max is None or wine.price_rub > filters.price_max:
        return False
    return state is None or "дешевле" not in state.refined


async def offline_recommendation(
    sessions: async_sessionmaker[AsyncSession],
    text: str,
    state: RequestState | None = None,
    profile: dict[str, Any] | None = None,
    day_types: Sequence[WineType] = (),
) -> tuple[str, list[RecommendedWine], str]:
    """(intro, wines, closing) built from the catalog with a templated text."""
    parsed = parse_query(text)
    if state is None:
        state = await conversation_state(sessions, (), text)
    async with sessions() as session:
        selection = await select_wines(WineRepository(session), state, profile, day_types)
    closing = closing_line(state)
    if not selection.wines:
        searched = state.summary_ru(numbers=False)
        return (
            "К сожалению, в каталоге нет вин, которые подходят под этот запрос"
            + (f" (искал: {searched})." if searched else "."),
            [],
            "Попробуйте изменить бюджет или тип вина.",
        )
    intro = _intro(state, selection)
    recommended = [RecommendedWine.from_wine(w, explain(w, parsed, state)) for w in selection.wines]
    return intro, recommended, closing


_FURTHEST = {
    "дешевле": "Самые доступные из подходящих",
    "дороже": "Самые дорогие из подходящих",
    "легче": "Самые легкие из подходящих",
    "плотнее": "Самые плотные из подходящих",
    "суше": "Самые сухие из подходящих",
    "слаще": "Самые сладкие из подходящих",
}


def _intro(state: RequestState, selection: Selection) -> str:
    searched = state.summary_ru(numbers=False)
    looked = f" (искал: {searched})" if searched else ""
    if selection.nothing_further:
        way = selection.nothing_further
        return f"{way.capitalize()} подходящих вин в каталоге нет{looked}. {_FURTHEST[way]}:"
    if selection.repeated:
        return (
            f"Других вин под этот запрос в каталоге нет{looked} — подходят те, что я уже показывал:"
        )
    if selection.relaxed:
        names = ", ".join(dict.fromkeys(FILTER_NAMES_RU[n] for n in selection.relaxed))
        lead = (
            "Все подходящие вина я уже показал" if selection.all_shown else "Точных совпадений нет"
        )
        return (
            f"{lead}"
            + (f" (искал: {searched})" if searched else "")
            + f", поэтому я ослабил условие ({names}). Вот ближайшие варианты из каталога:"
        )
    if selection.source == "balanced":
        return "Сейчас я подбираю вина без помощи ИИ. Вот три надежных варианта на разные случаи:"
    if selection.source == "text":
        return "Вот вина из каталога, в описании которых есть то, что вы ищете:"
    if selection.source == "profile":
        return "Вот вина в стиле, который вам нравился:"
    if state.refined and (state.last_shown or state.extreme):  # a first «недорогое» refines nothing
        return f"Учел уточнение ({', '.join(state.refined)}). Вот что нашлось в каталоге:"
    return "Вот что я нашел в каталоге по вашему запросу:"
