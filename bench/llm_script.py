"""The scripted LLM every benchmark talks to: a two-iteration agent run, or the catalog prompt.

Iteration 1 calls search_wines with the filters a model would read from the question;
iteration 2 (sent without tools once the search found wines) answers with the first three
wines of the tool result. A request without tools and without tool results (the random-catalog
prompt) is answered with three wines from its catalog lines.
"""

from __future__ import annotations

import json
import re
from typing import Any

from core.language.request import parse_query
from fakes.openai_server import (
    FakeOpenAIServer,
    Step,
    call,
    error,
    may_call_tools,
    reply,
    responder,
    tool_calls,
)

API_KEY = "bench-key"
CLOSING = "Хорошего вечера! Замер завершен."  # words the grounding check keeps
# A catalog line starts with the wine's id as the model is shown it (its first 8 hex digits).
_CATALOG_LINE = re.compile(r"^([0-9a-f]{8}) \|", re.M)

JSONDict = dict[str, Any]


def question_arguments(question: str) -> JSONDict:
    """search_wines arguments as a model would write them for this question."""
    filters = parse_query(question).filters.model_dump(mode="json", exclude_none=True)
    for key in ("price_min", "price_max"):
        if key in filters:
            filters[key] = float(filters[key])
    return {**filters, "limit": 5}


def formatted(ids: list[str], whys: list[str] | None = None) -> str:
    """The answer format; each why is the wine's own words when given (as a model writes:
    grapes, places, style, the grounded-prose check has something to read)."""
    whys = whys or ["Подходит к вашему запросу по стилю и цене."] * len(ids)
    parts = ["[INTRO]\nВот что я нашел в каталоге."]
    parts += [f"[WINE:{wine_id}]\n{why}" for wine_id, why in zip(ids, whys, strict=False)]
    parts.append(f"[CLOSING]\n{CLOSING}")
    return "\n".join(parts)


def answer(body: JSONDict, *, force_catalog: bool = False) -> Step:
    messages: list[JSONDict] = body["messages"]
    last_user = max(i for i, m in enumerate(messages) if m["role"] == "user")
    results = [m for m in messages[last_user + 1 :] if m["role"] == "tool"]
    if not may_call_tools(body) and not results:
        system = "\n".join(str(m.get("content") or "") for m in messages if m["role"] == "system")
        ids = _CATALOG_LINE.findall(system)
        return reply(formatted(ids[:3]))
    if force_catalog:
        return error(400, "This model does not support tools.")
    if not results:
        question = str(messages[last_user].get("content") or "")
        return tool_calls(call("search_wines", question_arguments(question)))
    try:
        payload = json.loads(results[-1]["content"])
    except (json.JSONDecodeError, TypeError):
        payload = {}
    wines = payload.get("wines", [])[:3]
    whys = [f"{w['name']}: {w['description']}" for w in wines]
    return reply(formatted([str(w["id"]) for w in wines], whys))


def script(server: FakeOpenAIServer, requests: int, *, force_catalog: bool = False) -> None:
    """Queue enough scripted answers for `requests` chat completions (the rest answer "ok")."""
    step = responder(lambda body: answer(body, force_catalog=force_catalog))
    server.script(*([step] * requests))
