"""Deterministic picks from the catalog: the last strategy for a request (no model is reachable,
or none answered), and the picks a group's table gets."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.domain import WineType
from core.recommendation import RecommendedWine
from repositories.wines import WineRepository
from services.agent._catalog_why import catalog_why
from services.agent._closing import closing_line
from services.agent._conversation import read_conversation
from services.agent._events import Observation, StepStarted, ToolInvoked
from services.agent._request_state import RequestState
from services.agent._run import Run
from services.agent._selection import Selection, select_wines
from services.agent._shop_picks import mark_shop_picks, shop_picks
from services.agent._strategies import Draft, Service, Step

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
    "named": "название",
}


class OfflinePicks:
    """The last strategy for a request: picks from the catalog without a model, shown as one
    search step."""

    needs_model = False

    def __init__(self, service: Service) -> None:
        self.service = service

    async def attempt(self, run: Run) -> AsyncIterator[Step]:
        run.start_over()
        run.steps += 1
        yield StepStarted(step=run.steps, request_id=run.request_id, max_steps=run.turn.max_steps)
        filters = run.turn.request_filters.model_dump(mode="json", exclude_none=True)
        yield ToolInvoked(tool="search_wines", input=filters)
        started = time.perf_counter()
        draft = await offline_recommendation(
            self.service.sessions,
            run.state,
            run.turn.user.taste_profile,
            self.service.day().suggested_wine_types(),
        )
        took = (time.perf_counter() - started) * 1000
        run.tools_ms += took
        yield Observation(
            tool="search_wines",
            ok=True,
            took_ms=round(took, 1),
            summary=f"найдено {len(draft.wines)}",
        )
        yield draft


async def offline_recommendation(
    sessions: async_sessionmaker[AsyncSession],
    state: RequestState,
    profile: dict[str, Any] | None = None,
    day_types: Sequence[WineType] = (),
) -> Draft:
    """Picks for the request in force, with a templated text."""
    async with sessions() as session:
        selection = await select_wines(WineRepository(session), state, profile, day_types)
    closing = closing_line(state)
    if not selection.wines:
        searched = state.summary_ru(numbers=False)
        return Draft(
            "offline",
            "К сожалению, в каталоге нет вин, которые подходят под этот запрос"
            + (f" (искал: {searched})." if searched else "."),
            [],
            "Попробуйте изменить бюджет или тип вина.",
        )
    intro = _intro(state, selection)
    recommended = [
        RecommendedWine.from_wine(w, catalog_why(w, state.filters, state)) for w in selection.wines
    ]
    return Draft("offline", intro, recommended, closing)


async def catalog_picks(
    sessions: async_sessionmaker[AsyncSession],
    text: str,
    history: Sequence[dict[str, Any]] = (),
    profile: dict[str, Any] | None = None,
) -> list[RecommendedWine]:
    """Wines for a message in a conversation (`history`), without a model or a text: a group
    table's picks."""
    state = (await read_conversation(sessions, history, text)).state
    async with sessions() as session:
        selection = await select_wines(WineRepository(session), state, profile)
        picks = await shop_picks(session)
    wines = [
        RecommendedWine.from_wine(w, catalog_why(w, state.filters, state)) for w in selection.wines
    ]
    mark_shop_picks(wines, picks)
    return wines


_FURTHEST = {
    "дешевле": "Самые доступные из подходящих",
    "дороже": "Самые дорогие из подходящих",
    "легче": "Самые легкие из подходящих",
    "плотнее": "Самые плотные из подходящих",
    "суше": "Самые сухие из подходящих",
    "слаще": "Самые сладкие из подходящих",
}


def _intro(state: RequestState, selection: Selection) -> str:
    intro = _picks_intro(state, selection)
    # The name is the person's own words: not repeated back, whatever they say.
    return f"Такого вина в каталоге нет. {intro}" if state.missing_name else intro


def _picks_intro(state: RequestState, selection: Selection) -> str:
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
        if state.missing_name:  # nothing else was asked: what the shop has instead
            return "Вот что могу предложить из каталога:"
        return "Сейчас я подбираю вина без помощи ИИ. Вот три надежных варианта на разные случаи:"
    if selection.source == "text":
        return "Вот вина из каталога, в описании которых есть то, что вы ищете:"
    if selection.source == "profile":
        return "Вот вина в стиле, который вам нравился:"
    if state.refined and (state.last_shown or state.extreme):  # a first «недорогое» refines nothing
        return f"Учел уточнение ({', '.join(state.refined)}). Вот что нашлось в каталоге:"
    if state.missing_name:  # the request in force goes on: what fits it
        return f"Вот что подходит под ваш запрос{looked}:"
    return "Вот что я нашел в каталоге по вашему запросу:"
