"""Self-tests of the strict fake OpenAI server, driven through the real ``openai`` SDK."""

from __future__ import annotations

import json
import math
import re
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import openai
import pytest
import pytest_asyncio
from openai import AsyncOpenAI

from fakes.openai_server import (
    FakeOpenAIServer,
    call,
    deterministic_embedding,
    drop,
    error,
    hang,
    raw_tool_calls,
    reply,
    responder,
    stream_cut,
    tool_calls,
)

API_KEY = "test-key"
MODEL = "gpt-4o-mini"

SEARCH_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "search_wines",
        "description": "Search the wine catalog.",
        "parameters": {
            "type": "object",
            "properties": {"query": {"type": "string"}},
            "required": ["query"],
        },
    },
}


@pytest_asyncio.fixture
async def client(server: FakeOpenAIServer) -> AsyncIterator[AsyncOpenAI]:
    cli = AsyncOpenAI(base_url=server.base_url, api_key=API_KEY, max_retries=0, timeout=10)
    yield cli
    await cli.close()


async def test_plain_reply(server: FakeOpenAIServer, client: AsyncOpenAI) -> None:
    server.script(reply("A crisp Albariño would be perfect."))
    resp = await client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "Wine for oysters?"}]
    )
    assert resp.choices[0].message.content == "A crisp Albariño would be perfect."
    assert resp.choices[0].finish_reason == "stop"
    assert resp.usage is not None
    assert resp.usage.prompt_tokens == len("Wine for oysters?") // 4
    assert resp.usage.total_tokens == resp.usage.prompt_tokens + resp.usage.completion_tokens
    assert server.requests[0]["messages"][0]["content"] == "Wine for oysters?"
    assert server.errors == []


async def test_default_reply_is_ok_when_queue_empty(
    server: FakeOpenAIServer, client: AsyncOpenAI
) -> None:
    resp = await client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "hi"}]
    )
    assert resp.choices[0].message.content == "ok"


async def test_tool_call_round_trip(server: FakeOpenAIServer, client: AsyncOpenAI) -> None:
    server.script(
        tool_calls(call("search_wines", {"query": "malbec"}), call("search_wines", "{}", id="x")),
        reply("Try the Catena Malbec."),
    )
    messages: list[Any] = [{"role": "user", "content": "Something bold"}]
    first = await client.chat.completions.create(
        model=MODEL, messages=messages, tools=[SEARCH_TOOL], parallel_tool_calls=True
    )
    choice = first.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content is None
    calls = choice.message.tool_calls
    assert calls is not None
    assert [c.id for c in calls] == ["call_1", "x"]
    assert json.loads(calls[0].function.arguments) == {"query": "malbec"}
    assert calls[1].function.arguments == "{}"

    # Append the SDK message object itself (as agents commonly do) plus the answers.
    messages.append(choice.message)
    for c in reversed(calls):  # any order is fine
        messages.append({"role": "tool", "tool_call_id": c.id, "content": "[]"})
    second = await client.chat.completions.create(
        model=MODEL, messages=messages, tools=[SEARCH_TOOL]
    )
    assert second.choices[0].message.content == "Try the Catena Malbec."
    assert len(server.requests) == 2
    assert server.errors == []


async def test_missing_tool_response_is_rejected(
    server: FakeOpenAIServer, client: AsyncOpenAI
) -> None:
    server.script(reply("never sent"))
    messages: list[Any] = [
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_a", "type": "function", "function": {"name": "f", "arguments": "{}"}},
                {"id": "call_b", "type": "function", "function": {"name": "f", "arguments": "{}"}},
            ],
        },
        {"role": "tool", "tool_call_id": "call_a", "content": "done"},
        {"role": "user", "content": "and?"},
    ]
    with pytest.raises(openai.BadRequestError) as exc_info:
        await client.chat.completions.create(model=MODEL, messages=messages)
    assert exc_info.value.status_code == 400
    assert "must be followed by tool messages responding to each 'tool_call_id'" in str(
        exc_info.value
    )
    assert server.errors == [
        "An assistant message with 'tool_calls' must be followed by tool messages responding "
        "to each 'tool_call_id'. The following tool_call_ids did not have response messages: "
        "call_b"
    ]
    assert len(server.requests) == 1  # rejected requests are recorded too
    assert server.pending_steps == 1  # and do not consume the script


async def test_orphan_tool_message_is_rejected(
    server: FakeOpenAIServer, client: AsyncOpenAI
) -> None:
    with pytest.raises(openai.BadRequestError, match="must be a response to a preceeding"):
        await client.chat.completions.create(
            model=MODEL,
            messages=[
                {"role": "user", "content": "hi"},
                {"role": "tool", "tool_call_id": "call_zzz", "content": "x"},
            ],
        )


