"""A fake model for the agent path: it reads what it is sent, as a real model would.

It calls search_wines with the filters of the conversation state in its system prompt (the
line «фильтры поиска: {...}»), then recommends up to three of the wines the tool
returned in the answer format; when the search finds nothing it says so honestly.
"""

from __future__ import annotations

import json
import re
from typing import Any

from fakes.openai_server import Step, call, reply, tool_calls

_FILTERS = re.compile(r"фильтры поиска: (\{.*\})")
_MOOD = re.compile(r"для semantic_search\): «(.*)»")
JSONDict = dict[str, Any]


def _tool_wines(body: JSONDict) -> list[JSONDict] | None:
    """Wines of the tool results after the last user message; None before any tool call."""
    messages = body["messages"]
    last_user = max(i for i, m in enumerate(messages) if m["role"] == "user")
    results = [m for m in messages[last_user:] if m["role"] == "tool"]
    if not results:
        return None
    wines: list[JSONDict] = []
    for message in results:
        payload = json.loads(message["content"])
        wines.extend(payload.get("wines", []) if isinstance(payload, dict) else [])
    return wines


def respond(body: JSONDict) -> Step:
    system = body["messages"][0]["content"]
    wines = _tool_wines(body)
    if wines is None:
        match = _FILTERS.search(system)
        arguments = json.loads(match.group(1)) if match else {}
        mood = _MOOD.search(system)
        if not arguments and mood:
            return tool_calls(call("semantic_search", {"query": mood.group(1), "limit": 5}))
        arguments["limit"] = 5
        return tool_calls(call("search_wines", arguments))
    if not wines:
        return reply("К сожалению, под эти условия в каталоге ничего не нашлось.")
    parts = ["[INTRO]", "Вот что я нашел по вашему запросу:"]
    for wine in wines[:3]:
        parts += [f"[WINE:{wine['id']}]", f"{wine['name']}: {wine['description'][:80]}"]
    parts += ["[CLOSING]", "Хорошего вечера!"]
    return reply("\n".join(parts))
