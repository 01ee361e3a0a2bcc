"""The prompt's layout for the provider's prompt cache (issue 41): the tool schemas and the
instructions are the same bytes for every person, turn and call; what differs per person and
turn comes after their message; each call of a turn repeats the call before it from its start."""

from __future__ import annotations

from typing import Any

from fakes.openai_server import FakeOpenAIServer, JSONDict, Step, call, reply, tool_calls
from services.agent._run import UserContext
from services.app.runtime import Runtime
from tests.agent_fixtures import agent_settings, sommelier_service, wines_in_tool_results


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