async def test_parallel_tool_calls_without_tools(
    server: FakeOpenAIServer, client: AsyncOpenAI
) -> None:
    with pytest.raises(openai.BadRequestError) as exc_info:
        await client.chat.completions.create(
            model=MODEL,
            messages=[{"role": "user", "content": "hi"}],
            parallel_tool_calls=False,
        )
    assert exc_info.value.status_code == 400
    assert server.errors == [
        "Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed "
        "when 'tools' are specified."
    ]


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"tool_choice": "auto"}, "'tool_choice' is only allowed when 'tools'"),
        ({"extra_body": {"foo": 1}}, "Unrecognized request argument supplied: foo"),
        ({"temperature": 3}, "decimal above maximum value"),
        (
            {"tools": [{"type": "function", "function": {"name": "bad name", "parameters": {}}}]},
            "string does not match pattern",
        ),
        ({"tools": [SEARCH_TOOL, SEARCH_TOOL]}, "duplicate function name 'search_wines'"),
        (
            {
                "messages": [
                    {"role": "user", "content": "x"},
                    {
                        "role": "assistant",
                        "tool_calls": [
                            {
                                "id": "c1",
                                "type": "function",
                                "function": {"name": "f", "arguments": {"a": 1}},
                            }
                        ],
                    },
                    {"role": "tool", "tool_call_id": "c1", "content": "r"},
                ]
            },
            "Invalid type for 'messages[1].tool_calls[0].function.arguments'",
        ),
        ({"messages": []}, "empty array"),
        ({"messages": [{"role": "robot", "content": "x"}]}, "Invalid value: 'robot'"),
        ({"messages": [{"role": "assistant"}]}, "expected a string, got null"),
    ],
)
async def test_strict_validation(
    server: FakeOpenAIServer, client: AsyncOpenAI, kwargs: dict[str, Any], expected: str
) -> None:
    params: dict[str, Any] = {"model": MODEL, "messages": [{"role": "user", "content": "hi"}]}
    params.update(kwargs)
    with pytest.raises(openai.BadRequestError, match=re.escape(expected)):
        await client.chat.completions.create(**params)
    assert len(server.errors) == 1


async def test_invalid_json_body(server: FakeOpenAIServer) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            f"{server.base_url}/chat/completions",
            data=b"{not json",
            headers={"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"},
        ) as resp,
    ):
        assert resp.status == 400
        body = await resp.json()
    assert "could not parse the JSON body" in body["error"]["message"]
    assert len(server.errors) == 1


async def test_streaming_text(server: FakeOpenAIServer, client: AsyncOpenAI) -> None:
    content = "A Barolo from 2016 pairs wonderfully with truffle risotto and aged cheeses."
    server.script(reply(content))
    stream = await client.chat.completions.create(
        model=MODEL,
        messages=[{"role": "user", "content": "pairing?"}],
        stream=True,
        stream_options={"include_usage": True},
    )
    parts: list[str] = []
    finish: list[str] = []
    usage = None
    async for chunk in stream:
        if chunk.usage is not None:
            usage = chunk.usage
        for ch in chunk.choices:
            if ch.delta.content:
                parts.append(ch.delta.content)
            if ch.finish_reason:
                finish.append(ch.finish_reason)
    assert "".join(parts) == content
    assert len(parts) > 1
    assert finish == ["stop"]
    assert usage is not None and usage.completion_tokens == len(content) // 4
    assert server.errors == []


async def test_streaming_tool_calls(server: FakeOpenAIServer, client: AsyncOpenAI) -> None:
    args = {"query": "a very long query about sparkling wines from Champagne"}
    server.script(tool_calls(call("search_wines", args), call("search_wines", {"query": "cava"})))
    stream = await client.chat.completions.create(
        model=MODEL,
        messages=[{"role": "user", "content": "bubbles"}],
        tools=[SEARCH_TOOL],
        stream=True,
    )
    assembled: dict[int, dict[str, str]] = {}
    finish = None
    async for chunk in stream:
        for ch in chunk.choices:
            for tc in ch.delta.tool_calls or []:
                slot = assembled.setdefault(tc.index, {"id": "", "name": "", "arguments": ""})
                if tc.id:
                    slot["id"] = tc.id
                if tc.function and tc.function.name:
                    slot["name"] = tc.function.name
                if tc.function and tc.function.arguments:
                    slot["arguments"] += tc.function.arguments
            finish = ch.finish_reason or finish
    assert finish == "tool_calls"
    assert [assembled[i]["name"] for i in sorted(assembled)] == ["search_wines"] * 2
    assert json.loads(assembled[0]["arguments"]) == args
    assert json.loads(assembled[1]["arguments"]) == {"query": "cava"}
    assert assembled[0]["id"] != assembled[1]["id"]


