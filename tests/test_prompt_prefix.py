"""The prompt's layout for the provider's prompt cache (issue 41): the tool schemas and the
instructions are the same bytes for every person, turn and call; what differs per person and
turn comes after their message; each call of a turn repeats the call before it from its start."""

from __future__ import annotations

import json
import re
from typing import Any

from fakes.openai_server import (
    FakeOpenAIServer,
    JSONDict,
    Step,
    call,
    may_call_tools,
    reply,
    tool_calls,
)
from services.agent._run import UserContext
from services.agent._wine_handles import handle
from services.app.runtime import Runtime
from tests.agent_fixtures import (
    agent_settings,
    sommelier_service,
    system_text,
    wines_in_tool_results,
)


def _searches_then_answers(body: JSONDict) -> Step:
    if not wines_in_tool_results(body) and body.get("tool_choice") != "none":
        return tool_calls(call("search_wines", {"wine_type": "white", "limit": 4}))
    ids = [w["id"] for w in wines_in_tool_results(body)[:3]]
    return reply("[INTRO]\nВот.\n" + "".join(f"[WINE:{i}]\nСвежее.\n" for i in ids))


def _without_ids(messages: list[Any]) -> list[Any]:
    return [{k: v for k, v in m.items() if k != "tool_call_id"} for m in messages]


async def test_every_call_repeats_the_stable_prefix_and_the_turn_context_comes_late(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    server.model_responders["gpt-4o-mini"] = _searches_then_answers
    people = [
        UserContext(user_id=1),
        UserContext(user_id=2, language="en"),
    ]
    async with sommelier_service(seeded, agent_settings(server.base_url)) as service:
        for person in people:
            await service.generate_response(person, "белое к рыбе", [])
    assert server.errors == []
    requests = server.requests
    assert len(requests) == 4
    first, *rest = requests
    for body in rest:  # the same schemas and instructions, whoever asks, on every call
        assert body["tools"] == first["tools"]
        assert body["messages"][0] == first["messages"][0]
    assert "Сегодня" not in first["messages"][0]["content"]
    for body in requests:  # the person's message, then the turn's context
        roles = [m["role"] for m in body["messages"][:3]]
        assert roles == ["system", "user", "system"]
        assert body["messages"][2]["content"].startswith("## Контекст")
    for a, b in ((requests[0], requests[1]), (requests[2], requests[3])):
        # the answering call may not search again, yet starts with all of the searching one
        assert "tool_choice" not in a and b["tool_choice"] == "none"
        assert _without_ids(b["messages"][: len(a["messages"])]) == _without_ids(a["messages"])
    assert requests[2]["messages"][2] != requests[0]["messages"][2]  # the context is theirs


_WHOLE_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


async def test_the_model_reads_and_writes_short_wine_handles_and_the_cards_are_those_wines(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    server.model_responders["gpt-4o-mini"] = _searches_then_answers
    person = UserContext(user_id=3)
    async with sommelier_service(seeded, agent_settings(server.base_url)) as service:
        first = await service.generate_response(person, "белое к рыбе", [])
        second = await service.generate_response(person, "а еще?", first.new_messages)
    assert server.errors == [] and first.wines and second.wines
    shown = wines_in_tool_results(server.requests[1])
    assert [handle(w.id) for w in first.wines] == [w["id"] for w in shown[:3]]
    for body in server.requests:  # tool results and past answers: handles, never whole ids
        assert not _WHOLE_ID.search(json.dumps(body["messages"])), body["messages"]
    past_answer = server.requests[2]["messages"][2]
    assert past_answer["role"] == "assistant"
    assert f"[WINE:{handle(first.wines[0].id)}]" in past_answer["content"]
    # What is stored keeps the whole ids.
    assert f"[WINE:{first.wines[0].id}]" in first.new_messages[-1]["content"]


def _answers_with_an_invented_wine(body: JSONDict) -> Step:
    if may_call_tools(body):
        return tool_calls(call("search_wines", {"wine_type": "white", "limit": 4}))
    catalog = [line.split(" | ")[0] for line in system_text(body).splitlines() if " | " in line]
    if catalog:  # the catalog slice
        return reply("[INTRO]\nВот.\n" + "".join(f"[WINE:{i}]\nСвежее.\n" for i in catalog[:3]))
    return reply("[INTRO]\nВот.\n[WINE:Château Imaginaire 1982]\nВыдумка.")


async def test_the_catalog_slice_repeats_the_agents_prompt_from_its_start(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    server.model_responders["gpt-4o-mini"] = _answers_with_an_invented_wine
    async with sommelier_service(seeded, agent_settings(server.base_url)) as service:
        rec = await service.generate_response(UserContext(user_id=4), "белое к рыбе", [])
    assert server.errors == []
    assert rec.path == "catalog_prompt" and rec.wines
    searching, _, sliced = server.requests
    # The same schemas (no call allowed), instructions, message and turn context; the slice
    # after them.
    assert sliced["tools"] == searching["tools"] and sliced["tool_choice"] == "none"
    assert sliced["messages"][:2] == searching["messages"][:2]
    context = searching["messages"][2]["content"]
    assert sliced["messages"][2]["content"].startswith(context + "\n\n## Фрагмент каталога")
