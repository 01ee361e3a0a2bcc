"""The HTTP API: SSE event stream, ask, tools, status, health, auth and limits."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from fakes.openai_server import call, reply, responder, tool_calls
from services.agent._events import AgentEvent
from services.app.runtime import Runtime
from tests.agent_fixtures import API_KEY, fake_openai, formatted, wines_in_tool_results
from tests.api_harness import running_api


async def read_events(response: aiohttp.ClientResponse) -> list[tuple[str, dict[str, Any]]]:
    events: list[tuple[str, dict[str, Any]]] = []
    name = ""
    async for raw in response.content:
        line = raw.decode().rstrip("\n")
        if line.startswith("event: "):
            name = line[len("event: ") :]
        elif line.startswith("data: "):
            events.append((name, json.loads(line[len("data: ") :])))
    return events


def llm(server_url: str) -> dict[str, Any]:
    return {
        "llm_api_key": API_KEY,
        "llm_base_url": server_url,
        "llm_max_retries": 0,
        "llm_timeout_seconds": 5,
    }


async def test_stream_of_a_two_iteration_run(seeded: Runtime) -> None:
    async with fake_openai() as server:

        def answer(body: dict[str, Any]) -> Any:
            wines = wines_in_tool_results(body)[:3]
            return reply(formatted([(w["id"], f"Для {w['name']}.") for w in wines]))

        server.script(
            tool_calls(call("search_wines", {"wine_type": "white", "price_max": 3000})),
            responder(answer),
        )
        async with (
            running_api(seeded, **llm(server.base_url)) as api,
            aiohttp.ClientSession() as http,
            http.post(
                f"{api.base_url}/v1/agent/stream", json={"query": "белое к рыбе до 3000"}
            ) as resp,
        ):
            assert resp.status == 200
            assert resp.headers["Content-Type"].startswith("text/event-stream")
            events = await read_events(resp)
    names = [n for n, _ in events]
    first_delta = names.index("answer_delta")
    assert names[:first_delta] == ["step_started", "tool_invoked", "observation", "step_started"]
    assert set(names[first_delta:-1]) == {"answer_delta"}
    assert names[-1] == "final"
    assert events[0][1]["step"] == 1 and events[0][1]["max_steps"] == 2
    assert events[1][1] == {
        "tool": "search_wines",
        "input": {"wine_type": "white", "price_max": 3000},
    }
    assert events[2][1]["ok"] is True and events[2][1]["took_ms"] >= 0
    assert events[3][1]["step"] == 2
    streamed = "".join(d["text"] for n, d in events if n == "answer_delta")
    final = events[-1][1]
    assert final["path"] == "agent" and final["total_steps"] == 2
    assert final["request_id"] == events[0][1]["request_id"]
    wines = final["recommendation"]["wines"]
    assert len(wines) == 3
    assert all(w["wine_type"] == "white" and w["price_rub"] <= 3000 for w in wines)
    assert final["recommendation"]["intro"] in streamed
    assert server.errors == []


async def test_stream_without_llm_gives_offline_steps_and_three_wines(seeded: Runtime) -> None:
    async with (
        running_api(seeded) as api,
        aiohttp.ClientSession() as http,
        http.post(
            f"{api.base_url}/v1/agent/stream", data=json.dumps({"query": "белое к рыбе"})
        ) as resp,
    ):
        events = await read_events(resp)
    assert [n for n, _ in events] == ["step_started", "tool_invoked", "observation", "final"]
    final = events[-1][1]
    assert final["path"] == "offline"
    assert len(final["recommendation"]["wines"]) == 3
    assert all(w["wine_type"] == "white" for w in final["recommendation"]["wines"])


async def test_client_disconnect_cancels_the_run(
    seeded: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = asyncio.Event()  # the model call reached the model
    abandoned = asyncio.Event()  # the API closed the model call it was waiting for

    async def never_answers(body: dict[str, Any]) -> Any:
        asked.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            abandoned.set()
            raise

    async with fake_openai() as server:
        server.script(responder(never_answers), reply("never requested"))
        # The model call would time out only long after the deadline below: only the client's
        # leaving can end it in time.
        settings = {**llm(server.base_url), "llm_timeout_seconds": 120}
        async with running_api(seeded, **settings) as api:
            run_ended = asyncio.Event()  # the run behind the stream is over, however it ended
            stream = api.services.turns.stream

            async def watched(*args: Any, **kwargs: Any) -> AsyncIterator[AgentEvent]:
                try:
                    async for event in stream(*args, **kwargs):
                        yield event
                finally:
                    run_ended.set()

            monkeypatch.setattr(api.services.turns, "stream", watched)
            async with aiohttp.ClientSession() as http:
                resp = await http.post(
                    f"{api.base_url}/v1/agent/stream", json={"query": "красное к мясу"}
                )
                first = await resp.content.readline()
                assert first.startswith(b"event: step_started")
                async with asyncio.timeout(10):
                    await asked.wait()
                resp.close()  # the client goes away while the model call hangs
            # A run that went on after the client left would wait for the model forever (or
            # make another call): either way it would not end here.
            try:
                async with asyncio.timeout(10):
                    await run_ended.wait()
                    await abandoned.wait()
            except TimeoutError:
                pytest.fail("the run went on after the client left (its model call too)")
            # The run is over: whatever it was going to ask the model, it has asked.
            assert server.pending_steps == 1  # «never requested» stayed in the script
            assert len(server.requests) == 1
            assert api.services.health.answers_by_path() == {}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"query": ""}, "query"),
        ({"query": "   "}, "query"),
        ({"query": "x" * 1001}, "query"),
        ({}, "query"),
        ({"query": "вино", "max_steps": 3}, "max_steps"),
        ({"query": "вино", "max_steps": 0}, "max_steps"),
        ({"query": "вино", "user_id": "abc"}, "user_id"),
        ({"query": "вино", "tools_allowlist": ["drop_table"]}, "tools_allowlist"),
        ({"query": "вино", "colour": "red"}, "colour"),
        ("not json", "body"),
        ([1, 2], "body"),
    ],
)
async def test_bad_requests_get_422_naming_the_field(
    seeded: Runtime, body: Any, field: str
) -> None:
    async with running_api(seeded) as api, aiohttp.ClientSession() as http:
        for route in ("stream", "ask"):
            data = body if isinstance(body, str) else json.dumps(body)
            async with http.post(f"{api.base_url}/v1/agent/{route}", data=data) as resp:
                assert resp.status == 422
                payload = await resp.json()
                assert payload["field"] == field


async def test_token_is_required_when_configured(
    seeded: Runtime, caplog: pytest.LogCaptureFixture
) -> None:
    token = "api-token-123456"
    async with running_api(seeded, api_token=token) as api, aiohttp.ClientSession() as http:
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": token}):
            for method, route in (("GET", "tools"), ("GET", "status"), ("POST", "ask")):
                async with http.request(
                    method,
                    f"{api.base_url}/v1/agent/{route}",
                    json={"query": "вино"},
                    headers=headers,
                ) as resp:
                    assert resp.status == 401
                    assert token not in await resp.text()
        ok = {"Authorization": f"Bearer {token}"}
        async with http.post(
            f"{api.base_url}/v1/agent/ask", json={"query": "игристое"}, headers=ok
        ) as resp:
            assert resp.status == 200
            assert (await resp.json())["path"] == "offline"
        async with http.get(f"{api.base_url}/healthz") as resp:
            assert resp.status == 200  # liveness needs no token
    assert token not in caplog.text


async def test_rate_limit_per_client(seeded: Runtime) -> None:
    async with running_api(seeded, rate_limit_per_minute=2) as api, aiohttp.ClientSession() as http:
        statuses = []
        for _ in range(3):
            async with http.post(f"{api.base_url}/v1/agent/ask", json={"query": "розовое"}) as r:
                statuses.append(r.status)
    assert statuses == [200, 200, 429]


async def test_tools_route_equals_what_the_llm_receives(seeded: Runtime) -> None:
    async with fake_openai() as server:
        server.script(reply("Привет! Чем помочь?"))
        async with (
            running_api(seeded, **llm(server.base_url)) as api,
            aiohttp.ClientSession() as http,
        ):
            async with http.get(f"{api.base_url}/v1/agent/tools") as resp:
                listed = await resp.json()
            async with http.post(f"{api.base_url}/v1/agent/ask", json={"query": "привет"}) as r:
                assert (await r.json())["recommendation"]["wines"] == []
    assert listed["tools"] == server.requests[0]["tools"]
    assert {t["function"]["name"] for t in listed["tools"]} == {"search_wines", "semantic_search"}


async def test_status_and_health(seeded: Runtime) -> None:
    secret = "sk-very-secret-key"
    async with (
        running_api(
            seeded,
            llm_api_key=secret,
            llm_base_url="http://127.0.0.1:9/v1",
            llm_max_retries=0,
            llm_timeout_seconds=1,
        ) as api,
        aiohttp.ClientSession() as http,
    ):
        async with http.post(f"{api.base_url}/v1/agent/ask", json={"query": "белое"}) as r:
            assert (await r.json())["path"] == "offline"  # the LLM address refuses connections
        async with http.get(f"{api.base_url}/v1/agent/status") as resp:
            text = await resp.text()
            status = json.loads(text)
        async with http.get(f"{api.base_url}/healthz") as resp:
            health = await resp.json()
            assert resp.status == 200
    assert secret not in text
    assert status["catalog_size"] > 60 and status["wines_with_embeddings"] == 0
    assert status["answers_by_path"] == {"offline": 1}
    assert status["llm_model"] and status["embedding_model"]
    assert health == {"database": "ok", "llm_configured": True}
