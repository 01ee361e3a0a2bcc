"""Typed events of one agent run; the same stream drives the API, Telegram and the terminal."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, PrivateAttr


class StepStarted(BaseModel):
    event: Literal["step_started"] = "step_started"
    step: int
    request_id: str
    max_steps: int


class Thought(BaseModel):
    event: Literal["thought"] = "thought"
    content: str


class ToolInvoked(BaseModel):
    event: Literal["tool_invoked"] = "tool_invoked"
    tool: str
    input: dict[str, Any]


class Observation(BaseModel):
    event: Literal["observation"] = "observation"
    tool: str
    ok: bool
    took_ms: float
    summary: str


class AnswerDelta(BaseModel):
    event: Literal["answer_delta"] = "answer_delta"
    text: str


class Final(BaseModel):
    event: Literal["final"] = "final"
    recommendation: dict[str, Any]
    request_id: str
    total_steps: int
    path: str
    # The typed Recommendation for in-process callers; not part of the serialized event.
    _result: Any = PrivateAttr(default=None)

    @property
    def result(self) -> Any:
        return self._result


class MediaRead(BaseModel):
    """What a photo or a voice message was read as, before the answer to it."""

    event: Literal["media_read"] = "media_read"
    source: Literal["photo", "voice"]
    kind: Literal["label", "dish", "wine_list", "other", "speech"]
    text: str


class ErrorEvent(BaseModel):
    event: Literal["error"] = "error"
    message: str


AgentEvent = (
    StepStarted | Thought | ToolInvoked | Observation | AnswerDelta | Final | MediaRead | ErrorEvent
)


def preview_arguments(raw: str) -> dict[str, Any]:
    """Tool arguments for events (and the user's progress line), as far as they parse."""
    try:
        value = json.loads(raw) if raw else {}
    except json.JSONDecodeError:
        return {"raw": raw[:200]}
    return value if isinstance(value, dict) else {"raw": raw[:200]}
