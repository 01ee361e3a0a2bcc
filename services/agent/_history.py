"""Conversation history for the LLM: token budget trimming and tool-call pairing repair."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

Message = dict[str, Any]
# A rough but conservative estimate for mixed Russian/English text.
CHARS_PER_TOKEN = 3.0
MESSAGE_OVERHEAD_TOKENS = 4


def estimate_tokens(message: Message) -> int:
    chars = len(message.get("content") or "")
    for call in message.get("tool_calls") or []:
        chars += len(json.dumps(call, ensure_ascii=False))
    return int(chars / CHARS_PER_TOKEN) + MESSAGE_OVERHEAD_TOKENS


def repair_pairing(messages: Sequence[Message]) -> list[Message]:
    """Make the history acceptable to a strict API.

    Every assistant `tool_calls` message must be followed directly by one `tool` message per
    call id. Calls without an answer are removed from the assistant message (the message is
    dropped when nothing is left); `tool` messages that answer nothing are dropped.
    """
    result: list[Message] = []
    i = 0
    while i < len(messages):
        message = messages[i]
        role = message.get("role")
        if role == "tool":
            i += 1  # an orphan: no assistant tool_calls directly before it
            continue
        if role != "assistant" or not message.get("tool_calls"):
            if role == "assistant" and not message.get("content"):
                i += 1  # no text and no calls (e.g. `tool_calls: []`): a strict API rejects it
                continue
            if role == "assistant" and "tool_calls" in message:
                message = {k: v for k, v in message.items() if k != "tool_calls"}
            result.append(message)
            i += 1
            continue
        answers: dict[str, Message] = {}
        j = i + 1
        while j < len(messages) and messages[j].get("role") == "tool":
            call_id = messages[j].get("tool_call_id")
            if call_id and call_id not in answers:
                answers[call_id] = messages[j]
            j += 1
        calls = [c for c in message["tool_calls"] if c.get("id") in answers]
        if calls:
            result.append({**message, "tool_calls": calls})
            result.extend(answers[c["id"]] for c in calls)
        elif message.get("content"):
            result.append({"role": "assistant", "content": message["content"]})
        i = j
    return result


def _blocks(messages: Sequence[Message]) -> list[list[Message]]:
    """Split into units that are kept or dropped whole: a tool_calls message with its answers."""
    blocks: list[list[Message]] = []
    for message in messages:
        if message.get("role") == "tool" and blocks and _opens_tool_block(blocks[-1]):
            blocks[-1].append(message)
        else:
            blocks.append([message])
    return blocks


def _opens_tool_block(block: list[Message]) -> bool:
    return block[0].get("role") == "assistant" and bool(block[0].get("tool_calls"))


def trim_to_budget(messages: Sequence[Message], budget_tokens: int) -> list[Message]:
    """Drop the oldest turns until the history fits; never split a tool-call block.

    A turn starts at a user message, so the model never sees an answer without its question.
    """
    repaired = repair_pairing(messages)
    blocks = _blocks(repaired)
    sizes = [sum(estimate_tokens(m) for m in block) for block in blocks]
    total = sum(sizes)
    start = 0
    while start < len(blocks) and total > budget_tokens:
        total -= sizes[start]
        start += 1
    # Do not begin in the middle of a turn.
    while start < len(blocks) and blocks[start][0].get("role") != "user":
        total -= sizes[start]
        start += 1
    return [m for block in blocks[start:] for m in block]
