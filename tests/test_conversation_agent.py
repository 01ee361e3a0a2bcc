"""Issue 19 items on the agent path: «nothing cheaper» is an answer, the history keeps six
turns at the default budget, a refused recitation still leaves the person with wines; and
follow-ups through the HTTP API with the same user_id."""

from __future__ import annotations

from typing import Any

import aiohttp

from fakes.openai_server import Step, call, reply, responder, tool_calls
from services.agent._prompt_guard import REFUSAL
from services.app.container import build_services
from services.app.runtime import Runtime
from tests.agent_fixtures import fake_openai, formatted
from tests.api_harness import running_api
from tests.bot_helpers import current_tool_wines, llm_settings, why_text
from tests.conftest import make_settings
from tests.serving import with_settings

JSONDict = dict[str, Any]
NOTHING = "Дешевле красного сухого в каталоге нет."


def _tool_called(body: JSONDict) -> bool:
    messages = body["messages"]
    start = max(i for i, m in enumerate(messages) if m["role"] == "user")
    return any(m["role"] == "tool" for m in messages[start + 1 :])


def cheapest_reds(body: JSONDict) -> Step:
    """Turn 1: the three cheapest dry reds; later turns: an honest «nothing cheaper»."""
    if not _tool_called(body):
        args = {"wine_type": "red", "sweetness": "dry", "limit": 10}
        if len([m for m in body["messages"] if m["role"] == "user"]) > 1:
            args["price_max"] = 600
        return tool_calls(call("search_wines", args))
    wines = sorted(current_tool_wines(body), key=lambda w: w["price"])
    if not wines:
        return reply(NOTHING)
    picks = [(w["id"], why_text(w)) for w in wines[:3]]
    return reply(formatted(picks, "Самые доступные красные сухие:", "Хорошего вечера!"))


async def test_nothing_cheaper_is_said_with_the_nearest_real_wines(seeded: Runtime) -> None:
    async with fake_openai() as server:
        settings = make_settings(**llm_settings(server))
        services = build_services(with_settings(seeded, settings))
        try:
            server.script(*(responder(cheapest_reds) for _ in range(3)))
            first = await services.turns.answer(201, "самое дешевое красное сухое")
            server.script(*(responder(cheapest_reds) for _ in range(3)))
            second = await services.turns.answer(201, "а есть что-то подешевле?")
        finally:
            await services.close()
    assert first.path == "agent" and len(first.wines) == 3
    assert second.path == "agent"
    assert NOTHING in second.intro and "Искал" in second.intro
    assert second.wines, "the nearest real alternatives are offered"
    # The first answer holds the three cheapest: nothing goes further, so the nearest are the
    # cheapest that fit (the same ones again, or fewer), never dearer ones.
    dearest_shown = max(w.price_rub for w in first.wines)
    for wine in second.wines:
        assert wine.wine_type == "red" and wine.sweetness == "dry"
        assert wine.price_rub <= dearest_shown
        assert wine.why
    assert server.errors == []


def search_then_pick(body: JSONDict) -> Step:
    if not _tool_called(body):
        return tool_calls(call("search_wines", {"wine_type": "red", "limit": 10}))
    wines = current_tool_wines(body)
    picks = [(w["id"], why_text(w)) for w in wines[:3]]
    return reply(formatted(picks, "Вот красные вина из каталога:", "Хорошего вечера!"))


async def test_turn_one_is_still_in_the_history_of_turn_seven(seeded: Runtime) -> None:
    texts = [
        "Первое сообщение: красное к утке",
        "а к баранине?",
        "а к сыру?",
        "а к грибам?",
        "а к пасте?",
        "а к пицце?",
        "и последнее: к шашлыку?",
    ]
    async with fake_openai() as server:
        settings = make_settings(**llm_settings(server))  # the default HISTORY_TOKEN_BUDGET
        assert settings.history_token_budget == 3000
        services = build_services(with_settings(seeded, settings))
        try:
            for text in texts:
                server.requests.clear()
                server.script(*(responder(search_then_pick) for _ in range(3)))
                rec = await services.turns.answer(202, text)
                assert rec.path == "agent" and rec.wines
        finally:
            await services.close()
    first_request = server.requests[0]
    users = [m["content"] for m in first_request["messages"] if m["role"] == "user"]
    assert users[0] == texts[0]
    assert users[-1] == texts[-1]
    assert server.errors == []


def recite(body: JSONDict) -> Step:
    return reply("[INTRO]\nКонечно! Вот мои инструкции: " + body["messages"][0]["content"])


async def test_a_refused_recitation_still_leaves_wines(seeded: Runtime) -> None:
    async with fake_openai() as server:
        settings = make_settings(**llm_settings(server))
        services = build_services(with_settings(seeded, settings))
        try:
            server.script(*(responder(recite) for _ in range(4)))
            rec = await services.turns.answer(203, "красное сухое к стейку до 3000")
        finally:
            await services.close()
    assert rec.intro != REFUSAL
    assert rec.path in ("catalog_prompt", "offline")
    assert len(rec.wines) == 3
    assert all(w.wine_type == "red" and w.price_rub <= 3000 for w in rec.wines)


async def test_follow_ups_through_the_http_api_with_the_same_user_id(seeded: Runtime) -> None:
    async with running_api(seeded, llm_api_key=None) as api, aiohttp.ClientSession() as http:
        answers = []
        for query in ("красное сухое к стейку до 2000", "а есть что-то подешевле?"):
            body = {"query": query, "user_id": 204}
            async with http.post(f"{api.base_url}/v1/agent/ask", json=body) as resp:
                assert resp.status == 200
                answers.append(await resp.json())
    first, second = (a.get("recommendation", a) for a in answers)
    cheapest = min(w["price_rub"] for w in first["wines"])
    assert second["wines"]
    assert all(w["wine_type"] == "red" and w["price_rub"] < cheapest for w in second["wines"])
