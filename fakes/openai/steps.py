"""The scripted model behaviours: each chat request takes the next Step (a text ``reply``,
``tool_calls``, an ``error``, a ``hang``, a ``drop``, a ``responder`` computing the answer,
a stream cut or paused midway); chat.py plays them over HTTP."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from fakes.openai.protocol import JSONDict


@dataclass(kw_only=True)
class Step:
    """Base class of every scripted chat-completion behaviour.

    ``usage`` overrides the computed ``usage`` object of the answer when given.
    """

    usage: JSONDict | None = None


@dataclass
class ReplyStep(Step):
    content: str
    finish_reason: str = "stop"


@dataclass
class PausedReplyStep(ReplyStep):
    """A text answer whose stream stops after ``after_chars`` until ``resume`` is set."""

    after_chars: int = 0
    resume: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class ToolCall:
    name: str
    arguments: str | JSONDict
    id: str | None = None


@dataclass
class ToolCallsStep(Step):
    calls: list[ToolCall]
    content: str | None = None


@dataclass
class RawToolCallsStep(Step):
    tool_calls: list[JSONDict]
    content: str | None = None


@dataclass
class ErrorStep(Step):
    status: int
    message: str | None = None
    retry_after: float | None = None
    type: str | None = None
    code: str | None = None
    param: str | None = None


@dataclass
class HangStep(Step):
    seconds: float
    then: Step | None = None


@dataclass
class DropStep(Step):
    pass


@dataclass
class StreamCutStep(Step):
    content: str
    after_chars: int


ResponderResult = Step | JSONDict
ResponderFn = Callable[[JSONDict], ResponderResult | Awaitable[ResponderResult]]


@dataclass
class ResponderStep(Step):
    fn: ResponderFn


def reply(content: str, *, finish_reason: str = "stop", usage: JSONDict | None = None) -> ReplyStep:
    """Assistant text answer (``finish_reason`` "stop" unless overridden)."""
    return ReplyStep(content=content, finish_reason=finish_reason, usage=usage)


def call(name: str, arguments: str | JSONDict, id: str | None = None) -> ToolCall:
    """One tool call: dict ``arguments`` are JSON-dumped, a str is sent verbatim."""
    return ToolCall(name=name, arguments=arguments, id=id)


def tool_calls(
    *calls: ToolCall, content: str | None = None, usage: JSONDict | None = None
) -> ToolCallsStep:
    """Assistant message with ``tool_calls`` (content null), finish_reason "tool_calls"."""
    if not calls:
        raise ValueError("tool_calls() needs at least one call()")
    return ToolCallsStep(calls=list(calls), content=content, usage=usage)


def raw_tool_calls(
    calls: list[JSONDict], *, content: str | None = None, usage: JSONDict | None = None
) -> RawToolCallsStep:
    """``tool_calls`` sent exactly as given (e.g. ``arguments`` as an object)."""
    return RawToolCallsStep(tool_calls=list(calls), content=content, usage=usage)


def error(
    status: int,
    message: str | None = None,
    retry_after: float | None = None,
    *,
    type: str | None = None,
    code: str | None = None,
    param: str | None = None,
) -> ErrorStep:
    """HTTP error with an OpenAI error body (and ``Retry-After`` when given)."""
    return ErrorStep(
        status=status,
        message=message,
        retry_after=retry_after,
        type=type,
        code=code,
        param=param,
    )


def hang(seconds: float, then: Step | None = None) -> HangStep:
    """Sleep ``seconds`` before answering, then answer ``then`` (default: text "ok")."""
    return HangStep(seconds=seconds, then=then)


def drop() -> DropStep:
    """Close the connection without sending any response (dead peer)."""
    return DropStep()


def responder(fn: ResponderFn) -> ResponderStep:
    """Compute the answer from the request body: ``fn`` returns a Step or a raw JSON dict.

    ``fn`` may be sync or async.  A dict is sent verbatim as a 200 JSON body.
    """
    return ResponderStep(fn=fn)


def stream_cut(content: str, after_chars: int) -> StreamCutStep:
    """Stream ``content[:after_chars]`` then close the connection abruptly (no [DONE])."""
    return StreamCutStep(content=content, after_chars=after_chars)


def stream_paused(content: str, after_chars: int, resume: asyncio.Event) -> PausedReplyStep:
    """Stream ``content[:after_chars]``, wait for ``resume``, then the rest (unstreamed: the
    whole answer at once)."""
    return PausedReplyStep(content=content, after_chars=after_chars, resume=resume)
