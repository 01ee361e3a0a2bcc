"""The embeddings API down, refusing connections or hanging: semantic search falls back to full
text and the user still gets wines that fit, through the whole bot."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from aiohttp import web

from core.domain import WineType
from fakes.database import history_problems
from fakes.openai_server import responder
from repositories.wines import WineRepository
from services.agent._wine_handles import handle
from services.app.runtime import Runtime
from tests.bot_harness import running_bot
from tests.bot_helpers import API_KEY, adult, ask, fake_llm, llm_settings
from tests.fault_helpers import (
    JSONDict,
    assert_real_cards,
    good_agent,
    shown_cards,
)
from tests.serving import free_port, serving

QUESTION = "легкое фруктовое красное на пикник до 2000"
ARGS: JSONDict = {
    "query": "легкое фруктовое красное на пикник",
    "wine_type": "red",
    "price_max": 2000,
}


@asynccontextmanager
async def hanging_embeddings() -> AsyncIterator[str]:
    """An /embeddings endpoint that accepts requests and never answers."""

    async def hang(request: web.Request) -> web.Response:
        await asyncio.sleep(60)
        return web.json_response({})

    app = web.Application()
    app.router.add_post("/v1/embeddings", hang)
    async with serving(app, handler_cancellation=True, shutdown_timeout=0.1) as base:
        yield f"{base}/v1"


async def _embedded_catalog(runtime: Runtime, server_url: str) -> None:
    """Vectors for every wine, so that the hybrid search would use them if it could."""
    from services.llm.embeddings import EmbeddingService
    from tests.conftest import make_settings

    service = EmbeddingService(
        make_settings(embedding_api_key=API_KEY, embedding_base_url=server_url)
    )
    try:
        await service.embed_catalog(runtime.sessions)
    finally:
        await service.close()


@pytest.mark.parametrize("failure", ["503", "refused", "hangs"])
async def test_semantic_search_without_embeddings_still_answers(
    seeded: Runtime, caplog: pytest.LogCaptureFixture, failure: str
) -> None:
    caplog.set_level(logging.WARNING)
    chat_id = 960_000 + ["503", "refused", "hangs"].index(failure)
    async with fake_llm() as llm, hanging_embeddings() as hanging:
        await _embedded_catalog(seeded, llm.base_url)
        llm.embedding_requests.clear()
        embedding_url = {
            "503": llm.base_url,
            "refused": f"http://127.0.0.1:{free_port()}/v1",
            "hangs": hanging,
        }[failure]
        llm.embeddings_fail = 503
        llm.script(*[responder(good_agent(ARGS, tool="semantic_search"))] * 3)
        settings = {
            **llm_settings(llm),
            "embedding_base_url": embedding_url,
            "embedding_api_key": API_KEY,
            "llm_timeout_seconds": 2,
            "tool_timeout_seconds": 2,
        }
        async with running_bot(seeded, **settings) as h:
            await adult(h, chat_id)
            sent = await ask(h, chat_id, QUESTION)

    assert llm.errors == [] and h.tg.rejected == []
    tool_results = [
        json.loads(m["content"])
        for body in llm.requests
        for m in body["messages"]
        if m["role"] == "tool"
    ]
    assert tool_results and all("error" not in r for r in tool_results), tool_results
    assert "search by meaning falls back to full text" in caplog.text
    if failure == "503":
        assert llm.embedding_requests  # it was asked, and refused
    # The full-text results are what the user got: real, red, within the budget.
    wines = assert_real_cards(await shown_cards(seeded.sessions, sent))
    assert len(wines) == 3
    returned = {w["id"] for r in tool_results for w in r["wines"]}
    assert {handle(w.id) for w in wines} <= returned
    assert all(w.wine_type == WineType.red and w.price_rub <= 2000 for w in wines)
    async with seeded.sessions() as session:
        text_hits = await WineRepository(session).text_search(
            ARGS["query"], {"wine_type": "red", "price_max": 2000}, 10
        )
    assert {str(w.id) for w in text_hits} & {str(w.id) for w in wines}
    assert await history_problems(seeded.sessions) == []
