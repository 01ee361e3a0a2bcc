"""Shared helpers for tests that drive the agent over real HTTP against the fake OpenAI server.

Import what a test module needs; each module declares its own small fixtures from these
context managers so that nothing here is a hidden pytest plugin.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import select

from core.recommendation import Recommendation
from core.settings import Settings
from fakes.openai_server import FakeOpenAIServer
from repositories.models import Wine
from services.agent._service import SommelierService
from services.agent._wine_handles import handle
from services.app.runtime import Runtime
from services.llm.client import LLMClient
from services.llm.embeddings import EmbeddingService
from tests.conftest import TEST_EMBEDDING_DIM, make_settings

API_KEY = "test-key"
# What the model reads for a wine: its handle (the id's first eight hex digits), never the id.
_HANDLE = re.compile(r"[0-9a-f]{8}(?= \|)")

JSONDict = dict[str, Any]


@asynccontextmanager
async def fake_openai(embedding_dim: int = TEST_EMBEDDING_DIM) -> AsyncIterator[FakeOpenAIServer]:
    async with FakeOpenAIServer(api_key=API_KEY, embedding_dim=embedding_dim) as server:
        yield server


def agent_settings(base_url: str | None, **overrides: object) -> Settings:
    """Settings of a service talking to `base_url`; the key is dropped with llm_api_key=None."""
    values: dict[str, object] = {
        "llm_api_key": API_KEY,
        "llm_base_url": base_url,
        "llm_max_retries": 0,
        "llm_timeout_seconds": 2,
        "embedding_dim": TEST_EMBEDDING_DIM,
    }
    values.update(overrides)
    return make_settings(**values)


@asynccontextmanager
async def sommelier_service(
    runtime: Runtime, settings: Settings
) -> AsyncIterator[SommelierService]:
    """The service wired as services/app/container.py does, over the test runtime's sessions."""
    llm = LLMClient(settings)
    embeddings = EmbeddingService(settings)
    try:
        yield SommelierService(settings, runtime.sessions, llm, embeddings)
    finally:
        await llm.close()
        await embeddings.close()


# ---- reading requests -------------------------------------------------------------------------


def tool_messages(body: JSONDict) -> list[JSONDict]:
    return [m for m in body["messages"] if m["role"] == "tool"]


def tool_payloads(body: JSONDict) -> list[JSONDict]:
    """The decoded JSON of every tool message in a request, in order."""
    return [json.loads(m["content"]) for m in tool_messages(body)]


def last_tool_payloads(body: JSONDict) -> list[JSONDict]:
    """Tool results of the latest tool iteration only (after the last assistant tool_calls)."""
    messages = body["messages"]
    start = max(
        i for i, m in enumerate(messages) if m["role"] == "assistant" and m.get("tool_calls")
    )
    block: list[JSONDict] = []
    for message in messages[start + 1 :]:
        if message["role"] != "tool":
            break
        block.append(json.loads(message["content"]))
    return block


def wines_in_tool_results(body: JSONDict) -> list[JSONDict]:
    """Every wine brief the tools returned in this request's messages, first seen first."""
    seen: dict[str, JSONDict] = {}
    for payload in tool_payloads(body):
        for wine in payload.get("wines", []):
            seen.setdefault(wine["id"], wine)
    return list(seen.values())


def system_text(body: JSONDict) -> str:
    """Every system message of a request: the instructions first, the turn's context later."""
    return "\n\n".join(str(m["content"]) for m in body["messages"] if m["role"] == "system")


def catalog_lines(body: JSONDict) -> list[str]:
    """The wine lines of a catalog_prompt system message (each starts with a wine's handle)."""
    return [line for line in system_text(body).splitlines() if _HANDLE.match(line)]


def ids_in(lines: Iterable[str]) -> list[str]:
    """The wine handles the lines start with."""
    return [m.group(0) for line in lines if (m := _HANDLE.match(line))]


def formatted(
    picks: Iterable[tuple[str, str]],
    intro: str = "Вот что я нашел.",
    closing: str = "Приятного вечера!",
) -> str:
    """An answer in the [INTRO]/[WINE:<ref>]/[CLOSING] format the prompt asks for."""
    parts = [f"[INTRO]\n{intro}"]
    parts += [f"[WINE:{ref}]\n{why}" for ref, why in picks]
    parts.append(f"[CLOSING]\n{closing}")
    return "\n".join(parts)


def catalog_ids(body: JSONDict) -> list[str]:
    """Handles of the catalog lines ("<handle> | name | …") in a catalog_prompt request."""
    return ids_in(catalog_lines(body))


def why_for(wine_id: object) -> str:
    """A reason text that names the wine it belongs to (by its handle, as the model read it,
    whether given the id or the handle), so pairing mistakes are visible. The handle goes as a
    code «id-<handle>-0», which the claims reader takes for no claim the wine's row would have
    to bear out (a bare handle of digits reads as a number; 0 of 3,000 random handles in this
    form read as anything)."""
    return f"Причина для id-{handle(wine_id)}-0: отличный выбор."


async def rows_shown(runtime: Runtime, rec: Recommendation) -> list[Wine]:
    """The catalog rows of the wines an answer shows."""
    return list((await wines_by_id(runtime, [w.id for w in rec.wines])).values())


async def wines_by_id(runtime: Runtime, ids: Iterable[uuid.UUID | str]) -> dict[str, Wine]:
    """The catalog rows of `ids` — whole ids or the handles the model was shown — by id."""
    wanted = {handle(i) for i in ids}
    async with runtime.sessions() as session:
        found = (await session.scalars(select(Wine))).all()
    return {str(w.id): w for w in found if handle(w.id) in wanted}