async def test_rate_limit_with_retry_after(server: FakeOpenAIServer, client: AsyncOpenAI) -> None:
    server.script(error(429, "Slow down", retry_after=7))
    with pytest.raises(openai.RateLimitError) as exc_info:
        await client.chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": "hi"}]
        )
    assert exc_info.value.status_code == 429
    assert exc_info.value.response.headers["retry-after"] == "7"
    assert "Slow down" in str(exc_info.value)
    assert server.errors == []  # scripted errors are not validation errors


async def test_wrong_api_key(server: FakeOpenAIServer) -> None:
    async with AsyncOpenAI(base_url=server.base_url, api_key="nope", max_retries=0) as bad:
        with pytest.raises(openai.AuthenticationError, match="Incorrect API key provided"):
            await bad.chat.completions.create(
                model=MODEL, messages=[{"role": "user", "content": "hi"}]
            )
    assert len(server.errors) == 1


async def test_embeddings_sdk_default(server: FakeOpenAIServer, client: AsyncOpenAI) -> None:
    resp = await client.embeddings.create(
        model="text-embedding-3-small", input=["Pinot Noir", "Riesling"]
    )
    assert server.embedding_requests[0]["encoding_format"] == "base64"  # SDK default
    assert [d.index for d in resp.data] == [0, 1]
    for d, text in zip(resp.data, ["Pinot Noir", "Riesling"], strict=True):
        assert len(d.embedding) == 64
        assert math.isclose(math.sqrt(sum(x * x for x in d.embedding)), 1.0, rel_tol=1e-5)
        expected = deterministic_embedding(text, 64)
        assert all(
            math.isclose(a, b, abs_tol=1e-6) for a, b in zip(d.embedding, expected, strict=True)
        )
    assert server.errors == []


async def test_embeddings_float_and_custom_fn(
    server: FakeOpenAIServer, client: AsyncOpenAI
) -> None:
    server.embedding_fn = lambda text: [1.0, 0.0, 0.0]
    resp = await client.embeddings.create(
        model="text-embedding-3-small", input="Syrah", encoding_format="float"
    )
    assert resp.data[0].embedding == [1.0, 0.0, 0.0]
    with pytest.raises(openai.BadRequestError, match="input"):
        await client.embeddings.create(model="text-embedding-3-small", input="")


async def test_embeddings_fail(server: FakeOpenAIServer, client: AsyncOpenAI) -> None:
    server.embeddings_fail = 503
    with pytest.raises(openai.InternalServerError):
        await client.embeddings.create(model="text-embedding-3-small", input="x")
    assert len(server.embedding_requests) == 1


async def test_stream_cut(server: FakeOpenAIServer, client: AsyncOpenAI) -> None:
    content = "This answer will be interrupted somewhere in the middle of the sentence."
    server.script(stream_cut(content, after_chars=30))
    received: list[str] = []
    completed = False
    with pytest.raises(openai.APIConnectionError):
        stream = await client.chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": "hi"}], stream=True
        )
        async for chunk in stream:
            for ch in chunk.choices:
                received.append(ch.delta.content or "")
        completed = True
    assert not completed
    assert "".join(received) == content[:30]


async def test_drop_and_hang(server: FakeOpenAIServer, client: AsyncOpenAI) -> None:
    server.script(drop(), hang(5), hang(0.05, then=reply("late")))
    with pytest.raises(openai.APIConnectionError):
        await client.chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": "hi"}]
        )
    with pytest.raises(openai.APITimeoutError):
        await client.chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": "hi"}], timeout=0.2
        )
    resp = await client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "hi"}]
    )
    assert resp.choices[0].message.content == "late"


async def test_responder_and_raw_tool_calls(server: FakeOpenAIServer, client: AsyncOpenAI) -> None:
    def echo(body: dict[str, Any]) -> Any:
        return reply(f"you said {body['messages'][-1]['content']}")

    server.script(
        responder(echo),
        raw_tool_calls(
            [{"id": "c9", "type": "function", "function": {"name": "f", "arguments": {"a": 1}}}]
        ),
    )
    resp = await client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "rosé"}]
    )
    assert resp.choices[0].message.content == "you said rosé"
    raw = await client.chat.completions.with_raw_response.create(
        model=MODEL, messages=[{"role": "user", "content": "x"}]
    )
    body = json.loads(raw.http_response.text)
    assert body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] == {"a": 1}


async def test_models_endpoint(server: FakeOpenAIServer, client: AsyncOpenAI) -> None:
    models = [m.id async for m in client.models.list()]
    assert models == [MODEL]
