"""Short wine handles: what the model reads and writes for a wine instead of its id.

A handle is the id's first eight hex digits: 4 tokens where the whole id takes 21, in every
tool result, every past answer and every `[WINE:…]` the model writes. It is a function of the
id alone, so a wine has the same handle in every call and turn and the prompts keep repeating
each other; the agent maps a handle back to the one id among those the model was shown (two
of them sharing eight hex digits is a one-in-a-hundred-million chance, and then neither is
taken). What is stored — the turn's tool results and answers — keeps the whole ids.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable, Sequence
from typing import Any

HANDLE_LENGTH = 8
_ID = re.compile(
    r"\b([0-9a-fA-F]{8})-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"
)
_HANDLE = re.compile(rf"[0-9a-f]{{{HANDLE_LENGTH}}}")


def handle(ref: object) -> str:
    """A wine's handle, from its id or from what the model wrote (a handle or a whole id)."""
    return str(ref).strip().lower()[:HANDLE_LENGTH]


def is_handle(ref: str) -> bool:
    return _HANDLE.fullmatch(ref.strip().lower()) is not None


def shorten_ids(text: str) -> str:
    """Every wine id in `text` as its handle."""
    return _ID.sub(lambda m: m.group(1).lower(), text)


def with_handles(messages: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages as the model reads them: the ids the product wrote (tool results, past
    answers, system messages) as handles; the person's own words as they are."""
    shown: list[dict[str, Any]] = []
    for message in messages:
        content = message.get("content")
        if message.get("role") != "user" and isinstance(content, str) and _ID.search(content):
            message = {**message, "content": shorten_ids(content)}
        shown.append(message)
    return shown


def id_for(ref: str, shown: Iterable[uuid.UUID]) -> uuid.UUID | None:
    """The id the model meant by `ref`: a whole id as it is, a handle as the one wine among
    `shown` it names; None for anything else."""
    try:
        return uuid.UUID(ref.strip())
    except ValueError:
        pass
    if not is_handle(ref):
        return None
    matches = {wine_id for wine_id in shown if handle(wine_id) == handle(ref)}
    return matches.pop() if len(matches) == 1 else None
