"""Chat completions over any OpenAI-compatible API (OpenAI, OpenRouter, vLLM, Ollama)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import openai
from openai import AsyncOpenAI, DefaultAioHttpClient

from core.errors import LLMRequestError, LLMUnavailableError
from core.recommendation import Usage
from core.settings import Settings
from core.text import without_control

DeltaCallback = Callable[[str], Awaitable[None]]


@dataclass
class ToolCall:
    id: str
    name: str
    arguments: str  # as the model sent it; may be malformed

    def as_message_part(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments},
        }


@dataclass
class LLMReply:
    content: str | None
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    finish_reason: str | None = None
    prompt_chars: int = 0

    def as_message(self) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": self.content or None}
        if self.tool_calls:
            message["tool_calls"] = [c.as_message_part() for c in self.tool_calls]
        elif not self.content:
            message["content"] = ""
        return message


def prompt_chars(messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]] | None) -> int:
    """Characters sent to the LLM: message texts, tool calls and tool schemas."""
    total = 0
    for message in messages:
        total += len(message.get("content") or "")
        for call in message.get("tool_calls") or []:
            total += len(call["function"]["name"]) + len(call["function"]["arguments"])
    return total + (_schema_chars(tools) if tools else 0)


_measured: tuple[Sequence[dict[str, Any]], int] | None = None


def _schema_chars(tools: Sequence[dict[str, Any]]) -> int:
    # The registry hands out the same list on every call: it is measured once.
    global _measured
    if _measured is None or _measured[0] is not tools:
        _measured = (tools, len(json.dumps(tools, ensure_ascii=False)))
    return _measured[1]


def _text(content: str | None) -> str | None:
    # NUL and other control characters from a model would break storage and Telegram.
    return (without_control(content) or None) if content else None


def _clean_calls(calls: list[ToolCall]) -> list[ToolCall]:
    """Give every call of one reply its own id, and drop control characters.

    Each call's result goes back to the model as a `tool` message keyed by the call's id; a
    missing or repeated id (some servers send them) would pair a result with the wrong call.
    """
    seen: set[str] = set()
    for call in calls:
        if not call.id or call.id in seen:
            call.id = f"call_{uuid.uuid4().hex[:24]}"
        seen.add(call.id)
        call.name = without_control(call.name)
        call.arguments = without_control(call.arguments)
    return calls


def _objects(value: Any) -> list[dict[str, Any]]:
    """The JSON objects of a streamed list (anything else in it is skipped)."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _string(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _count(value: Any) -> int:
    return value if isinstance(value, int) else 0


def _arguments_text(raw: Any) -> str:
    # Some servers send arguments as a JSON object instead of a string; keep them usable.
    if raw is None:
        return ""
    return raw if isinstance(raw, str) else json.dumps(raw, ensure_ascii=False)


