"""Streaming one LLM call: the answer's intro comes out as deltas while it is written (the
text after [INTRO], up to the next marker, as answer_format.intro_so_far reads it), checked
by the prompt guard on the way (a quotation of the instructions is never shown) and, given a
`StreamGrounder`, sentence by sentence against the wines the model was shown."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from services.agent._answer_format import intro_so_far
from services.agent._events import AnswerDelta
from services.agent._grounding_stream import StreamGrounder
from services.agent._prompt_guard import PromptGuard, StreamGuard
from services.llm.client import LLMReply

Call = Callable[[Callable[[str], Awaitable[None]] | None], Awaitable[LLMReply]]


async def streamed_call(
    call: Call, guard: PromptGuard, stream: bool, grounder: StreamGrounder | None = None
) -> AsyncIterator[AnswerDelta | LLMReply]:
    """One LLM call (`call(on_delta)`); when streaming, the intro as deltas without markers."""
    if not stream:
        yield await call(None)
        return
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    task = asyncio.create_task(call(queue.put))
    written = ""
    fed = 0  # how much of the intro the guard has seen
    intro: StreamGuard | None = None
    finished = False
    try:
        async for chunk in _drain(queue, task):
            if finished:
                continue  # the rest of the answer comes in the final event
            written += chunk
            so_far = intro_so_far(written)
            if so_far is None:
                continue
            intro = intro or StreamGuard(guard)
            new, fed = so_far.text[fed:], max(fed, len(so_far.text))
            if new and (shown := _grounded(intro.feed(new), grounder)):
                yield AnswerDelta(text=shown)
            if so_far.complete:
                finished = True
                if rest := _finish(intro, grounder):
                    yield AnswerDelta(text=rest)
    finally:
        if not task.done():
            task.cancel()
    reply = task.result()
    if intro is not None and not finished and (rest := _finish(intro, grounder)):
        yield AnswerDelta(text=rest)
    yield reply


async def _drain(queue: asyncio.Queue[str | None], task: asyncio.Task[Any]) -> AsyncIterator[str]:
    """What the call has written since the last look, as one piece, until the call ends (its
    end is queued behind its last delta). The model's deltas arrive many to a network read:
    taking them together costs one turn of the loop instead of one per delta."""
    task.add_done_callback(lambda _: queue.put_nowait(None))
    ended = False
    while not ended:
        pieces: list[str] = []
        item = await queue.get()
        while True:
            if item is None:
                ended = True
            else:
                pieces.append(item)
            if queue.empty():
                break
            item = queue.get_nowait()
        if pieces:
            yield "".join(pieces)


def _grounded(text: str, grounder: StreamGrounder | None) -> str:
    return grounder.feed(text) if grounder is not None and text else text


def _finish(intro: StreamGuard, grounder: StreamGrounder | None) -> str:
    rest = intro.finish()
    if grounder is not None:
        rest = grounder.feed(rest) + grounder.finish()
    return rest
