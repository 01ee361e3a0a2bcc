"""Streaming one LLM call: the answer text after its [INTRO] marker comes out as deltas,
checked by the prompt guard on the way (a quotation of the instructions is never shown) and,
given a `StreamGrounder`, sentence by sentence against the wines the model was shown."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from services.agent.events import AnswerDelta
from services.agent.grounding_stream import StreamGrounder
from services.agent.guard import PromptGuard, StreamGuard
from services.llm.client import LLMReply

_INTRO_MARKER = re.compile(r"\[\s*INTRO\s*\]", re.IGNORECASE)

Call = Callable[[Callable[[str], Awaitable[None]] | None], Awaitable[LLMReply]]


async def streamed_call(
    call: Call, guard: PromptGuard, stream: bool, grounder: StreamGrounder | None = None
) -> AsyncIterator[AnswerDelta | LLMReply]:
    """One LLM call (`call(on_delta)`); when streaming, the answer after [INTRO] as deltas."""
    if not stream:
        yield await call(None)
        return
    queue: asyncio.Queue[str] = asyncio.Queue()
    task = asyncio.create_task(call(queue.put))
    buffered = ""
    answer: StreamGuard | None = None
    try:
        async for chunk in _drain(queue, task):
            if answer is None:
                buffered += chunk
                marker = _INTRO_MARKER.search(buffered)
                if marker is None:
                    continue
                answer = StreamGuard(guard)
                chunk = buffered[marker.end() :].lstrip()
            shown = answer.feed(chunk)
            if grounder is not None and shown:
                shown = grounder.feed(shown)
            if shown:
                yield AnswerDelta(text=shown)
    finally:
        if not task.done():
            task.cancel()
    reply = task.result()
    rest = answer.finish() if answer is not None else ""
    if grounder is not None and answer is not None:
        rest = grounder.feed(rest) + grounder.finish()
    if rest:
        yield AnswerDelta(text=rest)
    yield reply


async def _drain(queue: asyncio.Queue[str], task: asyncio.Task[Any]) -> AsyncIterator[str]:
    while not (task.done() and queue.empty()):
        getter = asyncio.ensure_future(queue.get())
        done, _ = await asyncio.wait({getter, task}, return_when=asyncio.FIRST_COMPLETED)
        if getter in done:
            yield getter.result()
        else:
            getter.cancel()
