"""Typed events of one agent run; the same stream drives the API, Telegram and the terminal."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, Field

from core.recommendation import Recommendation


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
    # The answer itself, for in-process callers; the serialized event carries its public JSON.
    result: Recommendation = Field(exclude=True, repr=False)

    @classmethod
    def of(cls, result: Recommendation, request_id: str, total_steps: int) -> Final:
        return cls(
            recommendation=result.public_json(),
            request_id=request_id,
            total_steps=total_steps,
            path=result.path,
            result=result,
        )


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
