"""Chat completions: ``POST /v1/chat/completions`` validated, then answered by the next
scripted Step (or the model's responder, or "ok"), as one JSON body or as Server-Sent
Events."""

from __future__ import annotations

import asyncio
import inspect
import json
import time
import uuid

from aiohttp import web

from fakes.openai.base import ServerBase
from fakes.openai.media import image_part_path
from fakes.openai.protocol import ERROR_DEFAULTS, Invalid, JSONDict, content_text, fmt_num
from fakes.openai.steps import (
    DropStep,
    ErrorStep,
    HangStep,
    PausedReplyStep,
    RawToolCallsStep,
    ReplyStep,
    ResponderStep,
    Step,
    StreamCutStep,
    ToolCallsStep,
)
from fakes.openai.validation import validate_chat

STREAM_CHUNK_CHARS = 20


class ChatMixin(ServerBase):
    """The chat completions endpoint of FakeOpenAIServer."""

    async def _handle_chat(self, request: web.Request) -> web.StreamResponse:
        body = await self._read_json(request, self.requests)
        try:
            self._check_auth(request)
            if body is None:
                raise self._json_body_error()
            validate_chat(body)
            image_path = image_part_path(body["messages"])
            if image_path is not None and body["model"] in self.non_vision_models:
                raise Invalid(
                    "Invalid content type. image_url is only supported by certain models.",
                    param=image_path,
                )
        except Invalid as exc:
            return self._reject(exc)

        if image_path is not None:
            self.vision_requests.append(body)
        if image_path is not None and self._vision_queue:
            step: Step = self._vision_queue.popleft()
        elif self._queue:
            step = self._queue.popleft()
        elif body["model"] in self.model_responders:
            step = ResponderStep(fn=self.model_responders[body["model"]])
        else:
            step = ReplyStep(content="ok")
        if self.latency and await self._sleep(self.latency):
            return self._drop_connection(request)
        return await self._answer(request, body, step, depth=0)

    async def _answer(
        self, request: web.Request, body: JSONDict, step: Step, *, depth: int
    ) -> web.StreamResponse:
        if depth > 16:
            raise RuntimeError("responder/hang steps nested too deeply")
        if isinstance(step, HangStep):
            if await self._sleep(step.seconds):
                return self._drop_connection(request)
            nxt = step.then if step.then is not None else ReplyStep(content="ok")
            return await self._answer(request, body, nxt, depth=depth + 1)
        if isinstance(step, ResponderStep):
            result = step.fn(body)
            if inspect.isawaitable(result):
                result = await result
            if isinstance(result, dict):
                return web.json_response(result, headers=self._headers())
            if not isinstance(result, Step):
                raise TypeError(f"responder returned {result!r}, expected a Step or a dict")
            return await self._answer(request, body, result, depth=depth + 1)
        if isinstance(step, DropStep):
            return self._drop_connection(request)
        if isinstance(step, ErrorStep):
            etype, code, message = ERROR_DEFAULTS.get(
                step.status, ("server_error", None, f"HTTP {step.status}")
            )
            headers: dict[str, str] = {}
            if step.retry_after is not None:
                headers["Retry-After"] = fmt_num(step.retry_after)
                headers["retry-after-ms"] = str(int(step.retry_after * 1000))
            return self._error_response(
                step.status,
                step.message if step.message is not None else message,
                type=step.type or etype,
                param=step.param,
                code=step.code if step.code is not None else code,
                headers=headers,
            )
        if body.get("stream") is True:
            return await self._stream(request, body, step)
        if isinstance(step, StreamCutStep):
            return self._drop_connection(request)
        message, finish_reason = self._message_for(step)
        completion = {
            "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "logprobs": None,
                    "finish_reason": finish_reason,
                }
            ],
            "usage": self._usage(body, step, message),
            "service_tier": "default",
            "system_fingerprint": "fp_fake",
        }
        return web.json_response(completion, headers=self._headers())

    def _tool_call_dicts(self, step: ToolCallsStep) -> list[JSONDict]:
        out = []
        for c in step.calls:
            args = c.arguments if isinstance(c.arguments, str) else json.dumps(c.arguments)
            out.append(
                {
                    "id": c.id or self._next_call_id(),
                    "type": "function",
                    "function": {"name": c.name, "arguments": args},
                }
            )
        return out

    def _message_for(self, step: Step) -> tuple[JSONDict, str]:
        if isinstance(step, ReplyStep):
            msg = {"role": "assistant", "content": step.content, "refusal": None, "annotations": []}
            return msg, step.finish_reason
        if isinstance(step, ToolCallsStep | RawToolCallsStep):
            calls = (
                self._tool_call_dicts(step)
                if isinstance(step, ToolCallsStep)
                else list(step.tool_calls)
            )
            msg = {
                "role": "assistant",
                "content": step.content,
                "tool_calls": calls,
                "refusal": None,
                "annotations": [],
            }
            return msg, "tool_calls"
        raise TypeError(f"cannot answer with {step!r}")

    @staticmethod
    def _usage(body: JSONDict, step: Step, message: JSONDict) -> JSONDict:
        if step.usage is not None:
            return step.usage
        prompt_chars = sum(len(content_text(m.get("content"))) for m in body["messages"])
        out_chars = len(message.get("content") or "")
        for tc in message.get("tool_calls") or []:
            fn = tc.get("function") if isinstance(tc, dict) else None
            if isinstance(fn, dict):
                out_chars += len(str(fn.get("name", ""))) + len(str(fn.get("arguments", "")))
        prompt = prompt_chars // 4
        completion = out_chars // 4 or 10
        return {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }

    # -- streaming -------------------------------------------------------------------

    async def _stream(self, request: web.Request, body: JSONDict, step: Step) -> web.StreamResponse:
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        completion_id = f"chatcmpl-{uuid.uuid4().hex[:24]}"
        created = int(time.time())

        def chunk(delta: JSONDict, finish_reason: str | None = None) -> JSONDict:
            obj: JSONDict = {
                "id": completion_id,
                "object": "chat.completion.chunk",
                "created": created,
                "model": body["model"],
                "service_tier": "default",
                "system_fingerprint": "fp_fake",
                "choices": [
                    {
                        "index": 0,
                        "delta": delta,
                        "logprobs": None,
                        "finish_reason": finish_reason,
                    }
                ],
            }
            if include_usage:
                obj["usage"] = None
            return obj

        resp = web.StreamResponse(
            status=200,
            headers=self._headers({"Cache-Control": "no-cache"}),
        )
        resp.content_type = "text/event-stream"
        resp.charset = "utf-8"
        await resp.prepare(request)

        async def send(obj: JSONDict | str) -> None:
            data = obj if isinstance(obj, str) else json.dumps(obj, separators=(",", ":"))
            await resp.write(f"data: {data}\n\n".encode())

        def pieces(text: str) -> list[str]:
            return [
                text[i : i + STREAM_CHUNK_CHARS] for i in range(0, len(text), STREAM_CHUNK_CHARS)
            ]

        if isinstance(step, StreamCutStep):
            await send(chunk({"role": "assistant", "content": "", "refusal": None}))
            for piece in pieces(step.content[: step.after_chars]):
                await send(chunk({"content": piece}))
            transport = request.transport
            if transport is not None:
                transport.close()
            return resp

        message, finish_reason = self._message_for(step)
        if isinstance(step, ReplyStep):
            await send(chunk({"role": "assistant", "content": "", "refusal": None}))
            cut = step.after_chars if isinstance(step, PausedReplyStep) else len(step.content)
            for index, piece in enumerate(pieces(step.content[:cut])):
                if index and self.chunk_delay:
                    await asyncio.sleep(self.chunk_delay)
                if not index:
                    self.first_content_at.append(time.time())
                await send(chunk({"content": piece}))
            if isinstance(step, PausedReplyStep):
                resumed = asyncio.ensure_future(step.resume.wait())
                closing = asyncio.ensure_future(self._closing.wait())
                await asyncio.wait({resumed, closing}, return_when=asyncio.FIRST_COMPLETED)
                resumed.cancel()
                closing.cancel()
            for piece in pieces(step.content[cut:]):
                await send(chunk({"content": piece}))
        elif isinstance(step, ToolCallsStep):
            first = True
            content = step.content
            if content:
                await send(chunk({"role": "assistant", "content": "", "refusal": None}))
                for piece in pieces(content):
                    await send(chunk({"content": piece}))
                first = False
            for index, tc in enumerate(message["tool_calls"]):
                head: JSONDict = {
                    "index": index,
                    "id": tc["id"],
                    "type": "function",
                    "function": {"name": tc["function"]["name"], "arguments": ""},
                }
                delta: JSONDict = {"tool_calls": [head]}
                if first:
                    delta = {"role": "assistant", "content": None, **delta, "refusal": None}
                    first = False
                await send(chunk(delta))
                for piece in pieces(tc["function"]["arguments"]):
                    await send(
                        chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
                    )
        elif isinstance(step, RawToolCallsStep):
            await send(chunk({"role": "assistant", "content": step.content, "refusal": None}))
            for index, raw in enumerate(step.tool_calls):
                await send(chunk({"tool_calls": [{"index": index, **raw}]}))
        await send(chunk({}, finish_reason))
        if include_usage:
            final = chunk({})
            final["choices"] = []
            final["usage"] = self._usage(body, step, message)
            await send(final)
        await send("[DONE]")
        await resp.write_eof()
        return resp
