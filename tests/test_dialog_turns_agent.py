"""The agent path keeps to the request in force (issue 40): a model that searches by the new
words only still finds wines of the colour, sweetness and budget the conversation set, and the
dish as the person named it."""

from __future__ import annotations

from typing import Any

from core.domain import WineFilters
from fakes.openai_server import Step, call, reply, responder, tool_calls
from repositories.wines import WineRepository
from services.app.container import build_services
from services.app.runtime import Runtime
from tests.agent_fixtures import fake_openai, formatted, wines_by_id
from tests.bot_helpers import current_tool_wines, llm_settings, why_text
from tests.conftest import make_settings
from tests.serving import with_settings

JSONDict = dict[str, Any]


def _searched(body: JSONDict) -> bool:
    messages = body["messages"]
    start = max(i for i, m in enumerate(messages) if m["role"] == "user")
    return any(m["role"] == "tool" for m in messages[start + 1 :])


def by_the_dish_only(dish: str) -> Any:
    """A model that searches by the dish of the last message alone and takes the first three."""

    def respond(body: JSONDict) -> Step:
        if not _searched(body):
            return tool_calls(call("search_wines", {"food_pairing": dish, "limit": 5}))
        picks = [(w["id"], why_text(w)) for w in current_tool_wines(body)[:3]]
        return reply(formatted(picks, "Вот что нашлось:", "Хорошего вечера!"))

    return respond


async def _turn(services: Any, server: Any, user: int, text: str, dish: str) -> Any:
    server.script(*(responder(by_the_dish_only(dish)) for _ in range(3)))
    return await services.turns.answer(user, text)


async def test_a_search_by_the_new_dish_keeps_the_colour_and_budget_in_force(
    seeded: Runtime,
) -> None:
    async with fake_openai() as server:
        services = build_services(with_settings(seeded, make_settings(**llm_settings(server))))
        try:
            await _turn(services, server, 501, "белое сухое к рыбе, до 2000 рублей", "рыба")
            rec = await _turn(services, server, 501, "а если к курице?", "курица")
        finally:
            await services.close()
    assert rec.path == "agent" and len(rec.wines) >= 2
    for wine in (await wines_by_id(seeded, [w.id for w in rec.wines])).values():
        assert wine.wine_type.value == "white" and wine.sweetness.value == "dry"
        assert wine.price_rub <= 2000
        assert any("куриц" in p for p in wine.food_pairings)
    assert server.errors == []


async def test_the_dish_as_the_person_named_it_reaches_the_search(seeded: Runtime) -> None:
    async with fake_openai() as server:
        services = build_services(with_settings(seeded, make_settings(**llm_settings(server))))
        try:
            rec = await _turn(services, server, 502, "что налить к спагетти болоньезе?", "паста")
        finally:
            await services.close()
    assert rec.path == "agent" and rec.wines
    for wine in (await wines_by_id(seeded, [w.id for w in rec.wines])).values():
        assert any("паста болоньезе" in p or "мясн" in p for p in wine.food_pairings)


def first_three_of(args: JSONDict) -> Any:
    """A model that searches with `args` and recommends the first three wines it gets."""

    def respond(body: JSONDict) -> Step:
        if not _searched(body):
            return tool_calls(call("search_wines", args))
        picks = [(w["id"], why_text(w)) for w in current_tool_wines(body)[:3]]
        return reply(formatted(picks, "Вот что нашлось:", "Хорошего вечера!"))

    return respond


async def _ask_once(seeded: Runtime, user: int, text: str, args: JSONDict) -> Any:
    async with fake_openai() as server:
        services = build_services(with_settings(seeded, make_settings(**llm_settings(server))))
        try:
            server.script(*(responder(first_three_of(args)) for _ in range(3)))
            return await services.turns.answer(user, text)
        finally:
            await services.close()


async def test_the_cheapest_asked_for_comes_first_from_the_search(seeded: Runtime) -> None:
    rec = await _ask_once(seeded, 503, "а какое розовое у вас самое недорогое?", {"limit": 3})
    async with seeded.sessions() as session:
        roses = sorted(
            w.price_rub
            for w in await WineRepository(session).search(WineFilters(wine_type="rose"), 100)
        )
    assert rec.path == "agent" and rec.wines
    assert all(w.wine_type == "rose" for w in rec.wines)
    assert min(w.price_rub for w in rec.wines) == roses[0]


async def test_a_grape_alone_brings_its_still_wines_before_sparkling(seeded: Runtime) -> None:
    rec = await _ask_once(seeded, 504, "подберите мне пино нуар", {"grape_variety": "пино нуар"})
    assert rec.path == "agent" and rec.wines
    assert all(w.wine_type == "red" for w in rec.wines)