class LLMClient:
    def __init__(self, settings: Settings, client: AsyncOpenAI | None = None) -> None:
        self.model = settings.llm_model
        self.configured = settings.llm_configured
        self._client = client or (
            AsyncOpenAI(
                api_key=settings.llm_api_key,
                base_url=settings.llm_base_url or None,
                timeout=settings.llm_timeout_seconds,
                max_retries=settings.llm_max_retries,
                # aiohttp under the SDK (its own supported transport; aiogram already brings
                # aiohttp): less CPU per streamed call than httpx2 (BENCHMARKS.md, "Runs").
                http_client=DefaultAioHttpClient(timeout=settings.llm_timeout_seconds),
            )
            if settings.llm_configured
            else None
        )

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()

    async def complete(
        self,
        messages: Sequence[dict[str, Any]],
        tools: Sequence[dict[str, Any]] | None = None,
        *,
        tool_choice: str | None = None,
        temperature: float = 0.4,
        max_tokens: int = 1200,
        on_delta: DeltaCallback | None = None,
    ) -> LLMReply:
        """One chat completion; streamed when `on_delta` wants the text as it arrives.

        `tool_choice` "none" sends the tools but forbids calling them: the request keeps the
        same prefix as the calls that may use them, which the provider's prompt cache serves.
        """
        if self._client is None:
            raise LLMUnavailableError("no LLM is configured (LLM_API_KEY is not set)")
        request: dict[str, Any] = {
            "model": self.model,
            "messages": list(messages),
            "temperature": temperature,
            "max_tokens": max_tokens,
        }
        if tools:
            # parallel_tool_calls is only valid together with tools.
            request["tools"] = list(tools)
            request["parallel_tool_calls"] = True
            if tool_choice is not None:
                request["tool_choice"] = tool_choice
        sent_chars = prompt_chars(messages, tools)
        try:
            if on_delta is None:
                reply = await self._complete_once(request)
            else:
                reply = await self._complete_streamed(request, on_delta)
        except (openai.APITimeoutError, openai.APIConnectionError) as exc:
            raise LLMUnavailableError(f"LLM unreachable: {type(exc).__name__}") from exc
        except (openai.RateLimitError, openai.InternalServerError) as exc:
            raise LLMUnavailableError(f"LLM unavailable: HTTP {exc.status_code}") from exc
        except (openai.AuthenticationError, openai.PermissionDeniedError) as exc:
            raise LLMUnavailableError(
                f"LLM refused the credentials: HTTP {exc.status_code}"
            ) from exc
        except openai.APIStatusError as exc:
            if exc.status_code >= 500:
                raise LLMUnavailableError(f"LLM unavailable: HTTP {exc.status_code}") from exc
            raise LLMRequestError(f"LLM rejected the request: HTTP {exc.status_code}") from exc
        except openai.APIError as exc:
            raise LLMUnavailableError(f"LLM error: {type(exc).__name__}") from exc
        reply.prompt_chars = sent_chars
        return reply

    async def _complete_once(self, request: dict[str, Any]) -> LLMReply:
        assert self._client is not None
        response = await self._client.chat.completions.create(**request)
        if not response.choices:
            raise LLMRequestError("LLM answered with no choices")
        choice = response.choices[0]
        calls = _clean_calls(
            [
                ToolCall(c.id or "", c.function.name, _arguments_text(c.function.arguments))
                for c in choice.message.tool_calls or []
                if getattr(c, "function", None) is not None
            ]
        )
        usage = Usage()
        if response.usage is not None:
            usage = Usage(response.usage.prompt_tokens or 0, response.usage.completion_tokens or 0)
        return LLMReply(_text(choice.message.content), calls, usage, choice.finish_reason)

    async def _complete_streamed(
        self, request: dict[str, Any], on_delta: DeltaCallback
    ) -> LLMReply:
        """The request goes out as it is and the chunks come back as plain JSON: the SDK's
        parameter transform and a typed model per chunk were a large part of the bot's CPU
        per answer (BENCHMARKS.md). Retries, authentication and error types stay the SDK's."""
        assert self._client is not None
        body = {**request, "stream": True, "stream_options": {"include_usage": True}}
        stream = await self._client.post(
            "/chat/completions",
            body=body,
            cast_to=object,
            stream=True,
            stream_cls=openai.AsyncStream[object],
        )
        text: list[str] = []
        calls: dict[int, dict[str, str]] = {}
        usage = Usage()
        finish: str | None = None
        async for chunk in stream:
            if not isinstance(chunk, dict):
                raise LLMRequestError("LLM streamed a chunk that is not a JSON object")
            if isinstance(used := chunk.get("usage"), dict):
                usage = Usage(
                    _count(used.get("prompt_tokens")), _count(used.get("completion_tokens"))
                )
            for choice in _objects(chunk.get("choices")):
                finish = _string(choice.get("finish_reason")) or finish
                delta = choice.get("delta")
                if not isinstance(delta, dict):
                    continue
                content = _string(delta.get("content"))
                if content and (piece := without_control(content)):
                    text.append(piece)
                    await on_delta(piece)
                for part in _objects(delta.get("tool_calls")):
                    index = part.get("index")
                    slot = calls.setdefault(
                        index if isinstance(index, int) else len(calls),
                        {"id": "", "name": "", "arguments": ""},
                    )
                    if call_id := _string(part.get("id")):
                        slot["id"] = call_id
                    if isinstance(function := part.get("function"), dict):
                        slot["name"] += _string(function.get("name"))
                        slot["arguments"] += _arguments_text(function.get("arguments"))
        if finish is None:
            # The stream ended without a finish reason: the connection was cut mid-answer.
            raise LLMUnavailableError("LLM stream ended before the answer was complete")
        tool_calls = _clean_calls(
            [ToolCall(c["id"], c["name"], c["arguments"]) for _, c in sorted(calls.items())]
        )
        return LLMReply(_text("".join(text)), tool_calls, usage, finish)
