"""Past turns as the model sees them: compact, so the default budget holds at least six.

A stored turn carries the raw tool payloads (≈1,700 estimated tokens a turn); the model only
needs what was asked, which wines were shown and why (the stored answer names each by
`[WINE:<id>]`) — the filters in force travel in the conversation-state block of the system
prompt. The current turn's tool results are not history and stay whole.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from services.agent._answer_format import clip

Message = dict[str, Any]
MAX_PAST_ANSWER = 700  # characters of one past answer
MAX_PAST_WHY = 100
_WINE_BLOCK = re.compile(r"(\[WINE:[^\]]+\]\n)([^\[]*)")


def _short_answer(content: str) -> str:
    shortened = _WINE_BLOCK.sub(
        lambda m: m.group(1) + clip(m.group(2).strip(), MAX_PAST_WHY) + "\n", content
    )
    return clip(shortened.strip(), MAX_PAST_ANSWER)


def compact_history(history: Sequence[Message]) -> list[Message]:
    """User messages and final answers only; tool calls and their payloads are dropped."""
    compact: list[Message] = []
    for message in history:
        role = message.get("role")
        if role == "user":
            compact.append({"role": "user", "content": message.get("content") or ""})
        elif role == "assistant" and not message.get("tool_calls") and message.get("content"):
            compact.append({"role": "assistant", "content": _short_answer(message["content"])})
    return compact
